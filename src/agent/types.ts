/**
 * The agent core's vocabulary: chat messages, tools, settings and the one event union that every
 * consumer (chat view, hooks view, status bar, transcript file, CLI --json) reads. Everything here is
 * plain data so it can cross process boundaries (webview, JSON lines) unchanged.
 */

/** One tool call as the model emitted it (`arguments` is the raw JSON text). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A Chat Completions message in our own shape; the model adapter maps it to the wire format. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export type HookName = '_Stop' | '_PostCompact';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool of a connected MCP server. Hooks (bare name starting with `_`) are listed too, flagged. */
export interface ToolInfo {
  server: string;
  bareName: string;
  /** `<server>__<bare>` */
  qualifiedName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  isHook: boolean;
}

/** A tool result flattened to text (non-text blocks described as `[image: mime, N bytes]`). */
export interface ToolCallResult {
  isError: boolean;
  text: string;
}

/** The allowlist of servers whose `_` tools may act as hooks (SPEC 2). */
export type HookAllowlist = { kind: 'all' } | { kind: 'names'; names: string[] };

export type BudgetScope = 'session' | 'prompt';

export interface HookSettings {
  allowlist: HookAllowlist;
  /** Per hook call, >= 1. */
  timeoutMs: number;
  /** 0 disables `_Stop`. */
  stopMaxRejections: number;
  stopBudgetScope: BudgetScope;
  repeatedEndTurnStops: boolean;
}

export interface AgentSettings {
  model: string;
  systemPrompt: string;
  /** Model rounds per prompt (objection rounds count); 0 = no cap. */
  maxRounds: number;
  /** The model's context window in tokens. */
  contextWindowTokens: number;
  /** Compact when the estimated prompt passes this share of the window (0 < ratio < 1). */
  compactThreshold: number;
  toolTimeoutMs: number;
  /** Tool results longer than this are cut, with a marker saying how much was dropped. */
  toolResultMaxChars: number;
  /** Bound on tool calls of one round running at once. */
  maxParallelTools: number;
  hooks: HookSettings;
}

/** Why a prompt ended; the UI never guesses. */
export type OutcomeReason = 'end_turn' | 'max_rounds' | 'cancelled' | 'error' | 'length' | 'content_filter';

export interface HookObjection {
  server: string;
  text: string;
}

/** Why a turn ended with an objection standing: the budget was spent, the model declined, or the round cap came first. */
export type UnresolvedCause = 'budget_exhausted' | 'declined' | 'max_rounds';

export interface Outcome {
  reason: OutcomeReason;
  /** Human-readable detail: for `error`, what went wrong and what to do. */
  message?: string;
  /** Set when the turn ended while a `_Stop` objection stood (SPEC 3). */
  unresolved?: { cause: UnresolvedCause; objections: HookObjection[] };
  rounds: number;
}

export type HookCallResult = 'objection' | 'no_objection' | 'error' | 'timeout' | 'cancelled';

/**
 * Everything that happens, as one typed stream. History-changing events (`message`, `compaction`,
 * `budget`, `usage`) are enough to rebuild a session from its transcript.
 */
export type AgentEvent =
  | { type: 'session_started'; sessionId: string; resumed: boolean }
  | { type: 'prompt_started'; text: string }
  | { type: 'round_started'; round: number }
  | { type: 'text_delta'; delta: string }
  /** One message appended to the history (user prompt, model reply, tool result, synthetic hook pair). */
  | { type: 'message'; message: ChatMessage }
  | { type: 'usage'; usage: Usage }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'tool_started'; callId: string; name: string; arguments: string }
  | { type: 'tool_finished'; callId: string; name: string; isError: boolean; text: string; durationMs: number }
  | { type: 'hook_called'; server: string; hook: HookName }
  | { type: 'hook_finished'; server: string; hook: HookName; result: HookCallResult; text: string; durationMs: number }
  | { type: 'hook_objected'; server: string; text: string; rejectionsUsed: number; maxRejections: number }
  /** What the model did with the objections of the previous gate round. */
  | { type: 'objection_resolved'; servers: string[]; resolution: 'complied' | 'declined' | 'overridden' }
  | { type: 'hook_timed_out'; server: string; hook: HookName; consecutive: number }
  | { type: 'server_killed'; server: string; reason: string }
  | { type: 'server_restarted'; server: string; attempt: number }
  | { type: 'server_error'; server: string; message: string }
  | { type: 'tools_changed'; server: string }
  | { type: 'hooks_not_enabled'; server: string; hooks: string[] }
  | { type: 'budget'; used: number; max: number; scope: BudgetScope; repeatedEndTurnStops: boolean }
  | {
      type: 'compaction';
      trigger: 'auto' | 'manual';
      summary: string | null;
      injected: HookObjection[];
      fallback: boolean;
      droppedMessages: number;
      /** The whole fresh history after the reset. */
      history: ChatMessage[];
    }
  | { type: 'outcome'; outcome: Outcome };

export type AgentEventType = AgentEvent['type'];

/** A transcript line: an event and when it happened (ms since epoch). */
export interface TranscriptRecord {
  at: number;
  event: AgentEvent;
}
