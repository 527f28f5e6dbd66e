/**
 * Shared helpers for the MCP integration tests: temp folders, waiting for a condition, checking
 * whether a process is really gone (a zombie left for a non-reaping init counts as gone), and starting
 * a real server process on a free port of 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OAuthRecord, OAuthStore } from '../../../src/mcp/oauthClient';
import { HANG_GUARD_MS, waitFor as sharedWaitFor } from '../../waitFor';

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

/** Polls until `probe` holds (the shared waitFor; `idleTimeoutMs` is its hang guard on an idle machine). */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, idleTimeoutMs = HANG_GUARD_MS): Promise<T> {
  return sharedWaitFor(probe, what, { idleBoundMs: idleTimeoutMs, everyMs: 25 });
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Starts a server process and waits for a line on its output that says it listens, then for the port to take connections. */
export async function startListening(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (d: Buffer): void => void (output += d.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  try {
    await waitFor(() => ready.test(output) || child.exitCode !== null, `${args[0]} to listen`, 30_000);
  } catch (error) {
    await stopped(child);
    throw new Error(`${(error as Error).message}; it said: ${output}`, { cause: error });
  }
  if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
  // Some servers say so before they really listen.
  await sharedWaitFor(() => accepts(port), `port ${port} to take connections`, { idleBoundMs: 30_000 }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; the server said: ${output}`, { cause: error });
  });
  return child;
}

export function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Where the sign-in tests keep OAuth records: in memory, copied so a test sees what was saved. */
export class InMemoryOAuthStore implements OAuthStore {
  readonly records = new Map<string, OAuthRecord>();
  async load(key: string) {
    return this.records.get(key);
  }
  async save(key: string, record: OAuthRecord) {
    this.records.set(key, structuredClone(record));
  }
  async clear(key: string) {
    this.records.delete(key);
  }
}
