/**
 * One run's worth of agent, composed from the parts in compose.ts (the CLI's whole composition, and
 * the loop tests'): MCP servers (configured, then bundled) behind one McpHub, an OpenAI-compatible
 * model client and the transcript store, wired into one AgentSession. `dispose()` flushes the
 * transcript and closes the hub, which kills every server's process group, so a host that awaits it
 * leaves no child process behind.
 */
import type { AgentSession } from '../agent/session';
import type { Clock, Logger } from '../agent/ports';
import type { AgentEvent, TranscriptStore } from '../agent/events';
import type { AgentSettings } from '../agent/settings';
import type { ClientFeatures } from '../mcp/clientFeatures';
import type { McpServerConfig } from '../mcp/config';
import type { McpHub, McpHubOptions } from '../mcp/mcpHub';
import type { OAuthHost } from '../mcp/oauthClient';
import type { AdaptationMemory } from '../model/adaptationMemory';
import type { Compatibility } from '../model/dialect';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { bundledServerConfigs, type BundledServerName } from './bundledServers';
import { createHub, openSession, type OpenedSession } from './compose';
import { JsonlTranscriptStore } from './jsonlTranscriptStore';
import { silentLogger } from './streamLogger';

export interface ModelOptions {
  baseUrl?: string;
  apiKey?: string;
  compatibility?: Compatibility;
  /** Where what the endpoint taught is remembered; default this process only. */
  memory?: AdaptationMemory;
  maxRetries?: number;
  retryBaseDelayMs?: number;
}

export interface BundledServersOption {
  names: readonly BundledServerName[];
  distDir: string;
  stateDir: string;
  /** Passed to the workspace server (see BundledServerOptions). */
  protectedPaths?: readonly string[];
  allowProtectedWrites?: boolean;
}

export interface AgentRuntimeOptions {
  workspaceFolder: string;
  /** Servers from the user's configuration, in configuration order. */
  servers: readonly McpServerConfig[];
  /** Appended after `servers`. */
  bundledServers?: BundledServersOption;
  settings: AgentSettings;
  model: ModelOptions;
  sessionId: string;
  /** A store, or a JSON-lines file path; omitted means no transcript. */
  transcript?: TranscriptStore | string;
  logger?: Logger;
  clock?: Clock;
  /** What stdio servers' minimal environment is picked from; defaults to process.env. */
  parentEnv?: NodeJS.ProcessEnv;
  /** Hub tuning (restart backoff, connect timeout, close grace); defaults suit both hosts. */
  hub?: Pick<McpHubOptions, 'restart' | 'connectTimeoutMs' | 'closeGraceMs' | 'stableResetMs'>;
  /** Reported to MCP servers in `initialize`. */
  clientVersion?: string;
  /** A server wrote to its stderr. */
  onServerStderr?: (server: string, text: string) => void;
  /** Elicitation and roots offered to MCP servers (each declared only when given). */
  mcpFeatures?: ClientFeatures;
  /** Sign-in for HTTP servers that ask for it. */
  oauth?: OAuthHost;
}

export interface AgentRuntime {
  session: AgentSession;
  hub: McpHub;
  model: OpenAiModelClient;
  transcript: TranscriptStore | undefined;
  servers: McpServerConfig[];
  /** Events the session emitted while opening (session_started), before anyone could subscribe. */
  startupEvents: AgentEvent[];
  /** Flushes the transcript and kills every server; safe to call more than once. */
  dispose(): Promise<void>;
}

function allServers(options: AgentRuntimeOptions): McpServerConfig[] {
  const bundled = options.bundledServers;
  const extra = bundled
    ? bundledServerConfigs(bundled.names, { ...bundled, workspaceFolder: options.workspaceFolder })
    : [];
  return [...options.servers, ...extra];
}

function transcriptStore(option: AgentRuntimeOptions['transcript'], logger: Logger): TranscriptStore | undefined {
  if (option === undefined) return undefined;
  return typeof option === 'string' ? new JsonlTranscriptStore(option, { logger }) : option;
}

export async function createAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  const logger = options.logger ?? silentLogger;
  const servers = allServers(options);
  const hub = createHub(servers, {
    tuning: options.hub,
    clientVersion: options.clientVersion,
    logger,
    parentEnv: options.parentEnv,
    onServerStderr: options.onServerStderr,
    features: options.mcpFeatures,
    oauth: options.oauth,
  });
  let disposed: Promise<void> | undefined;
  const transcript = transcriptStore(options.transcript, logger);
  const closeAll = async (): Promise<void> => {
    try {
      await transcript?.flush();
    } finally {
      await hub.close();
    }
  };
  const model = new OpenAiModelClient({ ...options.model });
  let opened: OpenedSession;
  try {
    opened = await openSession({ sessionId: options.sessionId, settings: options.settings, model, tools: hub, clock: options.clock, logger, transcript });
  } catch (error) {
    await closeAll();
    throw error;
  }
  const { session, startupEvents } = opened;
  return {
    session,
    hub,
    model,
    transcript,
    servers,
    startupEvents,
    dispose: () => (disposed ??= closeAll().finally(() => session.dispose())),
  };
}
