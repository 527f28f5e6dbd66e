/**
 * The shapes shared by ServerConnection, its client opener and McpHub: a server's state and status
 * as views see them, and the options every connection is built with.
 */
import type { Clock, Logger, ToolHostEvent } from '../agent/ports';
import type { ClientFeatures } from './clientFeatures';
import type { OAuthHost } from './oauthClient';
import type { EraStore, ProtocolEra, ProtocolSetting } from './protocolEra';

export type ServerState = 'idle' | 'starting' | 'ready' | 'killed' | 'restarting' | 'failed';

export interface ServerStatus {
  name: string;
  /** `sse`: an HTTP server reached over the old HTTP+SSE transport. */
  transport: 'stdio' | 'http' | 'sse' | 'inProcess';
  state: ServerState;
  error?: string;
  /** Successful restarts since the hub started. */
  restarts: number;
  /** Bare names of the hooks (`_` tools) it exposes, as last listed (kept while it is down). */
  hooks: string[];
  toolCount: number;
  /** Process id of a running stdio server. */
  pid?: number;
  /** The protocol era of the connection that is (or was last) up, and its revision. */
  era?: ProtocolEra;
  protocolVersion?: string;
}

export interface ConnectionOptions {
  /** Backoff waits and the times they are measured from. */
  clock: Clock;
  clientName: string;
  clientVersion: string;
  logger?: Logger;
  restart: { initialDelayMs: number; maxDelayMs: number; maxAttempts: number };
  /** A server that ran this long since its last start gets a fresh restart budget. */
  stableResetMs: number;
  connectTimeoutMs: number;
  closeGraceMs: number;
  parentEnv: NodeJS.ProcessEnv;
  onStderr?: (server: string, line: string) => void;
  emit: (event: ToolHostEvent) => void;
  /** Elicitation and roots, declared to the server only when handled. */
  features: ClientFeatures;
  /** Sign-in for HTTP servers that ask for it; without it a 401 is a start failure. */
  oauth?: OAuthHost;
  /** Which protocol era to speak: asked and remembered (`auto`), or pinned. */
  protocol: ProtocolSetting;
  /** What was learned about each server's era. */
  eras: EraStore;
  /** The server's status after it changed (state, error, restarts, tools listed); at most once a tick. */
  onStatus?: (status: ServerStatus) => void;
  /** The server said its prompt list changed. */
  onPromptsChanged?: (server: string) => void;
  /** The server said a subscribed resource changed (`notifications/resources/updated`). */
  onResourceUpdated?: (server: string, uri: string) => void;
}
