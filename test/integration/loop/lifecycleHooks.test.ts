// Issue 15 end to end through the real loop, FakeHookServer child processes and the fake OpenAI server:
// where each lifecycle hook runs, the exact synthetic pairs and tool messages it produces, the exact
// `_meta` each server receives, parallel calls applied in configuration order, hostile text kept
// inside its envelope, and (through rig.close) every request valid for the real API.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { JsonlTranscriptStore } from '../../../src/runtime/jsonlTranscriptStore';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { HOSTILE_TEXT, type HookBehaviour, type HookServerLogEntry } from '../../fakes/hookServer';
import { openRig, waitUntil, type Rig, type WireMessage } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const text = (value: string): HookBehaviour => ({ kind: 'text', text: value });
const hookMeta = (entry: HookServerLogEntry | undefined): Record<string, unknown> | undefined =>
  (entry?.meta as Record<string, Record<string, unknown>> | undefined)?.['sprout/hook'];
const envelope = (hook: string, server: string, body: string): string => JSON.stringify({ hook, server, text: body });

/** The synthetic pair of `hook` from `server` as it went over the wire (id checked by pattern). */
function assertPair(messages: readonly WireMessage[], at: number, hook: string, server: string, body: string): void {
  const call = messages[at];
  const answer = messages[at + 1];
  assert.equal(call?.role, 'assistant', `message ${at} is ${hook}'s synthetic call`);
  assert.equal(call?.content ?? null, null);
  const [tc] = call?.tool_calls ?? [];
  assert.equal(call?.tool_calls?.length, 1);
  assert.match(tc?.id ?? '', new RegExp(`^sprout_hook_${hook}_${server}_\\d+$`));
  assert.deepEqual({ name: tc?.function.name, arguments: tc?.function.arguments }, { name: `${server}__${hook}`, arguments: '{}' });
  assert.deepEqual({ role: answer?.role, id: answer?.tool_call_id, content: answer?.content }, { role: 'tool', id: tc?.id, content: envelope(hook, server, body) });
}

test('_SessionStart then _UserPromptSubmit are injected right after the prompt, in configuration order; _SessionStart only once', async () => {
  rig = await openRig({
    servers: [
      // The first server answers last: the order comes from the configuration.
      { name: 'alpha', config: { hooks: { _SessionStart: { kind: 'delay', ms: 600, text: 'alpha starts' }, _UserPromptSubmit: text('alpha on the prompt') } } },
      { name: 'beta', config: { hooks: { _SessionStart: { kind: 'hostile' }, _UserPromptSubmit: { kind: 'whitespace' } } } },
    ],
    responses: [fakeReply.text('one'), fakeReply.text('two')],
    sessionId: 'start-session',
  });
  assert.equal((await rig.runtime.session.run('first prompt')).reason, 'end_turn');
  const first = rig.messages(0);
  assert.deepEqual(first[0], { role: 'user', content: 'first prompt' });
  assertPair(first, 1, '_SessionStart', 'alpha', 'alpha starts');
  assertPair(first, 3, '_SessionStart', 'beta', HOSTILE_TEXT.trim());
  assertPair(first, 5, '_UserPromptSubmit', 'alpha', 'alpha on the prompt');
  assert.equal(first.length, 7, 'whitespace from beta injects nothing');
  assert.deepEqual(
    rig.of('hook_injected').map((e) => [e.hook, e.server]),
    [['_SessionStart', 'alpha'], ['_SessionStart', 'beta'], ['_UserPromptSubmit', 'alpha']],
  );
  assert.deepEqual(hookMeta(rig.calls('alpha', '_SessionStart')[0]), { event: '_SessionStart', sessionId: 'start-session', source: 'new' });
  assert.deepEqual(hookMeta(rig.calls('beta', '_UserPromptSubmit')[0]), { event: '_UserPromptSubmit', sessionId: 'start-session', prompt: 'first prompt', mode: 'agent' });
  assert.deepEqual(rig.calls('alpha', '_SessionStart')[0]?.arguments, {});

  await rig.runtime.session.run('second prompt');
  assert.equal(rig.calls('alpha', '_SessionStart').length, 1, 'not on later prompts');
  assert.deepEqual(rig.calls('alpha', '_UserPromptSubmit').map((c) => hookMeta(c)?.prompt), ['first prompt', 'second prompt']);
  const second = rig.messages(1);
  const at = second.findIndex((m) => m.role === 'user' && m.content === 'second prompt');
  assertPair(second, at + 1, '_UserPromptSubmit', 'alpha', 'alpha on the prompt');
  assert.equal(second.length, at + 3);
});

