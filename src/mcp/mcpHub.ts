/**
 * McpHub is the core's ToolHost over the MCP SDK: it owns one ServerConnection per configured server,
 * merges their tools in configuration order, routes calls, and forwards what servers do on their own
 * (restarts, errors, tool list changes) to subscribers. close() stops every server and waits for the
 * processes to exit, so no server or its children outlive the host.
 */
import type { Clock, Logger, ToolCallOptions, ToolHost, ToolHostEvent, ToolListOptions } from '../agent/ports';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import { nodeClock } from '../platform/nodeClock';
import type { McpServerConfig } from './config';
import type { ClientFeatures } from './clientFeatures';
import type { OAuthHost } from './oauthClient';
import type { ServerStatus } from './connectionTypes';
import { memoryEraStore, type EraStore, type ProtocolSetting } from './protocolEra';
import { ServerConnection } from './serverConnection';
import { quotedName } from '../agent/nameText';
import type { McpPromptInfo, McpPromptMessage } from '../agent/mcpPrompts';
import { completePromptArgument, getServerPrompt, listServerPrompts } from './mcpPrompts';
import type { ResourceHost } from '../agent/resources';
import { resourceHost } from './mcpResources';
import { ResourceSubscriptions } from './resourceSubscriptions';

export type { ServerState, ServerStatus } from './connectionTypes';

/** A listing still waiting after this long tells the host which servers it waits for. */
const WAITING_NOTICE_MS = 300;

function raceSignal(promise: Promise<unknown>, signal: AbortSignal): Promise<unknown> {
  return Promise.race([promise, new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))]);
}

export interface McpHubOptions {
  clientName?: string;
  clientVersion?: string;
  logger?: Logger;
  /** Restart backoff waits; default the Node clock. */
  clock?: Clock;
  restart?: { initialDelayMs?: number; maxDelayMs?: number; maxAttempts?: number };
  parentEnv?: NodeJS.ProcessEnv;
  onStderr?: (server: string, line: string) => void;
  /** Bound on server start (initialize) and tools/list; default 30 s. */
  connectTimeoutMs?: number;
  /** How long a polite stop waits after SIGTERM before SIGKILL; default 2 s. */
  closeGraceMs?: number;
  /** A server that stayed up this long gets a fresh restart budget; default 60 s. */
  stableResetMs?: number;
  /** Elicitation and roots; each capability is declared to servers only when given here. */
  features?: ClientFeatures;
  /** Sign-in for HTTP servers that ask for it (OAuth); without it their 401 is a start failure. */
  oauth?: OAuthHost;
  /** Which protocol era to speak (default `auto`: ask each server, and remember). */
  protocol?: ProtocolSetting;
  /** Where what was learned about each server's era is kept; default this hub's memory. */
  eraStore?: EraStore;
}

export class McpHub implements ToolHost {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly listeners = new Set<(event: ToolHostEvent) => void>();
  /** Servers a listing gave up waiting for; they are not waited for again until their list is in. */
  private readonly late = new Set<string>();
  private readonly listed = new Map<string, ToolInfo[]>();
  private readonly statusListeners = new Set<(status: ServerStatus) => void>();
  private readonly promptListeners = new Set<(server: string) => void>();
  private readonly resourceListeners = new Set<(updated: { server: string; uri: string }) => void>();
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  /** The connected servers' MCP resources, for the core's resource tools and the hosts' attachments. */
  readonly resources: ResourceHost;
  private readonly subscriptions: ResourceSubscriptions;

