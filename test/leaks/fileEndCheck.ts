/**
 * The end-of-file leak check (registered by test/testTimeouts.ts, which every node:test process of the
 * unit, integration, e2e and agents suites preloads): once a file's last test and top-level hooks are
 * done, nothing it started may still run or hold the process: no child process (test/leaks/
 * processLeaks.ts), no open server, socket or pending timer (test/leaks/handleLeaks.ts). Such a leak
 * keeps the file's process alive after its tests (the scripts' `--test-force-exit` would hide it) and
 * loads the machine for the files after it.
 *
 * Not flaky: what is still on its way out is waited for (a killed child's 'exit', a closing socket),
 * on the children's exit events and else re-checking every 250 ms (a scan of the proc file system
 * costs tens of ms), until everything is gone or a generous load-scaled margin has passed. A clean
 * file passes at once. Then the leaks are named, the processes killed and the handles unref'd (so the
 * failing file's process still ends), and the file fails.
 * `SPROUT_LEAK_CHECK=0` turns it off for a run (to look at a hang, say).
 */
import { relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { scaledMs } from '../loadScale';
import { leakedHandles } from './handleLeaks';
import { killLeaked, leakedProcesses, nextChildExit } from './processLeaks';

/** How long something on its way out may take on an idle machine. */
const SETTLE_IDLE_MS = 5_000;

export const leakCheckEnabled = (): boolean => process.env.SPROUT_LEAK_CHECK !== '0';

function snapshot() {
  const processes = leakedProcesses();
  const handles = leakedHandles();
  return { processes, handles, clean: processes.length === 0 && handles.texts.length === 0 };
}

export async function checkForLeaks(): Promise<void> {
  const deadline = Date.now() + scaledMs(SETTLE_IDLE_MS);
  // A turn of the loop lets what the file's last hook closed finish closing.
  await new Promise((resolve) => setImmediate(resolve));
  let found = snapshot();
  while (!found.clean && Date.now() < deadline) {
    // A ref'd wait (the loop must not end under a pending hook), cleared before the next look.
    const pause = new AbortController();
    await Promise.race([nextChildExit(), sleep(250, undefined, { signal: pause.signal }).catch(() => undefined)]);
    pause.abort();
    await new Promise((resolve) => setImmediate(resolve));
    found = snapshot();
  }
  if (found.clean) return;
  killLeaked(found.processes);
  found.handles.release();
  const lines = [...found.processes.map((leak) => leak.text), ...found.handles.texts];
  throw new Error(
    `${relative(process.cwd(), process.argv[1] ?? 'this test file')} left ${lines.length} thing(s) running after its last test and hooks ` +
      `(close servers and fakes in after/afterEach, never overwrite a live one, kill child processes in finally; ` +
      `the processes below have been killed):\n  - ${lines.join('\n  - ')}`,
  );
}
