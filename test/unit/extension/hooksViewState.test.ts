import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent/events';
import { HooksViewState, healthText, hookRows, percentile } from '../../../src/extension/hooks/hooksViewState';
import type { ServerStatusView } from '../../../src/extension/viewEvents';
import type { ServerState } from '../../../src/mcp/mcpHub';

/** The open chat's event at `at`, as the view events carry it. */
const agent = (m: HooksViewState, event: AgentEvent, at: number): void => m.apply({ type: 'agent', event, at });
/** The window's servers, whole, as the agent host reports them. */
const servers = (m: HooksViewState, list: ServerStatusView[], started = true): void => m.apply({ type: 'servers', state: { started, servers: list, notices: [] } });

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
  servers(m, [{ name: 'tests', state: 'ready', hooks: ['_Stop'] }, { name: 'lint', state: 'ready', hooks: ['_Stop'] }]);
  agent(m, { type: 'prompt_started', text: 'x' }, 1);
  agent(m, { type: 'tool_finished', callId: 'c', name: 'lint__check', isError: false, text: '', durationMs: 10 }, 2);
  agent(m, { type: 'hook_finished', server: 'tests', hook: '_Stop', result: 'objection', text: 'fail', durationMs: 30 }, 3);
  agent(m, { type: 'hook_objected', hook: '_Stop', server: 'tests', text: 'fail\nmore', rejectionsUsed: 1, maxRejections: 3, scope: 'session' }, 3);
  agent(m, { type: 'budget', used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true }, 3);
  agent(m, { type: 'objection_resolved', servers: ['tests'], resolution: 'complied' }, 4);
  agent(m, { type: 'hook_objected', hook: '_Stop', server: 'tests', text: 'still', rejectionsUsed: 2, maxRejections: 3, scope: 'session' }, 5);
  agent(m, { type: 'hook_timed_out', server: 'lint', hook: '_Stop', consecutive: 1 }, 6);
  agent(m, { type: 'outcome', outcome: { reason: 'end_turn', rounds: 4, unresolved: { cause: 'declined', objections: [] } } }, 7);
  assert.deepEqual(m.budget, { used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true });
  assert.deepEqual(m.objections.map((o) => o.outcome), ['complied', 'declined']);
  assert.equal(m.servers.get('tests')?.allowlisted, true);
  assert.equal(m.servers.get('lint')?.allowlisted, false);
  assert.equal(m.servers.get('lint')?.health, 'timed out');
  assert.equal(healthText(m.servers.get('lint')!), 'timed out 1/2');
  assert.equal(m.servers.get('lint')?.calls, 1);
  assert.equal(m.servers.get('tests')?.calls, 1);
  assert.ok(changes >= 9);
  m.apply({ type: 'allowlist', allowlist: { kind: 'all' } });
  assert.equal(m.servers.get('lint')?.allowlisted, true);
});

test('servers: not started until the hub runs, idle ones read "not started", removed ones leave the view', () => {
  const m = new HooksViewState({ kind: 'all' });
  let changes = 0;
  m.onDidChange(() => changes++);
  assert.equal(m.serversStarted, false);
  servers(m, [], false);
  assert.equal(changes, 0, 'nothing moved');
  servers(m, [{ name: 'tests', state: 'idle', hooks: [] }, { name: 'todo', state: 'ready', hooks: ['_Stop'] }], true);
  assert.equal(m.serversStarted, true);
  assert.equal(m.servers.get('tests')?.health, 'not started');
  assert.equal(m.servers.get('todo')?.health, 'ok');
  assert.equal(changes, 1);
  servers(m, [{ name: 'todo', state: 'ready', hooks: ['_Stop'] }], true);
  assert.deepEqual([...m.servers.keys()], ['todo'], 'a server taken out of the configuration is gone');
  assert.equal(changes, 2);
  servers(m, [], false);
  assert.equal(m.serversStarted, false);
  assert.equal(m.servers.size, 0, 'after a configuration change nothing stale is shown');
});

test('each server state the hub reports reads as one health, and only a real change tells listeners', () => {
  const m = new HooksViewState({ kind: 'all' });
  let changes = 0;
  m.onDidChange(() => changes++);
  const health = (state: ServerState, error?: string): string | undefined => {
    servers(m, [{ name: 'tests', state, hooks: ['_Stop'], ...(error !== undefined ? { error } : {}) }]);
    return m.servers.get('tests')?.health;
  };
  assert.equal(health('idle'), 'not started');
  assert.equal(health('starting'), 'starting');
  assert.equal(health('ready'), 'ok');
  assert.equal(changes, 3);
  assert.equal(health('ready'), 'ok');
  assert.equal(changes, 3, 'the same status again moves nothing');
  agent(m, { type: 'hook_timed_out', server: 'tests', hook: '_Stop', consecutive: 1 }, 1);
  assert.equal(health('ready'), 'timed out', 'one timeout stays visible while the server is up');
  assert.equal(health('killed', 'killed: timed out twice'), 'killed');
  assert.equal(m.servers.get('tests')?.detail, 'killed: timed out twice');
  assert.equal(health('idle'), 'killed', 'a killed server says so until it runs again');
  assert.equal(health('restarting'), 'restarting');
  assert.equal(health('failed', 'keeps stopping'), 'error');
  assert.deepEqual(m.servers.get('tests')?.hooks, ['_Stop']);
});

