/**
 * What the Hooks view and the status bar show, folded from the core's events plus the status each MCP
 * server reports when it changes (no polling): the `_Stop` budget, each MCP server's hooks, allowlisting, health, call count and
 * latency percentiles (for the server and for each of its hooks), and the timeline of objections with what became of each. vscode-free so the
 * folding is unit-tested under node; the tree provider only renders it.
 */
import { splitQualifiedName } from '../../agent/toolNames';
import type { HookFailure } from '../../agent/hookEvidence';
import type { AgentEvent } from '../../agent/events';
import { KILL_AFTER_TIMEOUTS } from '../../agent/hookCaller';
import type { HookAllowlist } from '../../agent/settings';
import { isHookServerAllowed } from '../../agent/settings';
import type { ServerState, ServerStatus } from '../../mcp/mcpHub';
import { eraText } from '../../mcp/protocolEra';
import type { Budget } from '../../shared/protocol';

/** 'timed out': its last hook calls timed out (`timeouts` of them), one more and the agent kills it. */
export type ServerHealth = 'ok' | 'not started' | 'starting' | 'timed out' | 'killed' | 'restarting' | 'error';

export interface ServerView {
  name: string;
  allowlisted: boolean;
  hooks: string[];
  health: ServerHealth;
  /** Consecutive hook timeouts while 'timed out'. */
  timeouts: number;
  detail?: string;
  /** The protocol it speaks, as a person reads it ("MCP 2026-07-28 (modern era)"), once it was up. */
  protocol?: string;
  calls: number;
  latencies: number[];
  /** Calls of each hook of this server (by bare name), for its row under the server. */
  hookCalls: Map<string, CallStats>;
}

export interface CallStats {
  calls: number;
  /** The latest durations (ms), for p50/p95. */
  latencies: number[];
}

/** One row per hook the server exposes (as last listed), then any hook called that the list no longer has. */
export function hookRows(server: Pick<ServerView, 'hooks' | 'hookCalls'>): Array<{ hook: string; stats: CallStats }> {
  const names = [...server.hooks, ...[...server.hookCalls.keys()].filter((h) => !server.hooks.includes(h))];
  return names.map((hook) => ({ hook, stats: server.hookCalls.get(hook) ?? { calls: 0, latencies: [] } }));
}

export interface ObjectionView {
  at: number;
  server: string;
  text: string;
  outcome: 'pending' | 'complied' | 'declined' | 'overridden';
  /** Failing tests the hook attached (its result's structured content). */
  failures?: HookFailure[];
}

/** The slice of a server's status the view reads. */
export type ServerStatusView = Pick<ServerStatus, 'name' | 'state' | 'hooks' | 'error' | 'era' | 'protocolVersion'>;

const LATENCY_WINDOW = 200;

/** The health as the Hooks view words it. */
export function healthText(server: Pick<ServerView, 'health' | 'timeouts'>): string {
  return server.health === 'timed out' ? `timed out ${server.timeouts}/${KILL_AFTER_TIMEOUTS}` : server.health;
}