test('_UserPromptSubmit gets the prompt capped at 16 KiB', async () => {
  rig = await openRig({ servers: [{ name: 'ups', config: { hooks: { _UserPromptSubmit: { kind: 'empty' } } } }], responses: [fakeReply.text('ok')] });
  await rig.runtime.session.run('p'.repeat(20_000));
  const prompt = String(hookMeta(rig.calls('ups', '_UserPromptSubmit')[0])?.prompt);
  assert.equal(prompt, `${'p'.repeat(16_384)}\n[content truncated]`);
});

test('a reopened session calls _SessionStart with source "resume" on its first prompt', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-resume-'));
  const file = join(dir, 'chat.jsonl');
  const servers = [{ name: 'todo', config: { hooks: { _SessionStart: { kind: 'ifMeta', key: 'source', value: 'resume', then: text('open items: 1') } as HookBehaviour } } }];
  try {
    rig = await openRig({ servers, transcript: new JsonlTranscriptStore(file), responses: [fakeReply.text('first')] });
    await rig.runtime.session.run('one');
    assert.deepEqual(rig.calls('todo', '_SessionStart').map((c) => hookMeta(c)?.source), ['new']);
    assert.equal(rig.of('hook_injected').length, 0);
    await rig.close();

    rig = await openRig({ servers, transcript: new JsonlTranscriptStore(file), responses: [fakeReply.text('second'), fakeReply.text('third')] });
    await rig.runtime.session.run('two');
    await rig.runtime.session.run('three');
    assert.deepEqual(rig.calls('todo', '_SessionStart').map((c) => hookMeta(c)?.source), ['resume'], 'once, on the first prompt after the resume');
    const messages = rig.messages(0);
    const at = messages.findIndex((m) => m.role === 'user' && m.content === 'two');
    assertPair(messages, at + 1, '_SessionStart', 'todo', 'open items: 1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('_PreToolUse denies: the tool is not run, its answer is the first denier\'s envelope, _PostToolUse is not called', async () => {
  rig = await openRig({
    servers: [
      { name: 'work', config: {} },
      { name: 'quiet', config: { hooks: { _PreToolUse: { kind: 'empty' } } } },
      { name: 'strict', config: { hooks: { _PreToolUse: { kind: 'delay', ms: 500, text: 'strict says no' } } } },
      { name: 'hostile', config: { hooks: { _PreToolUse: { kind: 'hostile' }, _PostToolUse: text('never') } } },
    ],
    responses: [fakeReply.toolCalls([{ id: 'c1', name: 'work__echo', arguments: { text: 'hi' } }]), fakeReply.text('done')],
    sessionId: 'deny-session',
  });
  assert.equal((await rig.runtime.session.run('go')).reason, 'end_turn');
  assert.equal(rig.calls('work', 'echo').length, 0, 'the denied call never reached its server');
  const answer = rig.messages(1).find((m) => m.role === 'tool' && m.tool_call_id === 'c1');
  assert.equal(answer?.content, envelope('_PreToolUse', 'strict', 'strict says no'));
  assert.deepEqual(rig.of('tool_denied'), [
    { type: 'tool_denied', callId: 'c1', name: 'work__echo', server: 'strict', text: 'strict says no', denialsUsed: 1, denialBudget: 10 },
  ]);
  assert.equal(rig.calls('hostile', '_PostToolUse').length, 0);
  assert.deepEqual(hookMeta(rig.calls('quiet', '_PreToolUse')[0]), {
    event: '_PreToolUse',
    sessionId: 'deny-session',
    tool: 'work__echo',
    server: 'work',
    toolName: 'echo',
    arguments: { text: 'hi' },
    callId: 'c1',
    denialsUsed: 0,
    denialBudget: 10,
  });
  assert.deepEqual(rig.of('tool_finished').map((e) => [e.callId, e.isError, e.text]), [['c1', true, envelope('_PreToolUse', 'strict', 'strict says no')]]);
});

test('the denial budget: once spent, _PreToolUse is not called and tools run; it resets per prompt; denied calls count as rounds', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: {} }, { name: 'guard', config: { hooks: { _PreToolUse: text('denied') } } }],
    hooks: { preToolUseMaxDenials: 2 },
    settings: { maxRounds: 4 },
    responses: [
      ...['a', 'b', 'c'].map((t) => fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: t } }])),
      fakeReply.text('done'),
      fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'd' } }]),
      fakeReply.text('done again'),
    ],
  });
  const first = await rig.runtime.session.run('go');
  assert.equal(first.rounds, 4, 'the denied rounds are rounds');
  assert.deepEqual(rig.calls('guard', '_PreToolUse').map((c) => [hookMeta(c)?.denialsUsed, hookMeta(c)?.denialBudget]), [[0, 2], [1, 2]]);
  assert.deepEqual(rig.calls('work', 'echo').map((c) => c.arguments), [{ text: 'c' }], 'the third call ran without asking');
  await rig.runtime.session.run('again');
  assert.equal(rig.calls('guard', '_PreToolUse').length, 3, 'a new prompt has a fresh budget');
  assert.deepEqual(hookMeta(rig.calls('guard', '_PreToolUse')[2])?.denialsUsed, 0);
});

