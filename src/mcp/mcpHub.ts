/**
 * McpHub is the core's ToolHost over the MCP SDK: it owns one ServerConnection per configured server,
 * merges their tools in configuration order, routes calls, and forwards what servers do on their own
 * (restarts, errors, tool list changes) to subscribers. close() stops every server and waits for the
 * processes to exit, so no server or its children outlive the host.
 */
import type { Clock, Logger, ToolCallOptions, ToolHost, ToolHostEvent } from '../agent/ports';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import { nodeClock } from '../runtime/nodeClock';
import type { McpServerConfig } from './config';
import { ServerConnection, type ServerStatus } from './serverConnection';

export type { ServerState, ServerStatus } from './serverConnection';

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
}

export class McpHub implements ToolHost {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly listeners = new Set<(event: ToolHostEvent) => void>();
  private readonly statusListeners = new Set<(status: ServerStatus) => void>();

  constructor(servers: McpServerConfig[], options: McpHubOptions = {}) {
    const restart = options.restart ?? {};
    for (const config of servers) {
      if (this.connections.has(config.name)) throw new Error(`MCP server "${config.name}" is configured twice`);
      this.connections.set(
        config.name,
        new ServerConnection(config, {
          clock: options.clock ?? nodeClock,
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
          emit: (event) => this.emit(event),
          onStatus: (status) => this.emitStatus(status),
        }),
      );
    }
  }

  serverNames(): string[] {
    return [...this.connections.keys()];
  }

  async listTools(signal?: AbortSignal): Promise<ToolInfo[]> {
    // A failing server has already reported itself (server_error); it just contributes nothing here.
    const lists = await Promise.all([...this.connections.values()].map((c) => c.listTools(signal).catch(() => [])));
    signal?.throwIfAborted();
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

  /** Each server's status whenever it changed (its typed `state`, error, restarts, hooks listed). */
  onStatus(listener: (status: ServerStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Stops every server and clears their restart budgets; each starts again on next use. */
  async restartAll(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.reset()));
  }

  /** Stops every server (whole process groups) and resolves once all have exited. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private connection(server: string): ServerConnection {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(`unknown MCP server "${server}"`);
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
