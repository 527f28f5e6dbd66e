/**
 * The one event union every consumer reads (chat view, Hooks view, status bar, transcript file, CLI
 * --json), the typed outcome that ends a prompt, the transcript record and the port that stores records
 * (TranscriptStore). Plain data.
 */
import type { HookEvidence, HookFailure } from './hookEvidence';
import type { ChatMessage, Usage } from './messages';
import type { AdaptationNote, RetryCause, ToolHostEvent } from './ports';
import type { BudgetScope } from './settings';
import type { ToolsLimited } from './toolLimit';
import type { AppliedInstruction } from './instructions';
import type { Mode } from './modes';

/** The lifecycle hooks, in the order a session meets them (docs/hooks.md). */
export const HOOK_NAMES = ['_SessionStart', '_UserPromptSubmit', '_PreToolUse', '_PostToolUse', '_Stop', '_SubagentStop', '_PostCompact', '_SessionEnd'] as const;

export type HookName = (typeof HOOK_NAMES)[number];

/** `_SessionStart`'s `source`: a fresh session, or the first prompt after one was reopened from its transcript. */
export type SessionStartSource = 'new' | 'resume';

/** `_SessionEnd`'s `reason`: the host finished normally, was interrupted (a signal), a new chat replaced it, or the window closed. */
export type SessionEndReason = 'exit' | 'interrupted' | 'new_chat' | 'closed';

/** Why a prompt ended; the UI never guesses. */
export type OutcomeReason = 'end_turn' | 'max_rounds' | 'cancelled' | 'error' | 'length' | 'content_filter';

/** What one server's hook said, when it said something that takes effect (context to inject, a denial, an objection). */
export interface HookReply {
  server: string;
  text: string;
  /** Failing tests (or other findings) the hook attached as structured content, for hosts to list. */
  failures?: HookFailure[];
}

/** A `_Stop` hook's reply: the agent may not finish yet. */
export type HookObjection = HookReply;

/** Why a turn ended with an objection standing: the budget was spent, the model declined, or the round cap came first. */
export type UnresolvedCause = 'budget_exhausted' | 'declined' | 'max_rounds';

export interface Outcome {
  reason: OutcomeReason;
  /** Human-readable detail: for `error`, what went wrong and what to do. */
  message?: string;
  /** Set when the turn ended while a `_Stop` objection stood (docs/hooks.md#the-_stop-gate). */
  unresolved?: { cause: UnresolvedCause; objections: HookObjection[] };
  rounds: number;
}

/**
 * How one hook call ended. `objection` is a completed reply with non-empty text (for `_Stop` an
 * objection, for the other hooks the text that takes effect), `no_objection` an empty one.
 */
export type HookCallResult = 'objection' | 'no_objection' | 'error' | 'timeout' | 'cancelled';

/**
 * Everything that happens, as one typed stream. History-changing events (`message`, `compaction`,
 * `budget`, `usage`) are enough to rebuild a session from its transcript.
 */
