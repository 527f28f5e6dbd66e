/**
 * What the Hooks view and the status bar show, folded from the core's events plus the tool host's
 * server status: the `_Stop` budget, each MCP server's hooks, allowlisting, health, call count and
 * latency percentiles, and the timeline of objections with what became of each. vscode-free so the
 * folding is unit-tested under node; the tree provider only renders it.
 */
import { splitQualifiedName } from '../../agent/toolNames';
import type { HookFailure } from '../../agent/hookEvidence';
import type { AgentEvent } from '../../agent/events';
import type { BudgetScope, HookAllowlist } from '../../agent/settings';
import { isHookServerAllowed } from '../../agent/settings';

export type ServerHealth = 'ok' | 'not started' | 'starting' | 'timed out 1/2' | 'killed' | 'restarting' | 'error' | 'stopped';

export interface ServerView {
  name: string;
  allowlisted: boolean;
  hooks: string[];
  health: ServerHealth;
  detail?: string;
  calls: number;
  latencies: number[];
}

export interface ObjectionView {
  at: number;
  server: string;
  text: string;
  outcome: 'pending' | 'complied' | 'declined' | 'overridden';
  /** Failing tests the hook attached (its result's structured content). */
  failures?: HookFailure[];
}

export interface BudgetView {
  used: number;
  max: number;
  scope: BudgetScope;
  repeatedEndTurnStops: boolean;
}

/** The slice of a tool host's per-server status the view needs (McpHub.status() carries more). */
export interface ServerStatusLike {
  name: string;
  state: string;
  restarts?: number;
  hooks?: string[];
  error?: string;
}

const LATENCY_WINDOW = 200;

export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export class HooksViewState {
  budget: BudgetView | undefined;
  runState: 'idle' | 'running' = 'idle';
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

  setAllowlist(allowlist: HookAllowlist): void {
    this.allowlist = allowlist;
    for (const server of this.servers.values()) server.allowlisted = isHookServerAllowed(allowlist, server.name);
    this.changed();
  }

  /** Starts a fresh chat's view: budget and timeline belong to the chat, servers to the window. */
  resetChat(): void {
    this.budget = undefined;
    this.objections.length = 0;
    this.runState = 'idle';
    this.changed();
  }

  /**
   * Polled with the servers the window runs (`started` is false before the first prompt starts them,
   * and after a configuration change until the next): servers no longer configured leave the view.
   * Tells listeners only when a server's hooks, health or detail actually moved.
   */
  updateStatus(statuses: readonly ServerStatusLike[], started = true): void {
    let moved = started !== this.serversStarted;
    this.serversStarted = started;
    const listed = new Set(statuses.map((s) => s.name));
    for (const name of [...this.servers.keys()]) {
      if (listed.has(name)) continue;
      this.servers.delete(name);
      moved = true;
    }
    for (const status of statuses) {
      const known = this.servers.has(status.name);
      const server = this.server(status.name);
      const before = `${server.hooks.join(',')}|${server.health}|${server.detail ?? ''}`;
      if (status.hooks) server.hooks = [...status.hooks];
      server.health = healthOf(status.state, server.health);
      server.detail = status.error;
      moved ||= !known || before !== `${server.hooks.join(',')}|${server.health}|${server.detail ?? ''}`;
    }
    if (moved) this.changed();
  }

  apply(event: AgentEvent, at: number): void {
    if (this.fold(event, at)) this.changed();
  }

  private fold(event: AgentEvent, at: number): boolean {
    switch (event.type) {
      case 'prompt_started':
        this.runState = 'running';
        return true;
      case 'outcome':
        this.runState = 'idle';
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
      case 'hook_finished':
        this.recordCall(event.server, event.durationMs, event.result === 'timeout' ? undefined : 'ok');
        return true;
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
        this.server(event.server).health = event.consecutive >= 2 ? 'killed' : 'timed out 1/2';
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
    server.calls += 1;
    server.latencies.push(durationMs);
    if (server.latencies.length > LATENCY_WINDOW) server.latencies.shift();
    if (health === 'ok') server.health = 'ok';
  }

  private server(name: string): ServerView {
    let server = this.servers.get(name);
    if (!server) {
      server = { name, allowlisted: isHookServerAllowed(this.allowlist, name), hooks: [], health: 'starting', calls: 0, latencies: [] };
      this.servers.set(name, server);
    }
    return server;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function healthOf(state: string, previous: ServerHealth): ServerHealth {
  const s = state.toLowerCase();
  if (s.includes('kill')) return 'killed';
  if (s.includes('restart') || s.includes('backoff')) return 'restarting';
  if (s.includes('error') || s.includes('fail')) return 'error';
  if (s.includes('connect') || s.includes('start')) return 'starting';
  if (s.includes('idle')) return previous === 'killed' ? 'killed' : 'not started';
  if (s.includes('stop') || s.includes('closed')) return previous === 'killed' ? 'killed' : 'stopped';
  if (previous === 'timed out 1/2') return previous;
  return 'ok';
}
