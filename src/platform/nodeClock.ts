/**
 * The core's Clock port over Node timers. `sleep` resolves early (never rejects) on abort so the loop's
 * backoffs and waits end promptly on cancel. The timer stays ref'd on purpose: a CLI waiting out a
 * retry backoff has nothing else keeping it alive.
 */
import type { Clock } from '../agent/ports';

export class NodeClock implements Clock {
  now(): number {
    return Date.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

export const nodeClock: Clock = new NodeClock();
