/**
 * The CLI's exit codes (the contract external tests drive; the mapping from a prompt's outcome lives in
 * runtime/exitCodes.ts, shared with the `sprout` task type) and the usage error that exits 2.
 */
export {
  EXIT_ERROR,
  EXIT_INTERRUPTED,
  EXIT_MAX_ROUNDS,
  EXIT_OK,
  EXIT_UNRESOLVED,
  EXIT_USAGE,
  exitCodeForOutcome,
} from '../runtime/exitCodes';

/** A bad command line or configuration: exit 2 with `message` (what is wrong and how to fix it). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
