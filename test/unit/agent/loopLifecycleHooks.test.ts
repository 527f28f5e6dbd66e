import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { delayed } from '../../fakes/InMemoryToolHost';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const meta = (m: Record<string, unknown> | undefined): Record<string, unknown> => (m?.['sprout/hook'] ?? {}) as Record<string, unknown>;

test('_Stop evidence keeps the last 100 calls of the prompt', async () => {
  const first = Array.from({ length: 60 }, (_, i) => call('fs__read', { i }));
  const second = Array.from({ length: 50 }, (_, i) => call(i === 49 ? 'fs__nope' : 'fs__read', { i }));
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'ok', _Stop: () => '' } }],
    settings: settings({ maxParallelTools: 8 }),
    script: [reply.tools(...first), reply.tools(...second), reply.text('done')],
  });
  await h.session.run('go');
  const calls = meta(h.tools.callsTo('_Stop')[0]?.meta).toolCalls as { tool: string; isError: boolean }[];
  assert.equal(calls.length, 100);
  assert.deepEqual(calls.at(-1), { tool: 'fs__nope', isError: true });
  assert.deepEqual(calls[0], { tool: 'fs__read', isError: false });
  assert.equal(calls.filter((c) => c.isError).length, 1);
});

test('parallel calls cannot overspend the denial budget: the last denial goes to the first answer', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'ran', _PreToolUse: delayed(30, 'no') } }],
    settings: settings({ maxParallelTools: 4 }, { preToolUseMaxDenials: 1 }),
    script: [reply.tools(call('fs__read', { n: 1 }), call('fs__read', { n: 2 }), call('fs__read', { n: 3 })), reply.text('done')],
  });
  await h.session.run('go');
  assert.equal(h.tools.callsTo('_PreToolUse').length, 3, 'all three were asked at once, before any denial');
  assert.equal(h.of('tool_denied').length, 1);
  assert.equal(h.tools.callsTo('read').length, 2, 'the denials the budget could not pay for let the calls run');
  assert.deepEqual(h.tools.callsTo('_PreToolUse').map((c) => meta(c.meta).denialsUsed), [0, 0, 0]);
  assert.ok(isValidHistory(h.session.state.history));
});

test('a cancel during _UserPromptSubmit ends the prompt before any model call; _SessionStart, already made, is not repeated', async () => {
  const controller = new AbortController();
  const h = await harness({
    servers: [{ name: 'hk', tools: { _SessionStart: () => 'hello', _UserPromptSubmit: () => new Promise(() => controller.abort()) } }],
    script: [reply.text('second prompt answer')],
  });
  // The SessionStart text is injected, the prompt-submit call is cancelled by the abort it triggers.
  assert.equal((await h.session.run('go', controller.signal)).reason, 'cancelled');
  assert.equal(h.model.requests.length, 0);
  assert.ok(isValidHistory(h.session.state.history));
  assert.equal((await h.session.run('again')).reason, 'end_turn');
  assert.equal(h.tools.callsTo('_SessionStart').length, 1, 'made once: the first prompt got as far as asking it');
});
