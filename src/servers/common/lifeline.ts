/**
 * A bundled server's lifeline: it exits when its client is gone, even in the middle of a call. The
 * client going away shows two ways. Its end of our stdin closes, which the main thread hears as long
 * as it is free (long work yields, see fileWalker.ts). Or the parent process dies (a CLI killed with
 * SIGKILL, say): a small worker thread watches for that on its own, so it is noticed even while the
 * main thread is stuck in one long synchronous step. It first asks the main thread to shut down
 * cleanly (`onLost`); if the main thread cannot answer within a grace, the worker kills the process
 * groups of the commands still running (registered with `trackChildGroup`) and then the server itself.
 *
 * Limit: while the main thread is stuck, a client that closes our stdin but stays alive is not
 * noticed; such a client ends the server itself (the MCP shutdown sequence ends with SIGKILL).
 */
import { Worker } from 'node:worker_threads';

/** How often the worker looks at the parent, and how long a stuck main thread gets to shut down itself. */
const POLL_MS = 500;
const GRACE_MS = 3000;
/** Command process groups the worker can kill; more at once than this is no real server's load. */
const SLOTS = 256;

const groups = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));

/** A command started in its own process group (its pid is the group id): killed with the server if it must die unasked. */
export function trackChildGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  for (let i = 0; i < SLOTS; i++) if (Atomics.compareExchange(groups, i, 0, pid) === 0) return;
}

export function untrackChildGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  for (let i = 0; i < SLOTS; i++) if (Atomics.compareExchange(groups, i, pid, 0) === pid) return;
}

/**
 * The worker's whole program, as plain JavaScript source (a bundler or loader cannot rewrite it, and it
 * needs no file of its own next to the bundle). It sees only its workerData and Node's globals.
 */
const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { ppid, shared, pollMs, graceMs } = workerData;
const slots = new Int32Array(shared);
function parentGone() {
  if (process.ppid !== ppid) return true;
  try { process.kill(ppid, 0); return false; } catch (error) { return error.code === 'ESRCH'; }
}
const timer = setInterval(() => {
  if (!parentGone()) return;
  clearInterval(timer);
  parentPort.postMessage('parent');
  setTimeout(() => {
    for (let i = 0; i < slots.length; i++) {
      const pid = Atomics.load(slots, i);
      if (pid > 0) try { process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL'); } catch {}
    }
    process.kill(process.pid, 'SIGKILL');
  }, graceMs);
}, pollMs);
`;

/** Calls `onLost` (once) when stdin closes or the parent process dies; `onLost` is expected to exit. */
export function holdLifeline(onLost: (why: string) => void): void {
  let lost = false;
  const lose = (why: string): void => {
    if (lost) return;
    lost = true;
    onLost(why);
  };
  process.stdin.on('end', () => lose('stdin closed'));
  process.stdin.on('close', () => lose('stdin closed'));
  const worker = new Worker(WATCHER, {
    eval: true,
    workerData: { ppid: process.ppid, shared: groups.buffer, pollMs: POLL_MS, graceMs: GRACE_MS },
    // The watcher needs none of the server's flags (tsx in development, say), and its own stdio is never used.
    execArgv: [],
    stdout: true,
    stderr: true,
  });
  worker.on('message', () => lose('its parent process exited'));
  // A watcher that cannot start leaves the stdin path, which covers every client that is not stuck.
  worker.on('error', () => undefined);
  worker.unref();
}
