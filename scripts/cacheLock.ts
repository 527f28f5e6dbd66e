// One install at a time into a shared cache folder: two test runs (two clones, or a suite and a
// script) that find the same download missing would otherwise install into the same folder at once
// and break each other's native builds. A directory made with mkdir is the lock (atomic everywhere);
// one older than the longest install is a crashed run's and is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';

const STALE_MS = 20 * 60_000;

/** Waits for and takes `<dir>.lock`; returns its release. */
export function cacheLock(dir: string, log?: (m: string) => void): () => void {
  const lock = `${dir}.lock`;
  const deadline = Date.now() + STALE_MS;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch {
      if (!told) log?.(`waiting for another install into ${dir} (${lock})`);
      told = true;
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}; remove it if no install is running`);
      spawnSync('sleep', ['0.5']);
    }
  }
}
