import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HooksViewState, healthText, percentile } from '../../../src/extension/hooks/hooksViewState';
import type { ServerState } from '../../../src/mcp/mcpHub';

test('percentiles by nearest rank', () => {
  assert.equal(percentile([], 50), undefined);
  assert.equal(percentile([5], 95), 5);
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 95), 95);
});

test('folds budget, calls, health and the objection timeline with outcomes', () => {
  const m = new HooksViewState({ kind: 'names', names: ['tests'] });
  let changes = 0;
  m.onDidChange(() => changes++);
  m.updateStatus([{ name: 'tests', state: 'ready', hooks: ['_Stop'] }, { name: 'lint', state: 'ready', hooks: ['_Stop'] }]);
  m.apply({ type: 'prompt_started', text: 'x' }, 1);
  m.apply({ type: 'tool_finished', callId: 'c', name: 'lint__check', isError: false, text: '', durationMs: 10 }, 2);
  m.apply({ type: 'hook_finished', server: 'tests', hook: '_Stop', result: 'objection', text: 'fail', durationMs: 30 }, 3);
  m.apply({ type: 'hook_objected', server: 'tests', text: 'fail\nmore', rejectionsUsed: 1, maxRejections: 3 }, 3);
  m.apply({ type: 'budget', used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true }, 3);
  m.apply({ type: 'objection_resolved', servers: ['tests'], resolution: 'complied' }, 4);
  m.apply({ type: 'hook_objected', server: 'tests', text: 'still', rejectionsUsed: 2, maxRejections: 3 }, 5);
  m.apply({ type: 'hook_timed_out', server: 'lint', hook: '_Stop', consecutive: 1 }, 6);
  m.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 4, unresolved: { cause: 'declined', objections: [] } } }, 7);
  assert.deepEqual(m.budget, { used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true });
  assert.deepEqual(m.objections.map((o) => o.outcome), ['complied', 'declined']);
  assert.equal(m.servers.get('tests')?.allowlisted, true);
  assert.equal(m.servers.get('lint')?.allowlisted, false);
  assert.equal(m.servers.get('lint')?.health, 'timed out');
  assert.equal(healthText(m.servers.get('lint')!), 'timed out 1/2');
  assert.equal(m.servers.get('lint')?.calls, 1);
  assert.equal(m.servers.get('tests')?.calls, 1);
  assert.ok(changes >= 9);
  m.setAllowlist({ kind: 'all' });
  assert.equal(m.servers.get('lint')?.allowlisted, true);
});

test('servers: not started until the hub runs, idle ones read "not started", removed ones leave the view', () => {
  const m = new HooksViewState({ kind: 'all' });
  let changes = 0;
  m.onDidChange(() => changes++);
  assert.equal(m.serversStarted, false);
  m.updateStatus([], false);
  assert.equal(changes, 0, 'nothing moved');
  m.updateStatus([{ name: 'tests', state: 'idle', hooks: [] }, { name: 'todo', state: 'ready', hooks: ['_Stop'] }], true);
  assert.equal(m.serversStarted, true);
  assert.equal(m.servers.get('tests')?.health, 'not started');
  assert.equal(m.servers.get('todo')?.health, 'ok');
  assert.equal(changes, 1);
  m.updateStatus([{ name: 'todo', state: 'ready', hooks: ['_Stop'] }], true);
  assert.deepEqual([...m.servers.keys()], ['todo'], 'a server taken out of the configuration is gone');
  assert.equal(changes, 2);
  m.updateStatus([], false);
  assert.equal(m.serversStarted, false);
  assert.equal(m.servers.size, 0, 'after a configuration change nothing stale is shown');
});

test('an objection keeps the failures its hook attached, for the Hooks view to list', () => {
  const m = new HooksViewState({ kind: 'names', names: ['tests'] });
  const failures = [{ name: 'adds', file: 'math.test.js', line: 4, message: 'two plus two' }];
  m.apply({ type: 'hook_objected', server: 'tests', text: 'The tests fail.', rejectionsUsed: 1, maxRejections: 3, failures }, 1);
  m.apply({ type: 'hook_objected', server: 'tests', text: 'Still failing, no details.', rejectionsUsed: 2, maxRejections: 3 }, 2);
  assert.deepEqual(m.objections.map((o) => o.failures), [failures, undefined]);
});

test('each server state the hub reports reads as one health, and only a real change tells listeners', () => {
  const m = new HooksViewState({ kind: 'all' });
  let changes = 0;
  m.onDidChange(() => changes++);
  const health = (state: ServerState, error?: string): string | undefined => {
    m.updateServer({ name: 'tests', state, hooks: ['_Stop'], ...(error !== undefined ? { error } : {}) });
    return m.servers.get('tests')?.health;
  };
  assert.equal(health('idle'), 'not started');
  assert.equal(health('starting'), 'starting');
  assert.equal(health('ready'), 'ok');
  assert.equal(changes, 3);
  assert.equal(health('ready'), 'ok');
  assert.equal(changes, 3, 'the same status again moves nothing');
  m.apply({ type: 'hook_timed_out', server: 'tests', hook: '_Stop', consecutive: 1 }, 1);
  assert.equal(health('ready'), 'timed out', 'one timeout stays visible while the server is up');
  assert.equal(health('killed', 'killed: timed out twice'), 'killed');
  assert.equal(m.servers.get('tests')?.detail, 'killed: timed out twice');
  assert.equal(health('idle'), 'killed', 'a killed server says so until it runs again');
  assert.equal(health('restarting'), 'restarting');
  assert.equal(health('failed', 'keeps stopping'), 'error');
  assert.deepEqual(m.servers.get('tests')?.hooks, ['_Stop']);
});
