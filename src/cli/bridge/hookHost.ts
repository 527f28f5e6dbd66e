/**
 * The per-user hook host (`sprout-agent hooks host`, started by the first `hooks run`): it keeps the
 * hook servers of each workspace running between an agent's events, so a server keeps its in-memory
 * state and a `_Stop` costs one JSON-RPC round trip instead of a server start. It listens on a Unix
 * socket (a named pipe on Windows) in the private state folder, 0600 in a 0700 folder of the user's,
 * answers one bridge request per connection, and exits (closing every server) when the last agent
 * process it served is gone, or after a quiet period, whichever comes first.
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../../agent/ports';
import type { McpHub } from '../../mcp/mcpHub';
import { createHub } from '../../runtime/compose';
import { parseInteger } from '../../agent/settings';
import type { CliIo } from '../cliIo';
import { handleBridgeRequest, hubLease, type BridgeEnvironment, type BridgeRequest, type BridgeResponse } from './bridgeHandler';
import { BridgeSetupCache } from './bridgeSetupCache';
import { HOST_LINE_LIMIT, hostSocketPath, pingHost, readLine } from './hookHostWire';

export interface HookHostOptions {
  socketPath: string;
  distDir: string;
  clientVersion: string;
  /** Exit after this long without a request. */
  idleMs: number;
  /** How often the agents' processes are looked at. */
  checkEveryMs?: number;
  logger?: Logger;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

class HookHost {
  private readonly hubs = new Map<string, McpHub>();
  /** The agent processes served, and each one's open sessions. */
  private readonly agents = new Map<number, Set<string>>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly interrupt = new AbortController();
  private servedOne = false;
  private lastRequest = Date.now();
  private active = 0;
  private closing: Promise<void> | undefined;

  readonly environment: BridgeEnvironment;

  constructor(private readonly options: HookHostOptions) {
    this.environment = this.makeEnvironment();
  }

  private makeEnvironment(): BridgeEnvironment {
    const setups = new BridgeSetupCache();
    return {
      distDir: this.options.distDir,
      setup: (...inputs) => setups.setup(...inputs),
      logger: this.options.logger,
      lease: async (servers, env) => {
        const key = JSON.stringify(servers);
        let hub = this.hubs.get(key);
        if (hub === undefined) {
          hub = createHub(servers, { parentEnv: { ...env }, clientVersion: this.options.clientVersion, logger: this.options.logger });
          this.hubs.set(key, hub);
        }
        return hubLease(hub, () => Promise.resolve());
      },
      serialize: <T>(key: string, work: () => Promise<T>): Promise<T> => {
        const next = (this.chains.get(key) ?? Promise.resolve()).then(work, work);
        this.chains.set(key, next.catch(() => undefined));
        return next;
      },
    };
  }

  async answer(request: BridgeRequest): Promise<BridgeResponse> {
    this.active += 1;
    this.lastRequest = Date.now();
    try {
      const response = await handleBridgeRequest(request, this.environment, this.interrupt.signal);
      this.track(request.agentPid, response.session);
      return response;
    } finally {
      this.active -= 1;
      this.lastRequest = Date.now();
    }
  }

  /** An agent whose last session ended is done with the host, even while its process lives on. */
  private track(pid: number, session: BridgeResponse['session']): void {
    this.servedOne = true;
    const sessions = this.agents.get(pid) ?? new Set<string>();
    this.agents.set(pid, sessions);
    if (session === undefined) return;
    if (!session.ended) sessions.add(session.key);
    else if (sessions.delete(session.key) && sessions.size === 0) this.agents.delete(pid);
  }

  /** True once the host should go: every agent it served is gone (or ended its sessions), or it has been quiet too long. */
  due(now = Date.now()): boolean {
    for (const pid of this.agents.keys()) if (!alive(pid)) this.agents.delete(pid);
    if (this.active > 0) return false;
    return (this.servedOne && this.agents.size === 0) || now - this.lastRequest > this.options.idleMs;
  }

  close(): Promise<void> {
    this.interrupt.abort();
    this.closing ??= Promise.all([...this.hubs.values()].map((hub) => hub.close().catch(() => undefined))).then(() => undefined);
    return this.closing;
  }
}

function serve(host: HookHost, socket: Socket): void {
  socket.setEncoding('utf8');
  readLine(socket, HOST_LINE_LIMIT)
    .then(async (line) => {
      const message = JSON.parse(line) as { op: string; request?: BridgeRequest };
      const reply = message.op === 'bridge' && message.request !== undefined ? await host.answer(message.request) : { ok: true };
      socket.end(`${JSON.stringify(reply)}\n`);
    })
    .catch(() => socket.destroy());
}

function listen(server: Server, path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    server.listen(path, () => resolve(true));
  });
}

/** Runs the host until it is due to go; resolves false when another host was already serving. */
export async function runHookHost(options: HookHostOptions): Promise<boolean> {
  if (await pingHost(options.socketPath, 2000)) return false;
  if (process.platform !== 'win32') rmSync(options.socketPath, { force: true });
  const host = new HookHost(options);
  const server = createServer((socket) => serve(host, socket));
  if (!(await listen(server, options.socketPath))) return false;
  if (process.platform !== 'win32') chmodSync(options.socketPath, 0o600);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (host.due()) {
        clearInterval(timer);
        resolve();
      }
    }, options.checkEveryMs ?? 1000);
    const stop = (): void => {
      clearInterval(timer);
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (process.platform !== 'win32') rmSync(options.socketPath, { force: true });
  await host.close();
  return true;
}

/** How long a host with nothing to do stays up (SPROUT_AGENT_HOOK_HOST_IDLE_MS). */
export const DEFAULT_HOST_IDLE_MS = 15 * 60 * 1000;

/** `sprout-agent hooks host`: what a bridge starts; not for people to run. */
export async function runHookHostCommand(io: CliIo): Promise<number> {
  const idle = io.env.SPROUT_AGENT_HOOK_HOST_IDLE_MS;
  const idleMs = idle === undefined || idle.trim() === '' ? DEFAULT_HOST_IDLE_MS : parseInteger(idle, 'SPROUT_AGENT_HOOK_HOST_IDLE_MS', 1);
  await runHookHost({ socketPath: hostSocketPath(io.env), distDir: io.distDir, clientVersion: io.version, idleMs });
  return 0;
}
