/**
 * The one way a test waits for something it can only look at (a file, a process, a view's state, an
 * answer that changes once a background run ends): it asks again until the answer comes. A test that
 * has an event to wait on waits on the event; this is for the rest. Its only bound is a hang guard,
 * written for an idle machine and scaled by the machine's load (loadScale.ts), so it fails a test that
 * truly hangs, with what it waited for, and never one that is merely slow: no fixed sleep before a
 * check, no "try 60 times", no short deadline. The harnesses' `until`/`waitFor`/`waitUntil` are this.
 */
import { scaledMs } from './loadScale';

/** The hang guard when a caller names none: a minute on an idle machine. */
export const HANG_GUARD_MS = 60_000;

export type Probe<T> = () => T | undefined | false | Promise<T | undefined | false>;

export interface WaitOptions {
  /** The hang guard on an idle machine (scaled by the load); default HANG_GUARD_MS. */
  idleBoundMs?: number;
  /** How often to look; default 50 ms. */
  everyMs?: number;
}

/** Resolves with `probe`'s first answer that is neither undefined nor false; the probe may be async. */
export async function waitFor<T>(probe: Probe<T>, what: string, options: WaitOptions = {}): Promise<T> {
  const boundMs = scaledMs(options.idleBoundMs ?? HANG_GUARD_MS);
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${boundMs} ms (a hang guard, scaled by the machine's load) waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}