test('each server lists every hook it exposes with that hook\'s own calls and latencies', () => {
  const m = new HooksViewState({ kind: 'all' });
  servers(m, [{ name: 'guard', state: 'ready', hooks: ['_PreToolUse', '_Stop', '_SessionEnd'] }]);
  for (const ms of [10, 20, 30, 400]) agent(m, { type: 'hook_finished', server: 'guard', hook: '_PreToolUse', result: 'no_objection', text: '', durationMs: ms }, 1);
  agent(m, { type: 'hook_finished', server: 'guard', hook: '_Stop', result: 'objection', text: 'x', durationMs: 7 }, 2);
  const guard = m.servers.get('guard');
  assert.ok(guard);
  const rows = hookRows(guard).map(({ hook, stats }) => [hook, stats.calls, percentile(stats.latencies, 50), percentile(stats.latencies, 95)]);
  assert.deepEqual(rows, [
    ['_PreToolUse', 4, 20, 400],
    ['_Stop', 1, 7, 7],
    ['_SessionEnd', 0, undefined, undefined],
  ]);
  assert.equal(guard.calls, 5, 'the server total counts every hook');
  // A hook called but gone from a newer listing keeps its row.
  servers(m, [{ name: 'guard', state: 'ready', hooks: ['_Stop'] }]);
  assert.deepEqual(hookRows(guard).map((r) => r.hook), ['_Stop', '_PreToolUse']);
});

test('a chat opening starts its budget and timeline afresh; the servers, their notices and the running flag belong to the window', () => {
  const m = new HooksViewState({ kind: 'all' });
  let changes = 0;
  m.onDidChange(() => changes++);
  m.apply({ type: 'servers', state: { started: true, servers: [{ name: 'tests', state: 'ready', hooks: ['_Stop'] }], notices: ['repo-hook is defined by the workspace and was not started.'] } });
  agent(m, { type: 'budget', used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true }, 1);
  agent(m, { type: 'hook_objected', hook: '_Stop', server: 'tests', text: 'red', rejectionsUsed: 1, maxRejections: 3, scope: 'session' }, 1);
  m.apply({ type: 'running', running: true });
  m.apply({ type: 'running', running: true });
  assert.equal(changes, 4, 'the same running flag again moves nothing');
  m.apply({ type: 'chat_opened', chatId: 'other' });
  assert.deepEqual([m.budget, m.objections.length], [undefined, 0]);
  assert.deepEqual([[...m.servers.keys()], m.notices], [['tests'], ['repo-hook is defined by the workspace and was not started.']]);
  assert.equal(m.running, false, 'the chat that opened runs nothing, whatever the one it replaced did');
  m.apply({ type: 'servers', state: { started: true, servers: [{ name: 'tests', state: 'ready', hooks: ['_Stop'] }], notices: [] } });
  assert.deepEqual(m.notices, [], 'a notice that no longer applies goes');
  assert.equal(changes, 6);
});

test('another agent\'s hook file runs by consent: on whatever the allowlist says, and named by its path in the summary', async () => {
  const { hooksSummary } = await import('../../../src/extension/hooks/hooksSummary');
  const m = new HooksViewState({ kind: 'names', names: [] });
  servers(m, [{ name: 'claude-settings', state: 'ready', hooks: ['_PreToolUse', '_Stop'], file: '.claude/settings.json' }, { name: 'lint', state: 'ready', hooks: ['_Stop'] }]);
  assert.deepEqual([...m.servers.values()].map((s) => [s.name, s.allowlisted, s.file]), [['claude-settings', true, '.claude/settings.json'], ['lint', false, undefined]]);
  m.apply({ type: 'allowlist', allowlist: { kind: 'names', names: ['other'] } });
  assert.equal(m.servers.get('claude-settings')?.allowlisted, true, 'a new allowlist leaves the file on');
  assert.equal(m.servers.get('lint')?.allowlisted, false);
  const summary = hooksSummary(m, { kind: 'names', names: [] });
  assert.equal(summary.state, 'on');
  assert.match(summary.text, /\.claude\/settings\.json$/);
});
