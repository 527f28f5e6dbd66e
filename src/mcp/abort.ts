/**
 * Small promise helpers for cancellation: callers of the hub give up on their own signal while shared
 * work (a server start, a tools/list) carries on for the others.
 */

import { raceAbort as raceAbortWith } from '../agent/cancellation';

export function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/** Settles like `promise`, or rejects with an AbortError as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, what = 'operation'): Promise<T> {
  return raceAbortWith(promise, signal, () => abortError(`${what} aborted`));
}
