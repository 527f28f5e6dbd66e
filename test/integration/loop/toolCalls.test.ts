// The loop's tool rules (docs/spec-coverage.md#7-the-agent-loop) end to end, through real MCP child processes and the fake OpenAI server:
// parallel calls bounded by maxParallelTools with results in call order, the tool timeout (an error
// result, notifications/cancelled at the server), the result cap with its marker, a user cancel during
// a tool (cancelled at the server, history valid for the next prompt), and tools/list_changed reaching
// the tool list of the next request.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import type { FakeToolSpec } from '../../fakes/hookServer';
import { scaleAtLoadNow } from '../../loadScale';
import { openRig, waitUntil, type Rig } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const slow = (name: string, ms: number): FakeToolSpec => ({ name, behaviour: { kind: 'delay', ms, text: `${name} result` } });

test('parallel tool calls stay within maxParallelTools and come back in call order', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: { extraTools: [slow('a', 2000), slow('b', 100), slow('c', 500), slow('d', 100)] } }],
    settings: { maxParallelTools: 2 },
    responses: [fakeReply.toolCalls(['a', 'b', 'c', 'd'].map((t) => ({ name: `work__${t}`, arguments: {} }))), fakeReply.text('done')],
  });
  await rig.runtime.hub.listTools();
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const results = rig.messages(1).filter((m) => m.role === 'tool').map((m) => m.content);
  assert.deepEqual(results, ['a result', 'b result', 'c result', 'd result']);
  const calls = rig.log('work').filter((e) => e.type === 'call');
  assert.deepEqual(calls.map((c) => c.tool).slice(0, 2).sort(), ['a', 'b'], 'the first two start together');
  // With a bound of 2, d can only start once a or b finished (b, after 100 ms), never with a and b.
  const at = Object.fromEntries(calls.map((c) => [c.tool, c.at]));
  assert.ok((at.c ?? 0) - (at.b ?? 0) >= 80 && (at.d ?? 0) - (at.b ?? 0) >= 80, `c and d waited for a free slot: ${JSON.stringify(at)}`);
  assert.ok((at.d ?? 0) < (at.a ?? 0) + 1800, 'd did not wait for the slow a: the pool is a bound, not batches');
});

test('a tool past its timeout is an error result and gets notifications/cancelled; long results are capped', async () => {
  const toolTimeoutMs = scaleAtLoadNow()(1500);
  rig = await openRig({
    servers: [{ name: 'work', config: { extraTools: [{ name: 'stuck', behaviour: { kind: 'hang' } }, { name: 'big', behaviour: { kind: 'bigText', bytes: 50_000 } }] } }],
    // work__big must answer within the timeout: a margin scaled with this moment's load.
    settings: { toolTimeoutMs, toolResultMaxChars: 1000 },
    responses: [fakeReply.toolCalls([{ name: 'work__stuck', arguments: {} }, { name: 'work__big', arguments: {} }]), fakeReply.text('done')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const [stuck, big] = rig.messages(1).filter((m) => m.role === 'tool').map((m) => String(m.content));
  assert.equal(stuck, `tool work__stuck timed out after ${toolTimeoutMs} ms and was cancelled`);
  assert.equal(big, `${'x'.repeat(1000)}\n[result truncated: 49000 more characters]`);
  await waitUntil(() => (rig?.log('work') ?? []).some((e) => e.type === 'cancelled'), 'notifications/cancelled at the server');
});

test('cancel during a tool call: the server is told, every call is answered, the next prompt is accepted', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: { extraTools: [{ name: 'stuck', behaviour: { kind: 'hang' } }] } }],
    responses: [fakeReply.toolCalls([{ name: 'work__stuck', arguments: {} }, { name: 'work__echo', arguments: { text: 'quick' } }]), fakeReply.text('fresh start')],
  });
  const controller = new AbortController();
  const run = rig.runtime.session.run('go', controller.signal);
  await waitUntil(() => (rig?.calls('work', 'stuck').length ?? 0) > 0, 'the stuck call at the server');
  controller.abort();
  assert.equal((await run).reason, 'cancelled');
  await waitUntil(() => (rig?.log('work') ?? []).some((e) => e.type === 'cancelled'), 'notifications/cancelled at the server');
  assert.equal((await rig.runtime.session.run('again')).reason, 'end_turn');
  const tools = rig.messages(1).filter((m) => m.role === 'tool').map((m) => m.content);
  assert.equal(tools[0], 'cancelled');
  assert.equal(tools.length, 2, 'both calls answered');
});

test('tools/list_changed: the next request offers the new tool', async () => {
  rig = await openRig({
    servers: [{ name: 'grow', config: { listChangedAfterCall: true } }],
    responses: [fakeReply.toolCalls([{ name: 'grow__echo', arguments: { text: 'hi' } }]), fakeReply.toolCalls([{ name: 'grow__added_0', arguments: {} }]), fakeReply.text('done')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const names = rig.chatBodies().map((b) => (b.tools ?? []).map((t) => t.function.name));
  assert.deepEqual(names[0], ['grow__echo']);
  assert.ok(names[1]?.includes('grow__added_0'), `the second request lists the added tool: ${JSON.stringify(names[1])}`);
  assert.equal(rig.messages(2).filter((m) => m.role === 'tool').at(-1)?.content, 'added_0 ok');
  assert.ok(rig.of('tools_changed').some((e) => e.server === 'grow'));
});
