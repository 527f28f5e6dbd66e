/**
 * The rig for end-to-end loop tests: the real composition (createAgentRuntime: AgentSession +
 * OpenAiModelClient + McpHub) against the fake OpenAI server over real HTTP and FakeHookServer child
 * processes. `close()` checks that every request the fake server received was valid for the real API,
 * then stops the servers and removes the temp folder, whatever happened in the test.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaledMs } from '../../loadScale';
import { HANG_GUARD_MS, waitFor } from '../../waitFor';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import type { McpServerConfig } from '../../../src/mcp/config';
import type { AgentEvent, TranscriptStore } from '../../../src/agent/events';
import type { AgentSettings, HookSettings } from '../../../src/agent/settings';
import { createAgentRuntime, type AgentRuntime, type AgentRuntimeOptions, type ModelOptions } from '../../../src/runtime/createAgentRuntime';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions, type FakeRequestRecord, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookServerConfig, type HookServerLogEntry } from '../../fakes/hookServer';

export interface RigServer {
  name: string;
  config?: HookServerConfig;
}

export interface RigOptions {
  servers: RigServer[];
  /** Other MCP servers (real packages), after the hook servers. */
  extraServers?: McpServerConfig[];
  responses?: FakeResponse[];
  hooks?: Partial<HookSettings>;
  settings?: Partial<AgentSettings>;
  /** A store, or a JSON-lines file path (the store the hosts use). */
  transcript?: TranscriptStore | string;
  sessionId?: string;
  /** Hub tuning; defaults to fast restarts (50 ms backoff) and a 500 ms close grace. */
  hub?: AgentRuntimeOptions['hub'];
  /** The protocol era the hub speaks (default `auto`). */
  mcp?: AgentRuntimeOptions['mcp'];
  /** Which server the fake plays (its rules and quirks); default OpenAI. */
  fake?: Omit<FakeOpenAiOptions, 'responses'>;
  /** Model client options on top of the rig's (e.g. `compatibility`). */
  model?: Partial<ModelOptions>;
}

/** A Chat Completions message as it went over the wire. */
export interface WireMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string }; extra_content?: unknown }>;
  reasoning_content?: string;
}

export interface ChatBody {
  model: string;
  messages: WireMessage[];
  tools?: Array<{ type: string; function: { name: string } }>;
  stream?: boolean;
}

export interface Rig {
  runtime: AgentRuntime;
  fake: FakeOpenAi;
  events: AgentEvent[];
  dir: string;
  of<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[];
  /** The FakeHookServer log of one server. */
  log(server: string): HookServerLogEntry[];
  /** Calls of one tool on one server, from its log. */
  calls(server: string, tool: string): HookServerLogEntry[];
  /** The messages of the n-th chat request (0-based), without the system prompt. */
  messages(n: number): WireMessage[];
  chatBodies(): ChatBody[];
  close(): Promise<void>;
}

/**
 * The rig's settings. Its hook timeout and first-prompt startup wait are hang guards, not the
 * product's 2.5 s and 10 s: where a hook answers or a server starts, that is what the test checks, and
 * on a busy machine a hook that sleeps 500 ms took over 2.5 s (its denial was lost) and a server took
 * over 10 s to start (its tools were "unknown"). Tests of those bounds name their own values.
 */
export function rigSettings(overrides: Partial<AgentSettings> = {}, hooks: Partial<HookSettings> = {}): AgentSettings {
  return {
    ...DEFAULT_SETTINGS,
    model: 'fake-model',
    systemPrompt: 'You are a test agent.',
    firstPromptServerWaitMs: scaledMs(60_000),
    ...overrides,
    hooks: { ...DEFAULT_SETTINGS.hooks, allowlist: { kind: 'all' }, timeoutMs: scaledMs(30_000), ...hooks },
  };
}

export function assertAllRequestsValid(requests: readonly FakeRequestRecord[]): void {
  const invalid = requests.filter((r) => !r.valid);
  assert.deepEqual(
    invalid.map((r) => `#${r.seq} ${r.path}: ${r.error ?? ''}`),
    [],
    'every request the fake OpenAI server received must be valid for the real API',
  );
}

export async function openRig(options: RigOptions): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-loop-'));
  const fake = await startFakeOpenAi({ ...options.fake, responses: options.responses ?? [] });
  const files = (name: string) => ({ logFile: join(dir, `${name}.log`), stateFile: join(dir, `${name}.state.json`) });
  const servers = [...options.servers.map((s) => hookServerMcpConfig(s.name, hookServerConfig({ ...files(s.name), ...s.config }))), ...(options.extraServers ?? [])];
  let runtime: AgentRuntime;
  try {
    runtime = await createAgentRuntime({
      workspaceFolder: dir,
      servers,
      settings: rigSettings(options.settings, options.hooks),
      model: { baseUrl: fake.url, apiKey: 'test-key', maxRetries: 2, retryBaseDelayMs: 10, ...options.model },
      sessionId: options.sessionId ?? 'loop-test',
      transcript: options.transcript,
      hub: options.hub ?? { restart: { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 5 }, closeGraceMs: 500 },
      ...(options.mcp !== undefined ? { mcp: options.mcp } : {}),
    });
  } catch (error) {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const events: AgentEvent[] = [...runtime.startupEvents];
  runtime.session.subscribe((event) => events.push(event));
  const chatBodies = (): ChatBody[] => fake.chatRequests().map((r) => r.body as ChatBody);
  let closed = false;
  return {
    runtime,
    fake,
    events,
    dir,
    of: <T extends AgentEvent['type']>(type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
    log: (server) => readHookServerLog(files(server).logFile),
    calls: (server, tool) => readHookServerLog(files(server).logFile).filter((e) => e.type === 'call' && e.tool === tool),
    messages: (n) => (chatBodies()[n]?.messages ?? []).filter((m) => m.role !== 'system'),
    chatBodies,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        assertAllRequestsValid(fake.requests);
      } finally {
        await runtime.dispose();
        await fake.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Waits until `probe` holds (the shared waitFor; `idleTimeoutMs` is its hang guard on an idle machine). */
export async function waitUntil(probe: () => boolean, what: string, idleTimeoutMs = HANG_GUARD_MS): Promise<void> {
  await waitFor(probe, what, { idleBoundMs: idleTimeoutMs, everyMs: 20 });
}
