// The e2e run's shared code-server as a test file sees it: the runner (test/e2e/run.ts) starts one
// code-server with the packaged extension for the whole run and names it in SPROUT_E2E_SHARED_SERVER;
// each file then opens its own windows on it (a fresh workspace folder, fresh user settings, a fresh
// browser), so no file pays for installing the .vsix and starting a server. One window's extension
// host outlives the browser that closed it (the server keeps it for a reconnect), so a window's end
// takes down the extension hosts that started with it, and the MCP servers under them.
import { readFileSync } from 'node:fs';
import { signalKnown, strayProcesses, waitUntilGone, type KnownProcess } from '../../../src/platform/processTree';
import { scaledMs } from '../../loadScale';

export const SHARED_SERVER_ENV = 'SPROUT_E2E_SHARED_SERVER';

export interface SharedServer {
  port: number;
  /** The server's temp folder (user data, extensions); its user settings are each window's. */
  temp: string;
  extensionDir: string;
  /** code-server's own pid: the extension hosts are under it. */
  pid: number;
}

/** The run's shared server, when the runner started one. */
export function sharedServerFromEnv(env: NodeJS.ProcessEnv = process.env): SharedServer | undefined {
  const text = env[SHARED_SERVER_ENV];
  if (text === undefined || text === '') return undefined;
  const parsed = JSON.parse(text) as Partial<SharedServer>;
  if (typeof parsed.port !== 'number' || typeof parsed.temp !== 'string' || typeof parsed.extensionDir !== 'string' || typeof parsed.pid !== 'number') {
    throw new Error(`${SHARED_SERVER_ENV} is not the runner's description of a code-server: ${text}`);
  }
  return parsed as SharedServer;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** The extension hosts code-server (`serverPid`) runs now, one per connected or lingering window. */
export function extensionHosts(serverPid: number): KnownProcess[] {
  return strayProcesses(serverPid, []).filter((p) => commandLine(p.pid).includes('--type=extensionHost'));
}

/** How long a closed window's extension host may take to end on its own on an idle machine. */
const OWN_END_IDLE_MS = 5_000;

/**
 * Ends the extension hosts started since `before` (the files run one at a time, so they are this
 * window's, a reload's included) with everything under them: first asked (SIGTERM lets the extension
 * deactivate and stop its servers), then killed.
 */
export async function endExtensionHostsSince(serverPid: number, before: readonly KnownProcess[]): Promise<void> {
  const old = new Set(before.map((p) => `${p.pid}:${p.start}`));
  const hosts = extensionHosts(serverPid).filter((p) => !old.has(`${p.pid}:${p.start}`));
  if (hosts.length === 0) return;
  // Remembered before any signal: once a host is gone, its servers are no longer under it.
  const tree = [...hosts, ...hosts.flatMap((h) => strayProcesses(h.pid, []))];
  signalKnown(hosts, 'SIGTERM');
  if (await waitUntilGone(undefined, tree, scaledMs(OWN_END_IDLE_MS))) return;
  signalKnown(tree, 'SIGKILL');
  if (!(await waitUntilGone(undefined, tree, scaledMs(OWN_END_IDLE_MS)))) throw new Error(`the window's extension host (${hosts.map((h) => h.pid).join(', ')}) or a process under it outlived SIGKILL`);
}