  constructor(servers: McpServerConfig[], options: McpHubOptions = {}) {
    const restart = options.restart ?? {};
    this.clock = options.clock ?? nodeClock;
    const eras = options.eraStore ?? memoryEraStore();
    this.timeoutMs = options.connectTimeoutMs ?? 30_000;
    for (const config of servers) {
      if (this.connections.has(config.name)) throw new Error(`MCP server ${quotedName(config.name)} is configured twice`);
      this.connections.set(
        config.name,
        new ServerConnection(config, {
          clock: this.clock,
          clientName: options.clientName ?? 'sprout-agent',
          clientVersion: options.clientVersion ?? '0.0.0',
          logger: options.logger,
          restart: {
            initialDelayMs: restart.initialDelayMs ?? 500,
            maxDelayMs: restart.maxDelayMs ?? 8000,
            maxAttempts: restart.maxAttempts ?? 5,
          },
          stableResetMs: options.stableResetMs ?? 60_000,
          connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
          closeGraceMs: options.closeGraceMs ?? 2000,
          parentEnv: options.parentEnv ?? process.env,
          onStderr: options.onStderr,
          emit: (event) => {
            // A new connection knows none of the old one's subscriptions: the held ones are made again.
            if (event.type === 'server_connected') this.subscriptions.renew(event.server);
            this.emit(event);
          },
          features: options.features ?? {},
          oauth: options.oauth,
          protocol: options.protocol ?? 'auto',
          eras,
          onStatus: (status) => this.emitStatus(status),
          onPromptsChanged: (server) => notifyAll(this.promptListeners, server),
          onResourceUpdated: (server, uri) => notifyAll(this.resourceListeners, { server, uri }),
        }),
      );
    }
    this.subscriptions = new ResourceSubscriptions({
      current: (server) => this.connections.get(server)?.resourceClient(),
      timeoutMs: this.timeoutMs,
      onFailure: (server, uri, what, error) => options.logger?.warn(`mcp resource ${what === 'renew' ? 'subscription not renewed' : 'unsubscribe failed'}`, { server, uri, error: error instanceof Error ? error.message : String(error) }),
    });
    this.resources = resourceHost({
      subscriptions: this.subscriptions,
      names: () => [...this.connections.values()].filter((c) => c.resourceClient() !== undefined).map((c) => c.name),
      client: async (server, signal) => {
        const c = this.connection(server);
        // A server not started yet (an attachment before any prompt listed tools) starts here.
        if (c.resourceClient() === undefined) await c.listTools(signal).catch(() => undefined);
        return c.resourceClient() ?? Promise.reject(new Error(`MCP server ${quotedName(server)} is not connected, or has no resources`));
      },
      timeoutMs: this.timeoutMs,
      onUpdated: (listener) => {
        const each = ({ server, uri }: { server: string; uri: string }): void => listener(server, uri);
        this.resourceListeners.add(each);
        return () => this.resourceListeners.delete(each);
      },
    });
  }

  serverNames(): string[] {
    return [...this.connections.keys()];
  }

  /**
   * Every server's tools. With `waitMs`, a server that is not ready in time contributes what it last
   * listed (often nothing) and is marked late: later listings do not wait for it again, and once its
   * list is in, `tools_changed` says so. A failing server has already reported itself (server_error).
   */
  async listTools(signal?: AbortSignal, options: ToolListOptions = {}): Promise<ToolInfo[]> {
    const entries = [...this.connections.values()].map((c) => ({ c, list: this.startListing(c) }));
    const waited = entries.filter((e) => !this.late.has(e.c.name));
    const settled = new Set<string>();
    for (const e of waited) void e.list.then(() => settled.add(e.c.name));
    const all = Promise.all(waited.map((e) => e.list));
    const cutoff = new AbortController();
    const stopWaiting = () => cutoff.abort();
    signal?.addEventListener('abort', stopWaiting, { once: true });
    let noticeTimer: NodeJS.Timeout | undefined;
    let announced: string[] | undefined;
    const began = this.clock.now();
    if (options.onWaiting !== undefined && waited.length > 0) {
      const onWaiting = options.onWaiting;
      noticeTimer = setTimeout(() => {
        const names = waited.filter((e) => !settled.has(e.c.name)).map((e) => e.c.name);
        if (names.length === 0) return;
        announced = names;
        onWaiting(names);
      }, Math.min(WAITING_NOTICE_MS, options.waitMs ?? WAITING_NOTICE_MS));
    }
    try {
      await (options.waitMs === undefined ? raceSignal(all, cutoff.signal) : Promise.race([all, this.clock.sleep(options.waitMs, cutoff.signal)]));
    } finally {
      // Ends the wait's timer too when every server answered first: left running it kept the process
      // alive for the rest of the startup wait after the work was done.
      cutoff.abort();
      clearTimeout(noticeTimer);
      signal?.removeEventListener('abort', stopWaiting);
    }
    signal?.throwIfAborted();
    // A wait that was announced says how it ended, so "waiting" is not the last word on it.
    if (announced) options.onWaited?.(announced, announced.filter((name) => !settled.has(name)), this.clock.now() - began);
    const lists = entries.map(({ c }) => (settled.has(c.name) ? (this.listed.get(c.name) ?? []) : this.markLate(c)));
    return lists.flat();
  }