test('preToolUseMaxDenials = 0 never calls _PreToolUse', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: {} }, { name: 'guard', config: { hooks: { _PreToolUse: text('denied') } } }],
    hooks: { preToolUseMaxDenials: 0 },
    responses: [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'a' } }]), fakeReply.text('done')],
  });
  await rig.runtime.session.run('go');
  assert.equal(rig.calls('guard', '_PreToolUse').length, 0);
  assert.equal(rig.calls('work', 'echo').length, 1);
});

test('_PostToolUse after each call that ran (result or error): exact _meta, injected after the round in call then configuration order', async () => {
  const byCall = (server: string): HookBehaviour => ({ kind: 'ifMeta', key: 'callId', value: 'c1', then: text(`${server} on c1`), else: text(`${server} on c2`) });
  rig = await openRig({
    servers: [
      { name: 'work', config: { extraTools: [{ name: 'fail', behaviour: { kind: 'isError', text: 'boom' } }] } },
      { name: 'slow', config: { hooks: { _PostToolUse: { kind: 'delay', ms: 500, text: 'slow after' } } } },
      { name: 'post', config: { hooks: { _PostToolUse: byCall('post') } } },
    ],
    responses: [
      fakeReply.toolCalls([
        { id: 'c1', name: 'work__echo', arguments: { text: 'hi' } },
        { id: 'c2', name: 'work__fail', arguments: {} },
        { id: 'c3', name: 'work__missing', arguments: {} },
      ]),
      fakeReply.text('done'),
    ],
    sessionId: 'post-session',
  });
  await rig.runtime.session.run('go');
  const messages = rig.messages(1);
  assert.deepEqual(
    messages.slice(2, 5).map((m) => [m.role, m.tool_call_id, m.content]),
    [['tool', 'c1', 'hi'], ['tool', 'c2', 'Error: boom'], ['tool', 'c3', 'unknown tool: work__missing']],
  );
  assertPair(messages, 5, '_PostToolUse', 'slow', 'slow after');
  assertPair(messages, 7, '_PostToolUse', 'post', 'post on c1');
  assertPair(messages, 9, '_PostToolUse', 'slow', 'slow after');
  assertPair(messages, 11, '_PostToolUse', 'post', 'post on c2');
  assert.equal(messages.length, 13, 'the unknown tool never ran, so no hook was told about it');
  const [onEcho, onFail] = rig.calls('post', '_PostToolUse').map(hookMeta).sort((a, b) => String(a?.callId).localeCompare(String(b?.callId)));
  assert.equal(typeof onEcho?.durationMs, 'number');
  assert.deepEqual(
    { ...onEcho, durationMs: 0 },
    { event: '_PostToolUse', sessionId: 'post-session', tool: 'work__echo', server: 'work', toolName: 'echo', arguments: { text: 'hi' }, callId: 'c1', isError: false, durationMs: 0, result: 'hi' },
  );
  assert.deepEqual([onFail?.tool, onFail?.isError, onFail?.result], ['work__fail', true, 'Error: boom'], 'the result as the model sees it');
});

