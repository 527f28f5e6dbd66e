/**
 * Shared helpers for the MCP integration tests: temp folders, waiting for a condition, and checking
 * whether a process is really gone (a zombie left for a non-reaping init counts as gone).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaledMs } from '../../loadScale';

export function makeTempDir(prefix = 'sprout-mcp-'): { dir: string; file: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function isAlive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (existsSync(stat)) {
    try {
      const state = readFileSync(stat, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z' || state === 'X') return false;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `probe` holds; `timeoutMs` is a hang guard for an idle machine, scaled by its load. */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, idleTimeoutMs = 15_000): Promise<T> {
  const timeoutMs = scaledMs(idleTimeoutMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8'));
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Best-effort cleanup of pids a failed test may have left behind. */
export function killPids(pids: Iterable<number | undefined>): void {
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export const signal = (): AbortSignal => new AbortController().signal;