export type AgentEvent =
  /** What the tool host does on its own (servers restarting or failing, approval and elicitation questions), forwarded as is. */
  | ToolHostEvent
  | { type: 'session_started'; sessionId: string; resumed: boolean }
  /** `attachments`: labels of the files the user attached (their text went to the model with the prompt); `mode`: the prompt's mode when the host chose one (absent: Agent); `agent`: the custom agent's name when the chat works as one. */
  | { type: 'prompt_started'; text: string; attachments?: string[]; mode?: Mode; agent?: string }
  | { type: 'round_started'; round: number }
  | { type: 'text_delta'; delta: string }
  /** One message appended to the history (user prompt, model reply, tool result, synthetic hook pair). */
  | { type: 'message'; message: ChatMessage }
  | { type: 'usage'; usage: Usage }
  /** The model call is sent again after `delayMs`; `reason` has the provider's own words, `cause` names the kind. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string; cause?: RetryCause }
  /** The request's shape changed for this endpoint and model (remembered); said once per change, or once per chat for a remembered one. */
  | ({ type: 'model_adapted' } & AdaptationNote)
  | { type: 'tool_started'; callId: string; name: string; arguments: string }
  | { type: 'tool_finished'; callId: string; name: string; isError: boolean; text: string; durationMs: number }
  | { type: 'hook_called'; server: string; hook: HookName }
  | { type: 'hook_finished'; server: string; hook: HookName; result: HookCallResult; text: string; durationMs: number; evidence?: HookEvidence }
  /** A `_Stop` objection that continues the turn: everything its card shows (the hook, the budget and its scope) is in the event. */
  | { type: 'hook_objected'; hook: HookName; server: string; text: string; rejectionsUsed: number; maxRejections: number; scope: BudgetScope; failures?: HookFailure[] }
  /** What the model did with the objections of the previous gate round. */
  | { type: 'objection_resolved'; servers: string[]; resolution: 'complied' | 'declined' | 'overridden' }
  | { type: 'hook_timed_out'; server: string; hook: HookName; consecutive: number }
  | { type: 'server_killed'; server: string; reason: string }
  | { type: 'hooks_not_enabled'; server: string; hooks: string[] }
  | { type: 'budget'; used: number; max: number; scope: BudgetScope; repeatedEndTurnStops: boolean }
  | {
      type: 'compaction';
      trigger: 'auto' | 'manual';
      summary: string | null;
      injected: HookReply[];
      fallback: boolean;
      droppedMessages: number;
      /** The whole fresh history after the reset. */
      history: ChatMessage[];
    }
  | { type: 'outcome'; outcome: Outcome }
  /** The round waits (at most `waitMs`) for servers that are not ready; the rest join later via `tools_changed`. */
  | { type: 'servers_waiting'; servers: string[]; waitMs: number }
  /** The wait `servers_waiting` announced is over: of the `servers` it waited for, `late` are those the round went on without (they join via `tools_changed`). */
  | { type: 'servers_waited'; servers: string[]; late: string[]; waitedMs: number }
  /** A running tool reported progress (or a task's status changed); it also resets the tool's idle timeout. */
  | { type: 'tool_progress'; callId: string; name: string; progress?: number; total?: number; message?: string }
  /** The model's thinking, streamed (reasoning fields or `<think>` text): shown apart, never the answer. */
  | { type: 'reasoning_delta'; delta: string }
  /**
   * The last `text` streamed as `text_delta` was the model's thinking (reasoning that ended in a lone
   * `</think>`): a view takes it back from the answer and shows it as thinking; the `reasoning_delta`
   * events after it do not repeat it. The reply's `message` already has it apart.
   */
  | { type: 'text_reclassified'; text: string }
  /** A `_PreToolUse` hook denied a call: it did not run, nobody was asked, its answer is the denier's envelope. */
  | { type: 'tool_denied'; callId: string; name: string; server: string; text: string; denialsUsed: number; denialBudget: number }
  /** Hook text put into the history as a synthetic pair (`_SessionStart`, `_UserPromptSubmit`, `_PostToolUse`). */
  | { type: 'hook_injected'; hook: HookName; server: string; text: string }
  /** The servers list more tools than one request may carry: these servers' tools were cut to fit (toolLimit.ts); said once per change in a session. */
  | ({ type: 'tools_limited' } & ToolsLimited)
  /** Names of the prompt's tool selection (`--tools`, a tool set: toolSelection.ts) that no server lists; the others still apply. */
  | { type: 'tools_unmatched'; names: string[] }
  /** A tool search (toolSearch.ts) loaded these tools (real names) for the rest of the conversation. */
  | { type: 'tools_loaded'; query: string; names: string[] }
  /** What instruction files apply from this round on, and why; emitted when that changes (with the reading notes). */
  | { type: 'instructions'; applied: AppliedInstruction[]; notes: string[] }
  /** The skills the model is offered (skills.ts), by name and file, with the reading notes; emitted when that changes. */
  | { type: 'skills'; skills: { name: string; path: string }[]; notes: string[] }
  /**
   * An event of a subagent (subagents.ts) the `sprout__delegate` call `callId` runs, as it happened in
   * the child session: wrapped, so it never changes the parent's history or budget (streamed text stays
   * with the child). `model`: the model the child runs on (its agent's own, or the parent's).
   */
  | { type: 'subagent_event'; subagent: { id: string; name: string; callId: string; model?: string }; event: AgentEvent }
  /**
   * An attached resource's watch (resourceWatch.ts): `subscribed` (its changes reach the next round),
   * `unsupported` (its server offers no subscriptions), `failed` (with `message`), said once each;
   * `updated`: it changed and was read again into the history.
   */
  | { type: 'resource_watch'; server: string; uri: string; state: 'subscribed' | 'unsupported' | 'failed' | 'updated'; message?: string }
  /** The chat works as this custom agent (agentProfiles.ts), with what of its file is not used; emitted when that changes. */
  | { type: 'agent'; name: string; source: string; notes: string[] }
  /**
   * The user rewound the conversation to before user message `prompt` (1-based, counted in the active
   * branch): written by a host, never by a running prompt. Loading folds it (rewind.ts `activeRecords`),
   * so no reader sees it or what it cut; `text` is that message's, for whoever reads the raw file.
   */
  | { type: 'rewound'; prompt: number; text: string };

/**
 * What a host that cannot take printed text back (a terminal) says on `text_reclassified`, on a line
 * of its own after that text.
 */
export const RECLASSIFIED_TEXT_NOTE = "[the text above was the model's thinking, not its answer: it ended with </think>]";

/** A transcript line: an event and when it happened (ms since epoch). */
export interface TranscriptRecord {
  at: number;
  event: AgentEvent;
}

/** Append-only transcript: one record per event, written as events happen. */
export interface TranscriptStore {
  append(record: TranscriptRecord): void;
  load(): Promise<TranscriptRecord[]>;
  /** Resolves once everything appended so far is durable. */
  flush(): Promise<void>;
}
