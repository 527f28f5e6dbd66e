// The outcome -> exit code mapping that the CLI and the `sprout` task type share: an objection left
// standing is exit 4 whatever ended the turn normally, and only then.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Outcome, UnresolvedCause } from '../../../src/agent/events';
import { exitCodeForOutcome } from '../../../src/runtime/exitCodes';

const standing = (cause: UnresolvedCause): Outcome['unresolved'] => ({ cause, objections: [{ server: 'tests', text: 'red' }] });

describe('exitCodeForOutcome', () => {
  it('maps each reason to the documented code', () => {
    const table: Array<[Outcome['reason'], number]> = [
      ['end_turn', 0],
      ['error', 1],
      ['length', 1],
      ['content_filter', 1],
      ['max_rounds', 3],
      ['cancelled', 130],
    ];
    for (const [reason, code] of table) assert.equal(exitCodeForOutcome({ reason }), code, reason);
  });

  it('is 4 when an objection stands at a normal end or at the round cap', () => {
    assert.equal(exitCodeForOutcome({ reason: 'end_turn', unresolved: standing('declined') }), 4);
    assert.equal(exitCodeForOutcome({ reason: 'end_turn', unresolved: standing('budget_exhausted') }), 4);
    assert.equal(exitCodeForOutcome({ reason: 'max_rounds', unresolved: standing('max_rounds') }), 4);
  });

  it('is 2 when the printed outcome lists a failed server the run needed, whatever else it says (but an interruption)', () => {
    const failedServers = [{ server: 'h0', why: 'allowlisted', error: 'exited with code 3' }];
    assert.equal(exitCodeForOutcome({ reason: 'end_turn', failedServers }), 2);
    assert.equal(exitCodeForOutcome({ reason: 'end_turn', unresolved: standing('budget_exhausted'), failedServers }), 2);
    assert.equal(exitCodeForOutcome({ reason: 'cancelled', failedServers }), 130);
    assert.equal(exitCodeForOutcome({ reason: 'end_turn', failedServers: [] }), 0);
  });

  it('an interruption or an error keeps its own code even with an objection standing', () => {
    assert.equal(exitCodeForOutcome({ reason: 'cancelled', unresolved: standing('declined') }), 130);
    assert.equal(exitCodeForOutcome({ reason: 'error', unresolved: standing('declined') }), 1);
  });
});
