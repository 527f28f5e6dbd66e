/**
 * The composition root both hosts build from: how an MCP hub and an agent session are made on Node.
 * The CLI makes one of each for a run (createAgentRuntime); the extension makes a hub per server
 * configuration behind one ToolHostRelay for the window (AgentHost) and a session per chat (Chat).
 * Whatever differs between the hosts (which servers, which settings, where transcripts go) arrives
 * as arguments; what must not differ (the client identity servers see, the clock, how a session
 * opens) lives here.
 */
import { AgentSession } from '../agent/session';
import type { Clock, Logger, ModelCatalog, ModelClient, ToolHost } from '../agent/ports';
import type { AgentEvent, TranscriptStore } from '../agent/events';
import type { AgentSettings } from '../agent/settings';
import type { McpServerConfig } from '../mcp/config';
import { McpHub, type McpHubOptions } from '../mcp/mcpHub';
import { nodeClock } from '../platform/nodeClock';

export const CLIENT_NAME = 'sprout-agent';

export interface HubOptions {
  logger?: Logger;
  /** Reported to MCP servers in `initialize`. */
  clientVersion?: string;
  /** What stdio servers' minimal environment is picked from; defaults to process.env. */
  parentEnv?: NodeJS.ProcessEnv;
  /** A server wrote a line to its stderr. */
  onServerStderr?: (server: string, line: string) => void;
  /** Restart backoff, connect timeout, close grace; the defaults suit both hosts. */
  tuning?: Pick<McpHubOptions, 'restart' | 'connectTimeoutMs' | 'closeGraceMs' | 'stableResetMs'>;
  /** Elicitation and roots offered to servers (each declared only when given). */
  features?: McpHubOptions['features'];
  /** Sign-in for HTTP servers that ask for it. */
  oauth?: McpHubOptions['oauth'];
  /** Which MCP protocol era to speak, and where what was learned about each server's era is kept. */
  protocol?: McpHubOptions['protocol'];
  eraStore?: McpHubOptions['eraStore'];
}

export function createHub(servers: readonly McpServerConfig[], options: HubOptions = {}): McpHub {
  return new McpHub([...servers], {
    ...options.tuning,
    clientName: CLIENT_NAME,
    clientVersion: options.clientVersion,
    logger: options.logger,
    parentEnv: options.parentEnv ?? process.env,
    onStderr: options.onServerStderr,
    features: options.features,
    oauth: options.oauth,
    protocol: options.protocol,
    eraStore: options.eraStore,
  });
}

export interface SessionParts {
  sessionId: string;
  settings: AgentSettings;
  model: ModelClient;
  /** The other models a subagent's agent may name (endpointModels.ts); omitted: children run on `model`. */
  models?: ModelCatalog;
  tools: ToolHost;
  /** Omitted means no transcript (nothing is resumed or written). */
  transcript?: TranscriptStore;
  logger?: Logger;
  clock?: Clock;
}

export interface OpenedSession {
  session: AgentSession;
  /** Events the session emitted while opening (session_started), before anyone could subscribe. */
  startupEvents: AgentEvent[];
}

/** Opens (or resumes from its transcript) a session over these parts, on the Node clock by default. */
export async function openSession(parts: SessionParts): Promise<OpenedSession> {
  const recorder = startupRecorder(parts.transcript);
  const session = await AgentSession.open({
    sessionId: parts.sessionId,
    settings: parts.settings,
    model: parts.model,
    ...(parts.models === undefined ? {} : { models: parts.models }),
    tools: parts.tools,
    clock: parts.clock ?? nodeClock,
    logger: parts.logger,
    transcript: recorder.store,
  });
  recorder.stop();
  return { session, startupEvents: recorder.events };
}

/**
 * The session announces itself from inside `open`, before a host can subscribe; this store passes
 * records through to the real one (if any) and keeps the events seen until `stop()`.
 */
function startupRecorder(store: TranscriptStore | undefined): { store: TranscriptStore; events: AgentEvent[]; stop(): void } {
  const events: AgentEvent[] = [];
  let recording = true;
  return {
    events,
    stop: () => (recording = false),
    store: {
      append(record) {
        if (recording) events.push(record.event);
        store?.append(record);
      },
      load: () => store?.load() ?? Promise.resolve([]),
      flush: () => store?.flush() ?? Promise.resolve(),
    },
  };
}
