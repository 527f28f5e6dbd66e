/**
 * The one event path for the window's views. The open chat publishes its session's events here
 * (replayed from its transcript when it opens, then live) and its running flag; the agent host
 * publishes the state of the window's MCP servers, whole, whenever any of it changes; the settings
 * reader publishes the hook allowlist. Each view (the chat webviews, the Hooks view's state, the
 * Testing view's mirror) subscribes here and folds what it shows; nobody routes events for another
 * view. vscode-free, so the views' folds are unit-tested by publishing recorded events.
 */
import type { AgentEvent } from '../agent/events';
import type { HookAllowlist } from '../agent/settings';
import type { ServerState } from '../mcp/mcpHub';
import type { ProtocolEra } from '../mcp/protocolEra';

/** A server as the views read it (the hub's status, narrowed to what they show). */
export interface ServerStatusView {
  name: string;
  state: ServerState;
  /** Bare names of the hooks it exposes, as last listed. */
  hooks: readonly string[];
  error?: string;
  /** The protocol era it speaks and the revision in use, once it was up. */
  era?: ProtocolEra;
  protocolVersion?: string;
  /** Another agent's hook file that runs as this hook server (`.claude/settings.json`): by consent, not by the allowlist. */
  file?: string;
}

/** The window's MCP servers: `started` is false before the first prompt starts them, and again after a configuration change. */
export interface ServersState {
  started: boolean;
  servers: readonly ServerStatusView[];
  /** What the configuration says about servers that do not run (untrusted, consent declined, name clashes). */
  notices: readonly string[];
}

export type ViewEvent =
  /** Another chat is open now: its events follow, its transcript's first. */
  | { type: 'chat_opened'; chatId: string }
  /** One event of the open chat's session, `at` when it happened (ms since epoch). */
  | { type: 'agent'; event: AgentEvent; at: number }
  /** The open chat's prompt started or ended (the chat owns the flag; see Chat.running). */
  | { type: 'running'; running: boolean }
  | { type: 'servers'; state: ServersState }
  /** `sprout.hooks.servers` was read (at start and after every change). */
  | { type: 'allowlist'; allowlist: HookAllowlist };

/** A view: it folds the events it cares about and ignores the rest. */
export interface ViewEventListener {
  apply(event: ViewEvent): void;
}

export class ViewEvents {
  private readonly listeners = new Set<ViewEventListener>();

  /** `onError`: told when a view throws while folding (a bug to log; the other views still get the event). */
  constructor(private readonly onError: (error: unknown, event: ViewEvent) => void = () => {}) {}

  subscribe(listener: ViewEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: ViewEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener.apply(event);
      } catch (error) {
        // A view that fails to fold one event must not keep it from the others, nor fail the chat that published it.
        this.onError(error, event);
      }
    }
  }
}
