/**
 * The Hooks view's state, which the status bar and the chat's hooks line also render: folded from the
 * window's view events (viewEvents.ts: the open chat's events, the servers' state, the allowlist), with
 * no polling. It holds the `_Stop` budget, each MCP server's hooks, allowlisting, health, call count and
 * latency percentiles (for the server and for each of its hooks), and the timeline of objections with
 * what became of each. vscode-free so the folding is unit-tested under node; the tree only renders it.
 */
import { splitQualifiedName } from '../../agent/toolNames';
import type { HookFailure } from '../../agent/hookEvidence';
import type { AgentEvent } from '../../agent/events';
import { KILL_AFTER_TIMEOUTS } from '../../agent/hookCaller';
import type { HookAllowlist } from '../../agent/settings';
import { isHookServerAllowed } from '../../agent/settings';
import type { ServerState } from '../../mcp/mcpHub';
import { eraText } from '../../mcp/protocolEra';
import type { Budget } from '../../shared/budgetText';
import type { ServerStatusView, ServersState, ViewEvent, ViewEventListener } from '../viewEvents';

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
  /** Another agent's hook file that runs as this server: it runs by consent, so it is always on. */
  file?: string;
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

export class HooksViewState implements ViewEventListener {
  budget: Budget | undefined;
  readonly servers = new Map<string, ServerView>();
  /** Whether the window's MCP servers have been started (they start with the first prompt). */
  serversStarted = false;
  /** What the configuration says about servers that do not run (shown as rows of their own). */
  notices: readonly string[] = [];
  /** Whether the open chat's prompt runs, as the chat says (the status bar's spinner). */
  running = false;
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

  /** Folds one event of the window's relay; tells listeners only when something shown moved. */
  apply(event: ViewEvent): void {
    if (this.fold(event)) this.changed();
  }

  private fold(event: ViewEvent): boolean {
    switch (event.type) {
      case 'chat_opened':
        // Budget and timeline belong to the chat, servers to the window; a chat that just opened runs
        // nothing (a replaced chat that was running stops without telling the views).
        this.budget = undefined;
        this.objections.length = 0;
        this.running = false;
        return true;
      case 'running':
        if (event.running === this.running) return false;
        this.running = event.running;
        return true;
      case 'allowlist':
        this.allowlist = event.allowlist;
        for (const server of this.servers.values()) server.allowlisted = server.file !== undefined || isHookServerAllowed(event.allowlist, server.name);
        return true;
      case 'servers':
        return this.updateServers(event.state);
      case 'agent':
        return this.foldAgentEvent(event.event, event.at);
    }
  }

  /** Servers no longer configured leave the view; `started` is false before the first prompt starts them, and after a configuration change. */
  private updateServers(state: ServersState): boolean {
    let moved = state.started !== this.serversStarted || state.notices.join('\n') !== this.notices.join('\n');
    this.serversStarted = state.started;
    this.notices = state.notices;
    const listed = new Set(state.servers.map((s) => s.name));
    for (const name of [...this.servers.keys()]) {
      if (listed.has(name)) continue;
      this.servers.delete(name);
      moved = true;
    }
    for (const status of state.servers) moved = this.fromStatus(status) || moved;
    return moved;
  }

  private fromStatus(status: ServerStatusView): boolean {
    const known = this.servers.has(status.name);
    const server = this.server(status.name);
    const shown = (): string => `${server.hooks.join(',')}|${server.health}|${server.detail ?? ''}|${server.protocol ?? ''}`;
    const before = shown();
    server.hooks = [...status.hooks];
    if (status.file !== undefined) Object.assign(server, { file: status.file, allowlisted: true });
    server.health = healthOf(status.state, server.health);
    server.detail = status.error;
    if (status.era !== undefined) server.protocol = eraText(status.era, status.protocolVersion);
    return !known || before !== shown();
  }

  private foldAgentEvent(event: AgentEvent, at: number): boolean {
    switch (event.type) {
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
