/**
 * Cancellation for every waiting step of the core: a CancelledError, one relayed listener per abort
 * signal, a race of a promise against a signal, and a call bounded by a timeout on the Clock port
 * (hook calls, `_SessionEnd`, tool timeouts). Imports nothing of the session, so the hook caller and the
 * adapters can use it without a circle through the session's context.
 */
import { errorMessage } from './errorMessage';
import type { Clock } from './ports';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

const abortCallbacks = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `callback` once when `signal` aborts (at once if it already has); the returned function stops
 * that. Every waiting step of every round listens on the same prompt signal, so the signal gets one
 * real listener that relays to a plain set: adding and removing is a set operation, not an EventTarget one.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => undefined;
  }
  let callbacks = abortCallbacks.get(signal);
  if (callbacks === undefined) {
    const relay = new Set<() => void>();
    signal.addEventListener('abort', () => {
      for (const relayed of [...relay]) relayed();
      relay.clear();
    }, { once: true });
    abortCallbacks.set(signal, relay);
    callbacks = relay;
  }
  const own = (): void => callback();
  callbacks.add(own);
  const set = callbacks;
  return () => void set.delete(own);
}

/**
 * Settles with `promise`, or rejects with `reason()` (a CancelledError unless the caller names its
 * own) as soon as `signal` aborts. Without a signal it is the promise itself.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, reason: () => Error = () => new CancelledError()): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const stop = onAbort(signal, () => reject(reason()));
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export type TimedResult<T> = { kind: 'done'; value: T } | { kind: 'failed'; message: string } | { kind: 'timeout' } | { kind: 'cancelled' };

/**
 * Runs `work` with its own AbortController, racing `timeoutMs` on the clock and the outer `signal`.
 * On timeout or cancel the work's signal is aborted (the tool host then cancels the request) and the
 * result comes back at once, without waiting for the work to notice.
 */
export async function runWithTimeout<T>(
  clock: Clock,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<TimedResult<T>> {
  if (signal?.aborted) return { kind: 'cancelled' };
  const call = new AbortController();
  const wait = new AbortController();
  const stopRelay = signal === undefined ? undefined : onAbort(signal, () => wait.abort());
  try {
    const done: Promise<TimedResult<T>> = Promise.resolve()
      .then(() => work(call.signal))
      .then(
        (value) => ({ kind: 'done' as const, value }),
        (error: unknown) => ({ kind: 'failed' as const, message: errorMessage(error) }),
      );
    const timer: Promise<TimedResult<T>> = clock.sleep(timeoutMs, wait.signal).then(() => ({ kind: 'timeout' as const }));
    const first = await Promise.race([done, timer]);
    if (first.kind === 'timeout' && signal?.aborted) {
      call.abort();
      return { kind: 'cancelled' };
    }
    if (first.kind === 'timeout') call.abort();
    if (first.kind !== 'timeout' && signal?.aborted) return { kind: 'cancelled' };
    return first;
  } finally {
    wait.abort();
    stopRelay?.();
  }
}
