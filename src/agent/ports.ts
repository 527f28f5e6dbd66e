/**
 * The ports through which the pure agent core talks to the world. Adapters implement them: the model
 * client over the `openai` package (src/model), the tool host over the MCP SDK (src/mcp), a clock and
 * a logger over Node (src/platform, src/runtime). The transcript store's port is beside the record it
 * keeps, in events.ts (this file names no event but the tool host's own).
 */
import type { ResourceHost } from './resources';
import type { ReachableModel } from './agentProfiles';
import type { ChatMessage, ElicitationAction, ElicitationRequest, SamplingRequest, ToolCall, ToolCallResult, ToolInfo, Usage } from './messages';

export interface ToolSpec {
  /** The real qualified name, `<server>__<tool>`, any characters (the model layer sends an alias where the endpoint needs one). */
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  messages: readonly ChatMessage[];
  /** Empty for calls without tools (the compaction summary). */
  tools: readonly ToolSpec[];
  /** The reply's token limit (`max_tokens`), for a call that has one (a server's sampling request). */
  maxTokens?: number;
}

export interface ModelReply {
  content: string | null;
  /** Ids are unique within the request's history (the adapter renames a reused or missing id). */
  toolCalls: ToolCall[];
  /** The model's thinking text, when the endpoint sent any; never part of `content`. */
  reasoning?: string;
  /** `stop`, `tool_calls`, `length`, `content_filter`, or whatever else the provider said. */
  finishReason: string;
  usage: Usage | null;
}

/** Why a model call is sent again: each retry names one (billing and auth errors never retry). */
export type RetryCause = 'rate_limit' | 'server' | 'proxy_page' | 'transport' | 'stream_error' | 'malformed_tool_call';

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  /** One line with the provider's own words. */
  reason: string;
  cause?: RetryCause;
}

/** The adapter changed the request's shape for this endpoint and model (and remembers it). */
export interface AdaptationNote {
  endpoint: string;
  model: string;
  /** What changed, in words. */
  change: string;
  /**
   * Learned from a rejection (the request was sent again at once in the new shape), from a reply,
   * remembered from an earlier session, or what the host can do (`said` says what it lacks).
   */
  learnedFrom: 'rejection' | 'reply' | 'memory' | 'host';
  /** The provider's own words, for a rejection; the host's lack, for `host`. */
  said?: string;
}

/**
 * One conversation as a model adapter sees it (a session is one). Whatever an adapter derives from a
 * conversation's history (a wire cache, the check that a reply's tool-call ids are new in it) is kept
 * under this key, so two conversations streaming through one client at once never see each other's.
 */
export interface ModelConversation {
  readonly id: string;
}

export interface ModelCallOptions {
  signal: AbortSignal;
  /** The conversation the call belongs to; without one the adapter keeps nothing between calls. */
  conversation?: ModelConversation;
  onTextDelta?: (delta: string) => void;
  /** Thinking text as it streams; not the answer, and a retry may follow it. */
  onReasoningDelta?: (delta: string) => void;
  /**
   * The end of the text already given to `onTextDelta` was thinking after all (a lone `</think>`):
   * `text` leaves the answer and joins the thinking; `onReasoningDelta` does not repeat it.
   */
  onTextReclassified?: (text: string) => void;
  onRetry?: (info: RetryInfo) => void;
  /** Said once per change (and once per conversation for what an earlier session taught). */
  onAdapted?: (note: AdaptationNote) => void;
}

export type ModelErrorKind = 'auth' | 'billing' | 'config' | 'bad_request' | 'rate_limit' | 'server' | 'transport' | 'cancelled';

/** What a model adapter throws; `message` says what went wrong and what to do about it. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelClient {
  /** One streamed Chat Completions call, retried on 429/5xx/transport errors. Throws ModelError. */
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply>;
}

/**
 * The models a host can reach besides the chat's own, for a subagent whose agent file names its model
 * (subagents.ts `subagentModel`): the host lists them and gives a client for one of them; the core only
 * matches the name (agentProfiles.ts `agentModel`).
 */
export interface ModelCatalog {
  /** The models the host can reach now (a listing that fails is none, never an error). */
  list(signal: AbortSignal): Promise<ReachableModel[]>;
  /** The client that serves `model` (an id `list` gave), and its context window where the host knows it. */
  client(model: string): { model: ModelClient; contextWindowTokens?: number };
}

/** A `notifications/progress` of a running call (`progress` grows, `total` optional), or a task's status (a message only). */
export interface ToolProgress {
  progress?: number;
  total?: number;
  message?: string;
}

export interface ToolCallOptions {
  /** Aborting must send `notifications/cancelled` to the server and reject the call. */
  signal: AbortSignal;
  /** Sent as the request's `_meta` (hook context goes here, never in arguments). */
  meta?: Record<string, unknown>;
  /** The model's id for this call (as in `tool_started`), so a host can tie what it records to the call. */
  callId?: string;
  /** The server reported progress (a task's status message counts too). */
  onProgress?: (progress: ToolProgress) => void;
}

