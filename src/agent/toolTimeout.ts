/**
 * The tool timeout with progress, as MCP clients do it: a call that reports progress is alive, so each
 * report restarts its idle timeout, but never past a maximum total, so a server that reports progress
 * forever cannot hold a round. Like `runWithTimeout`, the result comes back at once on timeout or
 * cancel (the work's signal is aborted so the tool host cancels the request).
 */
import { onAbort, type TimedResult } from './cancellation';
import type { Clock } from './ports';
import { errorMessage } from './errorMessage';

export type IdleTimedResult<T> = Exclude<TimedResult<T>, { kind: 'timeout' }> | { kind: 'timeout'; why: 'idle' | 'total' };

export interface IdleTimeout {
  idleMs: number;
  /** Progress extends the call up to this total; at least `idleMs`. */
  maxTotalMs: number;
}

export async function runWithIdleTimeout<T>(
  clock: Clock,
  limits: IdleTimeout,
  work: (signal: AbortSignal, touch: () => void) => Promise<T>,
  signal: AbortSignal,
): Promise<IdleTimedResult<T>> {
  if (signal.aborted) return { kind: 'cancelled' };
  const call = new AbortController();
  const wake = new AbortController();
  const stopRelay = onAbort(signal, () => wake.abort());
  const started = clock.now();
  const maxTotal = Math.max(limits.idleMs, limits.maxTotalMs);
  let lastAlive = started;
  let settled: IdleTimedResult<T> | undefined;
  const touch = (): void => void (lastAlive = clock.now());
  void Promise.resolve()
    .then(() => work(call.signal, touch))
    .then(
      (value) => (settled = { kind: 'done', value }),
      (error: unknown) => (settled = { kind: 'failed', message: errorMessage(error) }),
    )
    .finally(() => wake.abort());
  try {
    for (;;) {
      if (signal.aborted) {
        call.abort();
        return { kind: 'cancelled' };
      }
      if (settled !== undefined) return settled;
      const now = clock.now();
      if (now - started >= maxTotal) return timedOut(call, 'total');
      if (now - lastAlive >= limits.idleMs) return timedOut(call, 'idle');
      await clock.sleep(Math.min(lastAlive + limits.idleMs, started + maxTotal) - now, wake.signal);
    }
  } finally {
    stopRelay();
  }
}

function timedOut<T>(call: AbortController, why: 'idle' | 'total'): IdleTimedResult<T> {
  call.abort();
  return { kind: 'timeout', why };
}
