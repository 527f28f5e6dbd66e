/**
 * The exit codes a finished prompt maps to: the CLI's contract (external tests and CI jobs drive it)
 * and the `sprout` task type's exit code, from one mapping so the two always agree.
 */
import type { Outcome } from '../agent/events';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_MAX_ROUNDS = 3;
/** The turn ended while a hook objection stood: declined, budget spent, or max rounds right after it. */
export const EXIT_UNRESOLVED = 4;
export const EXIT_INTERRUPTED = 130;

/**
 * An objection still standing outranks how the turn ended: a CI job that asked for green tests must
 * fail while the tests hook says they are red, even when the round cap is what stopped the agent. A
 * failed server the run needed (the CLI lists them on the outcome it prints) outranks both: the
 * turn's end cannot be trusted when hooks it relied on never ran.
 */
export function exitCodeForOutcome(outcome: Pick<Outcome, 'reason' | 'unresolved'> & { failedServers?: readonly unknown[] }): number {
  if (outcome.reason === 'cancelled') return EXIT_INTERRUPTED;
  if ((outcome.failedServers?.length ?? 0) > 0) return EXIT_USAGE;
  if (outcome.unresolved !== undefined && (outcome.reason === 'end_turn' || outcome.reason === 'max_rounds')) return EXIT_UNRESOLVED;
  switch (outcome.reason) {
    case 'end_turn':
      return EXIT_OK;
    case 'max_rounds':
      return EXIT_MAX_ROUNDS;
    case 'error':
    case 'length':
    case 'content_filter':
      return EXIT_ERROR;
    default: {
      const never: never = outcome.reason;
      return never;
    }
  }
}
