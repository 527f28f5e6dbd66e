import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { delayed, hangs } from '../../fakes/InMemoryToolHost';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

test('tool calls run in parallel up to the bound and results come back in call order', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { slow: delayed(80, 'slow-done'), fast: delayed(5, 'fast-done'), _Stop: () => '' } }],
    settings: settings({ maxParallelTools: 2 }),
    script: [reply.tools(call('fs__slow', {}, 'a'), call('fs__fast', {}, 'b'), call('fs__fast', {}, 'c'), call('fs__slow', {}, 'd')), reply.text('all done')],
  });
  const outcome = await h.session.run('do it');
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.rounds, 2);
  assert.equal(h.tools.maxActive, 2);
  const sent = h.model.requests[0]?.tools.map((t) => t.name);
  assert.deepEqual(sent, ['fs__slow', 'fs__fast'], 'hooks are never offered to the model');
  const toolMessages = h.session.state.history.filter((m) => m.role === 'tool');
  assert.deepEqual(
    toolMessages.map((m) => (m.role === 'tool' ? [m.toolCallId, m.content] : [])),
    [['a', 'slow-done'], ['b', 'fast-done'], ['c', 'fast-done'], ['d', 'slow-done']],
  );
  assert.equal(h.model.requests[0]?.messages[0]?.role, 'system');
});

test('hooks, unknown tools and bad arguments become error results without touching a server', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: (args) => `read ${String(args.path)}`, _Stop: () => 'nope' } }],
    settings: settings({}, { allowlist: { kind: 'names', names: [] } }),
    script: [
      reply.tools(call('fs___Stop', {}, 'h'), call('nope__x', {}, 'u'), call('fs__read', '{"path":', 'j'), call('fs__read', '[1]', 'arr'), call('fs__read', { path: 'a.ts' }, 'ok')),
      reply.text('fine'),
    ],
  });
  await h.session.run('go');
  const results = Object.fromEntries(h.session.state.history.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content]] : [])));
  assert.equal(results.h, 'unknown tool: fs___Stop');
  assert.equal(results.u, 'unknown tool: nope__x');
  assert.match(results.j ?? '', /not valid JSON .*The arguments you sent: \{"path":/s);
  assert.match(results.arr ?? '', /must be a JSON object/);
  const sent = h.session.state.history.find((m) => m.role === 'assistant' && m.toolCalls !== undefined);
  const args = Object.fromEntries(sent?.role === 'assistant' ? (sent.toolCalls ?? []).map((c) => [c.id, c.arguments]) : []);
  assert.deepEqual([args.j, args.arr, args.ok], ['{}', '{}', '{"path":"a.ts"}'], 'the history holds `{}` for what was not a JSON object');
  assert.equal(results.ok, 'read a.ts');
  assert.deepEqual(h.tools.calls.map((c) => c.tool), ['read'], 'only the valid call reached the server; _Stop is not allowlisted');
  const finished = h.of('tool_finished').filter((e) => e.isError);
  assert.equal(finished.length, 4);
});

test('a tool that outlives toolTimeoutMs is cancelled and reported; long results are truncated', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { stuck: hangs, big: () => 'x'.repeat(500) } }],
    settings: settings({ toolTimeoutMs: 60, toolResultMaxChars: 100 }),
    script: [reply.tools(call('fs__stuck', {}, 's'), call('fs__big', {}, 'b')), reply.text('ok')],
  });
  // `stuck` never answers: that the turn ends at all shows the timeout cancelled it (the test's hang guard fails it otherwise).
  const outcome = await h.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const [stuck, big] = h.session.state.history.filter((m) => m.role === 'tool');
  assert.match(stuck?.content ?? '', /timed out after 60 ms/);
  assert.equal(big?.content, `${'x'.repeat(100)}\n[result truncated: 400 more characters]`);
  assert.equal(h.tools.callsTo('stuck')[0]?.cancelled, true);
});

test('cancel during tools answers every call and the next prompt sends a valid history', async () => {
  const controller = new AbortController();
  const h = await harness({
    servers: [{ name: 'fs', tools: { stuck: hangs, quick: () => 'q' } }],
    settings: settings({ maxParallelTools: 1 }),
    script: [reply.tools(call('fs__stuck', {}, 's1'), call('fs__quick', {}, 'q1')), reply.text('second prompt answered')],
  });
  setTimeout(() => controller.abort(), 50);
  const outcome = await h.session.run('go', controller.signal);
  assert.equal(outcome.reason, 'cancelled');
  assert.ok(isValidHistory(h.session.state.history));
  const results = h.session.state.history.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? m.content : ''));
  assert.deepEqual(results, ['cancelled', 'cancelled']);
  assert.equal(h.tools.callsTo('stuck')[0]?.cancelled, true);
  assert.equal(h.tools.callsTo('quick').length, 0, 'queued calls never start after cancel');
  const next = await h.session.run('again');
  assert.equal(next.reason, 'end_turn');
});

test('cancel while the model streams keeps the partial text as a plain reply', async () => {
  const controller = new AbortController();
  const h = await harness({ script: [reply.hang('Hello', ' wor'), reply.text('next')] });
  setTimeout(() => controller.abort(), 30);
  const outcome = await h.session.run('go', controller.signal);
  assert.equal(outcome.reason, 'cancelled');
  assert.deepEqual(h.session.state.history.at(-1), { role: 'assistant', content: 'Hello wor' });
  assert.deepEqual(h.of('text_delta').map((e) => e.delta), ['Hello', ' wor']);
  assert.equal((await h.session.run('again')).reason, 'end_turn');
});

test('run rejects while a prompt is already running; host events are forwarded', async () => {
  const controller = new AbortController();
  const h = await harness({ script: [reply.hang()] });
  const first = h.session.run('one', controller.signal);
  await assert.rejects(h.session.run('two'), /already running/);
  h.tools.fire({ type: 'server_restarted', server: 'fs', attempt: 2 });
  controller.abort();
  assert.equal((await first).reason, 'cancelled');
  assert.deepEqual(h.of('server_restarted'), [{ type: 'server_restarted', server: 'fs', attempt: 2 }]);
  assert.equal(h.session.state.running, false);
});
