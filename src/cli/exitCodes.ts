/**
 * The CLI's exit codes (the contract external tests drive) and the mapping from a prompt's outcome.
 */
import type { OutcomeReason } from '../agent/events';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_MAX_ROUNDS = 3;
export const EXIT_INTERRUPTED = 130;

export function exitCodeForOutcome(reason: OutcomeReason): number {
  switch (reason) {
    case 'end_turn':
      return EXIT_OK;
    case 'max_rounds':
      return EXIT_MAX_ROUNDS;
    case 'cancelled':
      return EXIT_INTERRUPTED;
    case 'error':
    case 'length':
    case 'content_filter':
      return EXIT_ERROR;
    default: {
      const never: never = reason;
      return never;
    }
  }
}

/** A bad command line or configuration: exit 2 with `message` (what is wrong and how to fix it). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
