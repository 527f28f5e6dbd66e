// budgetText is the only place the completion-check (`_Stop`) budget is worded: each surface's text
// for no budget yet, a budget in use, a spent one and the checks turned off; plain words, no `_Stop`
// outside the explaining tooltip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgetText } from '../../../src/shared/budgetText';
import { hookBy, hookLabel } from '../../../src/shared/hookText';

test('before the first prompt the surfaces say nothing of a budget, and the tooltip explains what it is', () => {
  const text = budgetText(null);
  assert.deepEqual([text.line, text.short, text.sentence, text.label, text.spent], ['', '', '', 'Objections left: no prompt yet', false]);
  assert.match(text.tooltip, /hook \(an MCP tool named _Stop\)/);
});

test('a budget in use says how many objections are left and where; a spent one says none', () => {
  const used = budgetText({ used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true });
  assert.equal(used.line, '2 of 3 left');
  assert.equal(used.short, '2/3 objections left');
  assert.equal(used.sentence, '2 objections left in this chat (1 of 3 used).');
  assert.equal(used.label, 'Objections left: 2 of 3');
  assert.equal(used.detail, 'in this chat');
  assert.match(used.tooltip, /^2 objections left in this chat \(1 of 3 used; the agent may finish/);
  assert.equal(used.spent, false);
  const spent = budgetText({ used: 2, max: 2, scope: 'prompt', repeatedEndTurnStops: false });
  assert.equal(spent.sentence, 'No objections left for this prompt (2 of 2 used).');
  assert.equal(spent.detail, 'for this prompt');
  assert.equal(spent.spent, true);
  assert.equal(budgetText({ used: 2, max: 3, scope: 'session', repeatedEndTurnStops: false }).sentence, '1 objection left in this chat (2 of 3 used).');
});

test('with completion checks off the surfaces say so and nothing reads as spent', () => {
  const off = budgetText({ used: 0, max: 0, scope: 'session', repeatedEndTurnStops: true });
  assert.equal(off.line, 'Completion checks off');
  assert.equal(off.tooltip, 'Completion checks are off (sprout.hooks.stopMaxRejections is 0).');
  assert.equal(off.spent, false);
});

test('hooks are named in plain words, the raw name only for hooks without a word', () => {
  assert.equal(hookLabel('_Stop'), 'Completion check');
  assert.equal(hookBy('_Stop', 'tests'), 'Completion check by tests');
  assert.equal(hookLabel('_Custom'), 'Custom');
});
