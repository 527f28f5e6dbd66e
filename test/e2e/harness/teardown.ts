// Taking an e2e world down: every piece is stopped even when one before it throws or hangs, so a
// stuck browser cannot leave the servers after it listening (the file-end leak check would fail the
// file for them, after the suite's whole timeout).
import { setTimeout as sleep } from 'node:timers/promises';
import { scaledMs } from '../../loadScale';

/** How long one piece may take to stop on an idle machine before the next one is stopped anyway. */
const STEP_IDLE_MS = 30_000;

/** Runs each step in order, each bounded by a load-scaled hang guard; throws what failed once all have run. */
export async function tearDown(...steps: Array<readonly [name: string, stop: () => unknown]>): Promise<void> {
  const failures: string[] = [];
  for (const [name, stop] of steps) {
    const guard = new AbortController();
    const hung = sleep(scaledMs(STEP_IDLE_MS), 'hung' as const, { signal: guard.signal }).catch(() => 'aborted' as const);
    try {
      const outcome = await Promise.race([Promise.resolve().then(stop).then(() => 'stopped' as const), hung]);
      if (outcome === 'hung') failures.push(`${name}: still stopping after ${scaledMs(STEP_IDLE_MS)} ms`);
    } catch (error) {
      failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      guard.abort();
    }
  }
  if (failures.length > 0) throw new Error(`tearing down: ${failures.join('; ')}`);
}
