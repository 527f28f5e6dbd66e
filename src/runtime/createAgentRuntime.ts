/**
 * The Node-side composition both hosts share: MCP servers (configured, then bundled) behind one McpHub,
 * an OpenAI-compatible model client and the transcript store, wired into one AgentSession.
 * `dispose()` flushes the transcript and closes the hub, which kills every server's process group, so
 * a host that awaits it leaves no child process behind.
 */
import { AgentSession } from '../agent/index';
import type { Clock, Logger, TranscriptStore } from '../agent/ports';
import type { AgentEvent } from '../agent/events';
import type { AgentSettings } from '../agent/settings';
import type { McpServerConfig } from '../mcp/config';
import { McpHub, type McpHubOptions } from '../mcp/mcpHub';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { bundledServerConfigs, type BundledServerName } from './bundledServers';
import { JsonlTranscriptStore } from './jsonlTranscriptStore';
import { nodeClock } from './nodeClock';
import { silentLogger } from './streamLogger';

export interface ModelOptions {
  baseUrl?: string;
  apiKey?: string;
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

export async function createAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  const logger = options.logger ?? silentLogger;
  const servers = allServers(options);
  const hub = new McpHub(servers, {
    ...options.hub,
    clientVersion: options.clientVersion,
    logger,
    parentEnv: options.parentEnv ?? process.env,
    onStderr: options.onServerStderr,
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
  const recorder = startupRecorder(transcript);
  let session: AgentSession;
  try {
    session = await AgentSession.open({
      sessionId: options.sessionId,
      settings: options.settings,
      model,
      tools: hub,
      clock: options.clock ?? nodeClock,
      logger,
      transcript: recorder.store,
    });
    recorder.stop();
  } catch (error) {
    await closeAll();
    throw error;
  }
  return {
    session,
    hub,
    model,
    transcript,
    servers,
    startupEvents: recorder.events,
    dispose: () => (disposed ??= closeAll().finally(() => session.dispose())),
  };
}
