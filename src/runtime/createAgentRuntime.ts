/**
 * One run's worth of agent, composed from the parts in compose.ts (the CLI's whole composition, and
 * the loop tests'): MCP servers (configured, then bundled) behind one McpHub, an OpenAI-compatible
 * model client and the transcript store, wired into one AgentSession. `dispose()` flushes the
 * transcript and closes the hub, which kills every server's process group, so a host that awaits it
 * leaves no child process behind.
 */
import type { AgentSession } from '../agent/session';
import type { Clock, Logger, ToolHost } from '../agent/ports';
import type { AgentEvent, TranscriptStore } from '../agent/events';
import type { AgentSettings } from '../agent/settings';
import { samplingThrough, type ClientFeatures, type SamplingPermission } from '../mcp/clientFeatures';
import type { McpServerConfig } from '../mcp/config';
import type { McpHub, McpHubOptions } from '../mcp/mcpHub';
import type { OAuthHost } from '../mcp/oauthClient';
import type { AdaptationMemory } from '../model/adaptationMemory';
import type { Compatibility } from '../model/dialect';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { bundledServerConfigs, type BundledServerName } from './bundledServers';
import { createHub, openSession, type HubOptions, type OpenedSession } from './compose';
import { endpointModelCatalog } from './endpointModels';
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
  mcpFeatures?: Omit<ClientFeatures, 'sampling'>;
  /** Who lets a server's sampling request reach the session's model; omitted: sampling is not offered. */
  samplingPermission?: SamplingPermission;
  /** Sign-in for HTTP servers that ask for it. */
  oauth?: OAuthHost;
  /** Which MCP protocol era to speak, and where each server's era is remembered. */
  mcp?: Pick<HubOptions, 'protocol' | 'eraStore'>;
  /** The session's tool host made from the hub (other agents' hook files added, say); default: the hub. */
  wrapTools?: (hub: McpHub) => ToolHost;
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
  const model = new OpenAiModelClient({ ...options.model });
  const sampling = options.samplingPermission === undefined ? undefined : samplingThrough(options.samplingPermission, model, () => options.settings.model);
  const hub = createHub(servers, {
    tuning: options.hub,
    clientVersion: options.clientVersion,
    logger,
    parentEnv: options.parentEnv,
    onServerStderr: options.onServerStderr,
    features: { ...options.mcpFeatures, ...(sampling === undefined ? {} : { sampling }) },
    oauth: options.oauth,
    ...options.mcp,
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
  let opened: OpenedSession;
  try {
    opened = await openSession({ sessionId: options.sessionId, settings: options.settings, model, models: endpointModelCatalog(model), tools: options.wrapTools?.(hub) ?? hub, clock: options.clock, logger, transcript });
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