  cachedTools(): ToolInfo[] | undefined {
    const merged: ToolInfo[] = [];
    for (const connection of this.connections.values()) {
      const tools = connection.cachedTools();
      if (tools === undefined) return undefined;
      for (const tool of tools) merged.push(tool);
    }
    return merged;
  }

  async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    return this.connection(server).callTool(bareName, args, options);
  }

  async killServer(server: string, reason: string): Promise<void> {
    return this.connection(server).kill(reason);
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): ServerStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }

  /** Forgets the server's sign-in (tokens, registration); the next use asks the user to sign in again. */
  async signOut(server: string): Promise<void> {
    await this.connection(server).signOut();
  }

  /** The roots (workspace folders) changed: every running server is told, and asks again. */
  async rootsChanged(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.rootsChanged()));
  }

  /** Each server's status whenever it changed (its typed `state`, error, restarts, hooks listed). */
  onStatus(listener: (status: ServerStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * The prompts of the servers that are up (`start`: of these servers, started if they are not). A
   * server that fails its listing contributes none; it has reported itself or reports on next use.
   */
  async listPrompts(start: readonly string[] = []): Promise<McpPromptInfo[]> {
    const lists = [...this.connections.values()].map(async (c) => {
      if (c.status().state !== 'ready' && !start.includes(c.name)) return [];
      try {
        return await listServerPrompts(await c.getClient(), c.name, this.timeoutMs);
      } catch (error) {
        this.emit({ type: 'server_error', server: c.name, message: `MCP server ${quotedName(c.name)}: prompts/list failed: ${error instanceof Error ? error.message : String(error)}` });
        return [];
      }
    });
    return (await Promise.all(lists)).flat();
  }

  /** A prompt's messages (`prompts/get`); the server's refusal is an Error naming it, its words escaped. */
  async getPrompt(prompt: Pick<McpPromptInfo, 'server' | 'name'>, args: Record<string, string>, signal?: AbortSignal): Promise<McpPromptMessage[]> {
    const client = await this.connection(prompt.server).getClient(signal);
    return getServerPrompt(client, prompt, args, { timeoutMs: this.timeoutMs, ...(signal ? { signal } : {}) });
  }

  /** What the server suggests for an argument being typed; none when it offers no completions. */
  async completePrompt(prompt: Pick<McpPromptInfo, 'server' | 'name'>, argument: { name: string; value: string }, given: Record<string, string>): Promise<string[]> {
    const connection = this.connections.get(prompt.server);
    if (connection?.status().state !== 'ready') return [];
    return completePromptArgument(await connection.getClient(), prompt, argument, given, this.timeoutMs);
  }

  /** A server said its prompt list changed. */
  onPromptsChanged(listener: (server: string) => void): () => void {
    this.promptListeners.add(listener);
    return () => this.promptListeners.delete(listener);
  }

  /** Stops every server and clears their restart budgets; each starts again on next use. */
  async restartAll(): Promise<void> {
    this.late.clear();
    await Promise.all([...this.connections.values()].map((c) => c.reset()));
  }

  /** Stops every server (whole process groups) and resolves once all have exited. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  /** The server's listing, shared by every waiting caller; remembers the result for `listTools`. */
  private startListing(c: ServerConnection): Promise<void> {
    return c.listTools().then(
      (tools) => {
        this.listed.set(c.name, tools);
        if (this.late.delete(c.name)) this.emit({ type: 'tools_changed', server: c.name });
      },
      () => void this.listed.set(c.name, []),
    );
  }

  private markLate(c: ServerConnection): ToolInfo[] {
    this.late.add(c.name);
    return c.lastTools();
  }

  private connection(server: string): ServerConnection {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(`unknown MCP server ${quotedName(server)}`);
    return connection;
  }

  private emit(event: ToolHostEvent): void {
    notifyAll(this.listeners, event);
  }

  private emitStatus(status: ServerStatus): void {
    notifyAll(this.statusListeners, status);
  }
}

function notifyAll<T>(listeners: ReadonlySet<(value: T) => void>, value: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(value);
    } catch {
      // A broken listener must not break the hub or the other listeners.
    }
  }
}