export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export class HooksViewState {
  budget: Budget | undefined;
  readonly servers = new Map<string, ServerView>();
  /** Whether the window's MCP servers have been started (they start with the first prompt). */
  serversStarted = false;
  readonly objections: ObjectionView[] = [];
  private listeners = new Set<() => void>();

  constructor(private allowlist: HookAllowlist) {}

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The hook allowlist the rows are folded against (`sprout.hooks.servers`). */
  get hookAllowlist(): HookAllowlist {
    return this.allowlist;
  }

  setAllowlist(allowlist: HookAllowlist): void {
    this.allowlist = allowlist;
    for (const server of this.servers.values()) server.allowlisted = isHookServerAllowed(allowlist, server.name);
    this.changed();
  }

  /** Starts a fresh chat's view: budget and timeline belong to the chat, servers to the window. */
  resetChat(): void {
    this.budget = undefined;
    this.objections.length = 0;
    this.changed();
  }

  /**
   * The servers the window runs, whenever that set may have changed (`started` is false before the
   * first prompt starts them, and after a configuration change until the next): servers no longer
   * configured leave the view. Tells listeners only when something shown moved.
   */
  updateStatus(statuses: readonly ServerStatusView[], started = true): void {
    let moved = started !== this.serversStarted;
    this.serversStarted = started;
    const listed = new Set(statuses.map((s) => s.name));
    for (const name of [...this.servers.keys()]) {
      if (listed.has(name)) continue;
      this.servers.delete(name);
      moved = true;
    }
    for (const status of statuses) moved = this.fromStatus(status) || moved;
    if (moved) this.changed();
  }

  /** One server reported a change of its own (the hub says so as it happens). */
  updateServer(status: ServerStatusView): void {
    if (this.fromStatus(status)) this.changed();
  }

  private fromStatus(status: ServerStatusView): boolean {
    const known = this.servers.has(status.name);
    const server = this.server(status.name);
    const shown = (): string => `${server.hooks.join(',')}|${server.health}|${server.detail ?? ''}|${server.protocol ?? ''}`;
    const before = shown();
    server.hooks = [...status.hooks];
    server.health = healthOf(status.state, server.health);
    server.detail = status.error;
    if (status.era !== undefined) server.protocol = eraText(status.era, status.protocolVersion);
    return !known || before !== shown();
  }

  apply(event: AgentEvent, at: number): void {
    if (this.fold(event, at)) this.changed();
  }

  private fold(event: AgentEvent, at: number): boolean {
    switch (event.type) {
      case 'prompt_started':
        // Nothing of its own to fold, but whoever shows "running" (the status bar) looks again.
        return true;
      case 'outcome':
        for (const o of this.objections) if (o.outcome === 'pending') o.outcome = event.outcome.unresolved?.cause === 'declined' ? 'declined' : 'overridden';
        return true;
      case 'budget':
        this.budget = { used: event.used, max: event.max, scope: event.scope, repeatedEndTurnStops: event.repeatedEndTurnStops };
        return true;
      case 'tool_finished': {
        const parts = splitQualifiedName(event.name);
        if (parts) this.recordCall(parts.server, event.durationMs, 'ok');
        return parts !== undefined;
      }
      case 'hook_finished': {
        this.recordCall(event.server, event.durationMs, event.result === 'timeout' ? undefined : 'ok');
        const perHook = this.server(event.server).hookCalls;
        const stats = perHook.get(event.hook) ?? { calls: 0, latencies: [] };
        perHook.set(event.hook, stats);
        record(stats, event.durationMs);
        return true;
      }
      case 'hook_objected':
        this.objections.push({ at, server: event.server, text: event.text, outcome: 'pending', ...(event.failures ? { failures: event.failures } : {}) });
        return true;
      case 'objection_resolved':
        for (const o of this.objections) if (o.outcome === 'pending' && event.servers.includes(o.server)) o.outcome = event.resolution;
        return true;
      default:
        return this.foldServerEvent(event);
    }
  }

  private foldServerEvent(event: AgentEvent): boolean {
    switch (event.type) {
      case 'hook_timed_out':
        Object.assign(this.server(event.server), { health: event.consecutive >= KILL_AFTER_TIMEOUTS ? 'killed' : 'timed out', timeouts: event.consecutive });
        return true;
      case 'server_killed':
        Object.assign(this.server(event.server), { health: 'killed', detail: event.reason });
        return true;
      case 'server_restarted':
        Object.assign(this.server(event.server), { health: 'restarting', detail: `restart ${event.attempt}` });
        return true;
      case 'server_error':
        Object.assign(this.server(event.server), { health: 'error', detail: event.message });
        return true;
      case 'hooks_not_enabled':
        this.server(event.server).hooks = [...event.hooks];
        return true;
      default:
        return false;
    }
  }

  private recordCall(name: string, durationMs: number, health: 'ok' | undefined): void {
    const server = this.server(name);
    record(server, durationMs);
    if (health === 'ok') server.health = 'ok';
  }

  private server(name: string): ServerView {
    let server = this.servers.get(name);
    if (!server) {
      server = { name, allowlisted: isHookServerAllowed(this.allowlist, name), hooks: [], health: 'starting', timeouts: 0, calls: 0, latencies: [], hookCalls: new Map() };
      this.servers.set(name, server);
    }
    return server;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function record(stats: CallStats, durationMs: number): void {
  stats.calls += 1;
  stats.latencies.push(durationMs);
  if (stats.latencies.length > LATENCY_WINDOW) stats.latencies.shift();
}

function healthOf(state: ServerState, previous: ServerHealth): ServerHealth {
  switch (state) {
    case 'idle':
      // Idle again after Restart MCP Servers; a server the agent killed keeps saying so until it runs.
      return previous === 'killed' ? 'killed' : 'not started';
    case 'starting':
      return 'starting';
    case 'ready':
      // Up, but its last hook call timed out: the next timeout kills it, which is what matters here.
      return previous === 'timed out' ? previous : 'ok';
    case 'killed':
      return 'killed';
    case 'restarting':
      return 'restarting';
    case 'failed':
      return 'error';
  }
}
