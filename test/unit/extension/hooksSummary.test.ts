// The chat header's one line about hooks: off (with the way to turn them on), the checking servers and
// the objections left, and a warning when a hook server is down or no objections are left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HooksViewState } from '../../../src/extension/hooks/hooksViewState';
import { hooksSummary } from '../../../src/extension/hooks/hooksSummary';

test('no hook servers: the line says no completion checks and the tooltip how to add one', () => {
  const off = hooksSummary(new HooksViewState({ kind: 'names', names: [] }), { kind: 'names', names: [] });
  assert.equal(off.state, 'off');
  assert.equal(off.text, 'No completion checks');
  assert.match(off.tooltip, /Enable Test-Runner Hook/);
});

test('before servers start it names the allowlist; then the servers with _Stop, the budget, and trouble', () => {
  const allowlist = { kind: 'names' as const, names: ['tests', 'lint'] };
  const view = new HooksViewState(allowlist);
  assert.equal(hooksSummary(view, allowlist).text, 'Completion check: tests, lint');
  view.apply({
    type: 'servers',
    state: {
      started: true,
      servers: [
        { name: 'tests', state: 'ready', hooks: ['_Stop'] },
        { name: 'lint', state: 'ready', hooks: ['_PostCompact'] },
      ],
      notices: [],
    },
  });
  view.apply({ type: 'agent', event: { type: 'budget', used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true }, at: 1 });
  const on = hooksSummary(view, allowlist);
  assert.deepEqual([on.state, on.text], ['on', 'Completion check: tests · 2 of 3 left']);
  assert.match(on.tooltip, /2 objections left in this chat/);
  view.apply({ type: 'agent', event: { type: 'server_killed', server: 'tests', reason: 'two timeouts' }, at: 2 });
  const troubled = hooksSummary(view, allowlist);
  assert.equal(troubled.state, 'warning');
  assert.match(troubled.tooltip, /tests is killed \(two timeouts\)/);
});
