import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HookCaller } from '../../../src/agent/hookCaller';
import type { AgentEvent } from '../../../src/agent/events';
import { NodeClock } from '../../../src/platform/nodeClock';
import { InMemoryToolHost, hangs, type ToolHandler } from '../../fakes/InMemoryToolHost';
import { reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const context = { sessionId: 's', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false };

function caller(handlers: Record<string, ToolHandler>, timeoutMs = 40) {
  const tools = new InMemoryToolHost([{ name: 'slow', tools: handlers }]);
  const events: AgentEvent[] = [];
  const hooks = new HookCaller({ tools, clock: new NodeClock(), emit: (e) => events.push(e), timeoutMs: () => timeoutMs });
  return { tools, events, hooks };
}

test('the second consecutive timeout of a server kills it, across its hooks', async () => {
  // Both hooks hang for good: that each call returns at all shows its timeout released it (the test's hang guard fails it otherwise).
  const { tools, events, hooks } = caller({ _Stop: hangs, _PostCompact: hangs });
  const first = await hooks.call('slow', '_Stop', context);
  assert.equal(first.result, 'timeout');
  assert.equal(tools.kills.length, 0);
  assert.equal(tools.calls[0]?.cancelled, true, 'the timed-out call is aborted (notifications/cancelled)');
  const second = await hooks.call('slow', '_PostCompact', context);
  assert.equal(second.result, 'timeout');
  assert.equal(tools.kills.length, 1);
  assert.match(tools.kills[0]?.reason ?? '', /in-memory state .* is lost/);
  const types = events.map((e) => e.type);
  assert.deepEqual(types, ['hook_called', 'hook_finished', 'hook_timed_out', 'hook_called', 'hook_finished', 'hook_timed_out', 'server_killed']);
  assert.deepEqual(
    events.filter((e) => e.type === 'hook_timed_out').map((e) => (e.type === 'hook_timed_out' ? e.consecutive : 0)),
    [1, 2],
  );
  assert.equal(hooks.consecutiveTimeouts('slow'), 0, 'the counter starts over after a kill');
});

test('any completed reply, even isError, resets the counter', async () => {
  let mode: 'hang' | 'error' = 'hang';
  const { tools, hooks } = caller({ _Stop: (args, options) => (mode === 'hang' ? hangs(args, options) : { isError: true, text: 'boom' }) });
  assert.equal((await hooks.call('slow', '_Stop', context)).result, 'timeout');
  mode = 'error';
  const isError = await hooks.call('slow', '_Stop', context);
  assert.deepEqual([isError.result, isError.replied], ['error', true], 'an isError result is a reply');
  assert.equal(hooks.consecutiveTimeouts('slow'), 0);
  mode = 'hang';
  assert.equal((await hooks.call('slow', '_Stop', context)).result, 'timeout');
  assert.equal(tools.kills.length, 0);
});

test('transport errors and timeouts are no objection; huge text is capped', async () => {
  const { hooks } = caller({
    _Stop: () => {
      throw new Error('connection closed');
    },
    _PostCompact: () => 'y'.repeat(100_000),
  });
  assert.deepEqual(await hooks.call('slow', '_Stop', context), { server: 'slow', hook: '_Stop', result: 'error', text: 'connection closed', replied: false });
  const big = await hooks.call('slow', '_PostCompact', context);
  assert.equal(big.result, 'objection');
  assert.ok(big.text.length < 17_000 && big.text.endsWith('[content truncated]'));
});

test('in a session, timeouts fail open and the second prompt\'s timeout kills the server', async () => {
  const h = await harness({
    servers: [{ name: 'slow', tools: { _Stop: hangs } }],
    settings: settings({}, { timeoutMs: 50 }),
    script: [reply.text('one'), reply.text('two')],
  });
  assert.equal((await h.session.run('a')).reason, 'end_turn');
  assert.equal(h.tools.kills.length, 0);
  assert.equal((await h.session.run('b')).reason, 'end_turn');
  assert.equal(h.tools.kills.length, 1);
  assert.equal(h.of('server_killed').length, 1);
  assert.equal(h.session.state.rejectionsUsed, 0, 'a timeout is not an objection');
});