export interface ToolListOptions {
  /**
   * Wait at most this long for servers that are not ready yet (starting, or slow to list); they are
   * left out of this answer and announced with `tools_changed` once their list is in. Default: wait
   * for every server (each bounded by its own connect timeout).
   */
  waitMs?: number;
  /** Called once, soon after the listing began, with the servers it is still waiting for. */
  onWaiting?: (servers: string[]) => void;
  /** After `onWaiting` (only then): the wait for those `servers` is over; `late` are the ones it went on without. */
  onWaited?: (servers: string[], late: string[], waitedMs: number) => void;
}

/**
 * What a host's approval question got: allowed once, for the chat, for the workspace, by a command rule
 * the user adds to their settings (`rule`: a shell command's first words, see commandRules.ts), or denied.
 */
export type ApprovalAnswer = 'once' | 'chat' | 'workspace' | 'rule' | 'deny';
/** The allowing answers a question may offer (a write to a protected file offers only `once`). */
export type ApprovalScope = Exclude<ApprovalAnswer, 'deny'>;

/**
 * Things the tool host does on its own, forwarded by the core into the event stream: what servers do
 * (restart, fail, change their tools), and the questions a host asks before a call (`authorize`).
 */
export type ToolHostEvent =
  | { type: 'server_restarted'; server: string; attempt: number }
  /** A server's connection is up, speaking this protocol era (`modern`: 2026-07-28 and later) at this revision. */
  | { type: 'server_connected'; server: string; era: 'modern' | 'legacy'; protocolVersion: string }
  | { type: 'server_error'; server: string; message: string }
  | { type: 'tools_changed'; server: string }
  | { type: 'elicitation_requested'; request: ElicitationRequest }
  | { type: 'elicitation_answered'; id: string; server: string; action: ElicitationAction; by: 'user' | 'policy' | 'abort' }
  /** A server asked the user to open `url` (URL-mode elicitation, MCP 2025-11-25); `action` is the answer it got. */
  | { type: 'url_elicitation'; id: string; server: string; message: string; url: string; action: ElicitationAction; by: 'user' | 'policy' | 'abort' }
  /** A server asks for a model reply (MCP sampling); answered or refused by `sampling_answered`. */
  | { type: 'sampling_requested'; request: SamplingRequest }
  /**
   * `answered`: the chat's `model` replied (`usage` as the endpoint counted it); `refused`: the user or
   * the policy said no; `failed`: the model call failed (`message` says why). The server got an MCP
   * error for both of the latter.
   */
  | { type: 'sampling_answered'; id: string; server: string; outcome: 'answered' | 'refused' | 'failed'; by: 'user' | 'policy' | 'abort'; model?: string; usage?: Usage; message?: string }
  /** `rule`: the command rule "Always allow" would add (`npm test`), when `scopes` offers `rule`. */
  | { type: 'approval_requested'; approvalId: string; name: string; scopes: ApprovalScope[]; warning?: string; rule?: string }
  | { type: 'approval_resolved'; approvalId: string; name: string; answer: ApprovalAnswer };

export interface ToolHost {
  /** Server names in configuration order. */
  serverNames(): string[];
  /**
   * Every tool of every server, hooks included, in configuration order (servers, then each server's
   * order). Connects lazily; a server that cannot start is reported as a `server_error` event and
   * contributes no tools rather than failing the whole list.
   */
  listTools(signal?: AbortSignal, options?: ToolListOptions): Promise<ToolInfo[]>;
  /**
   * What `listTools` would answer when that needs no I/O and no restart (every server up with a current
   * listing), else undefined. Optional: the loop asks it first every round and lists only without it.
   */
  cachedTools?(): ToolInfo[] | undefined;
  /**
   * Asked before each model-requested tool call, outside the tool timeout (a user deciding on an
   * approval takes as long as they take): a result stands in for the call (a denial), undefined lets
   * the call run with these same `args`. Optional; rejects only on abort.
   */
  authorize?(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined>;
  /** Calls one tool. Rejects on transport errors and on abort; an `isError` result resolves. */
  callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult>;
  /** Kills the server (its whole process group for stdio); the next use restarts it with backoff. */
  killServer(server: string, reason: string): Promise<void>;
  subscribe(listener: (event: ToolHostEvent) => void): () => void;
  /** The servers' MCP resources (resources.ts): absent for a host without any. A decorator forwards it. */
  readonly resources?: ResourceHost;
}

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** One shell command to run (another agent's hook command): its whole process tree dies on abort or its own timeout. */
export interface CommandRequest {
  command: string;
  cwd: string;
  /** The child's whole environment (Sprout's minimal one: never the model key). */
  env: Record<string, string>;
  stdin: string;
  /** The command's own timeout, when it has one; undefined means only the caller's abort ends it. */
  timeoutMs?: number;
  signal: AbortSignal;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  /** -1 when it was killed (abort, timeout) or could not start. */
  exitCode: number;
  timedOut?: boolean;
}

/** Runs commands: implemented over Node in src/platform/commandRunner.ts. */
export type CommandRunner = (request: CommandRequest) => Promise<CommandResult>;