test('_PostToolUse is not called for a cancelled call', async () => {
  rig = await openRig({
    servers: [
      { name: 'work', config: { extraTools: [{ name: 'slow', behaviour: { kind: 'hang' } }] } },
      { name: 'post', config: { hooks: { _PostToolUse: text('after') } } },
    ],
    responses: [fakeReply.toolCalls([{ name: 'work__slow', arguments: {} }])],
  });
  const controller = new AbortController();
  const run = rig.runtime.session.run('go', controller.signal);
  await waitUntil(() => rig?.calls('work', 'slow').length === 1, 'the tool call to reach its server');
  controller.abort();
  assert.equal((await run).reason, 'cancelled');
  assert.equal(rig.calls('post', '_PostToolUse').length, 0);
  assert.equal(rig.of('hook_injected').length, 0);
});

test('timeouts of every hook count in the server\'s one counter: a hung _PreToolUse then a hung _PostToolUse kill it', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: {} }, { name: 'hung', config: { hooks: { _PreToolUse: { kind: 'hang' }, _PostToolUse: { kind: 'hang' } } } }],
    hooks: { timeoutMs: 400 },
    responses: [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'still runs' } }]), fakeReply.text('done')],
  });
  assert.equal((await rig.runtime.session.run('go')).reason, 'end_turn');
  assert.equal(rig.calls('work', 'echo').length, 1, 'a timed-out _PreToolUse is no denial');
  assert.deepEqual(rig.of('hook_timed_out').map((e) => [e.hook, e.consecutive]), [['_PreToolUse', 1], ['_PostToolUse', 2]]);
  assert.deepEqual(rig.of('server_killed').map((e) => e.server), ['hung']);
  assert.ok(rig.log('hung').some((e) => e.type === 'cancelled'), 'the timed-out calls were cancelled on the wire');
});

test('_SessionEnd is called once with its reason and reaches no model; a session that ran no prompt owes none', async () => {
  rig = await openRig({ servers: [{ name: 'bye', config: { hooks: { _SessionEnd: text('ignored') } } }], responses: [fakeReply.text('hi')], sessionId: 'end-session' });
  await rig.runtime.session.end('new_chat');
  assert.equal(rig.calls('bye', '_SessionEnd').length, 0, 'no prompt ran');
  await rig.runtime.session.run('go');
  await rig.runtime.session.end('exit');
  await rig.runtime.session.end('closed');
  assert.deepEqual(rig.calls('bye', '_SessionEnd').map(hookMeta), [{ event: '_SessionEnd', sessionId: 'end-session', reason: 'exit' }]);
  assert.deepEqual(rig.of('hook_finished').filter((e) => e.hook === '_SessionEnd').map((e) => [e.result, e.text]), [['objection', 'ignored']]);
  assert.equal(rig.of('hook_injected').length, 0);
  assert.equal(rig.fake.chatRequests().length, 1);
});

test('_Stop gets the evidence: the calls made since the prompt started and the closing text (capped 4 KiB)', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: { extraTools: [{ name: 'fail', behaviour: { kind: 'isError' } }] } }, { name: 'judge', config: { hooks: { _Stop: { kind: 'empty' } } } }],
    responses: [
      fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'a' } }, { name: 'work__fail', arguments: {} }]),
      fakeReply.toolCalls([{ name: 'work__nope', arguments: {} }]),
      fakeReply.text('é'.repeat(3000)),
    ],
  });
  await rig.runtime.session.run('go');
  const meta = hookMeta(rig.calls('judge', '_Stop')[0]);
  assert.deepEqual(meta?.toolCalls, [
    { tool: 'work__echo', isError: false },
    { tool: 'work__fail', isError: true },
    { tool: 'work__nope', isError: true },
  ]);
  assert.equal(meta?.lastAssistantText, `${'é'.repeat(2048)}\n[content truncated]`);
});
