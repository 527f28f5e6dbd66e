// budgetText is the only place the `_Stop` budget is worded: each surface's text for no budget yet,
// a budget in use, a spent one and `_Stop` turned off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgetText } from '../../../src/shared/budgetText';

test('before the first prompt every surface says there is no budget yet', () => {
  const text = budgetText(null);
  assert.deepEqual([text.line, text.short, text.sentence, text.label, text.spent], ['', '_Stop –', '', '_Stop budget: no run yet', false]);
});

test('a budget in use, and a spent one', () => {
  const used = budgetText({ used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true });
  assert.equal(used.line, '_Stop budget 1/3 (session, repeated end-turn stops)');
  assert.equal(used.short, '_Stop 1/3');
  assert.equal(used.sentence, 'Hook budget 1/3 (session).');
  assert.equal(used.label, '_Stop budget 1/3');
  assert.equal(used.detail, 'session scope · repeated end-turn stops on');
  assert.equal(used.tooltip, '1 of 3 objection rounds used (session scope).');
  assert.equal(used.spent, false);
  const spent = budgetText({ used: 2, max: 2, scope: 'prompt', repeatedEndTurnStops: false });
  assert.equal(spent.line, '_Stop budget 2/2 (prompt)');
  assert.equal(spent.detail, 'prompt scope · repeated end-turn stops off');
  assert.equal(spent.spent, true);
});

test('with _Stop off (no objection rounds) the surfaces say so and nothing reads as spent', () => {
  const off = budgetText({ used: 0, max: 0, scope: 'session', repeatedEndTurnStops: true });
  assert.equal(off.line, '_Stop disabled');
  assert.equal(off.short, '_Stop off');
  assert.equal(off.tooltip, '_Stop is disabled (sprout.hooks.stopMaxRejections = 0).');
  assert.equal(off.spent, false);
});
