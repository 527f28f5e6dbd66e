/**
 * One chat session: the public face of the core that hosts (extension, CLI) drive. It owns the state
 * rebuilt from its own events (the same reducer replays the transcript on open), writes every event
 * to the transcript as it happens (streamed text in pieces, dropped once the finished message holds
 * it), forwards tool-host events, and runs one prompt at a time. `run` resolves with a typed outcome
 * and rejects only on misuse. Opening after a crash mid-answer keeps what had streamed.
 */
import { endResourceWatch, newResourceWatch } from './resourceWatch';
import { compact } from './compact';
import { fixedChars } from './compactionRules';
import { runWithTimeout } from './cancellation';
import { type CoreContext, toolListOptions } from './context';
import { HookCaller } from './hookCaller';
import { runSessionEndHook } from './lifecycleHooks';
import { HistoryLedger } from './historyLedger';
import { reserveHookCallIds } from './hookEnvelope';
import { CANCELLED_TOOL_RESULT, repairHistory } from './historyValidity';
import { PromptRunner } from './promptRunner';
import { roundRequest } from './roundRequest';
import type { Clock, Logger, ModelCatalog, ModelClient, ToolHost } from './ports';
import { type ReplayState, applyEventInPlace, interruptedReply, replayEvents } from './replayState';
import { emitBudget } from './stopGate';
import type { AgentEvent, Outcome, SessionEndReason, TranscriptStore } from './events';
import type { AgentSettings } from './settings';
import type { ChatMessage, Usage } from './messages';
import { errorMessage } from './errorMessage';
import type { PromptOptions } from './promptAttachments';
import { newInstructionState } from './instructionState';
import { type SubagentRef, type SubagentSession, SubagentSlots, subagentModel, subagentSettings, subagentToolHost } from './subagents';
import type { AgentProfile } from './agentProfiles';
import type { Mode } from './modes';

export interface AgentSessionOptions {
  sessionId: string;
  settings: AgentSettings;
  model: ModelClient;
  /** The other models the host can reach, for a subagent whose agent names its own (subagents.ts); absent: children run on `model`. */
  models?: ModelCatalog;
  tools: ToolHost;
  clock: Clock;
  logger?: Logger;
  /** Every event is appended as it happens; streamed text in pieces of `SAVED_TEXT_PIECE` characters. */
  transcript?: TranscriptStore;
  /** Set when this session is a subagent (subagents.ts): a parent session builds it, never a host. */
  subagent?: SubagentRef;
}

export interface SessionState {
  sessionId: string;
  /** user/assistant/tool only; the system prompt is added per request. */
  history: ChatMessage[];
  /** The _Stop budget used (session scope carries across prompts). */
  rejectionsUsed: number;
  lastUsage: Usage | null;
  running: boolean;
}

/**
 * The calls of an assistant block still open at the tail that have no answer yet, in call order
 * (each id once): exactly what `repairHistory` would append there, found without copying the history.
 */
function unansweredTailCalls(history: readonly ChatMessage[]): string[] {
  const answered = new Set<string>();
  let at = history.length - 1;
  for (let m = history[at]; m?.role === 'tool'; m = history[--at]) answered.add(m.toolCallId);
  const block = history[at];
  if (block?.role !== 'assistant') return [];
  const ids: string[] = [];
  for (const call of block.toolCalls ?? []) if (!answered.has(call.id) && !ids.includes(call.id)) ids.push(call.id);
  return ids;
}

/**
 * Streamed text is saved to the transcript in pieces of at least this many characters (one write per
 * piece, not per token): a crash mid-answer loses at most this much of what the user had seen.
 */
export const SAVED_TEXT_PIECE = 512;

/** For callers that pass no signal: never aborts (like VS Code's CancellationToken.None). Every listener the core or an adapter adds is removed again, so sharing it leaks nothing. */
const NOT_CANCELLABLE = new AbortController().signal;

export class AgentSession {
  private replay: ReplayState;
  private settings: AgentSettings;
  private running = false;
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private readonly ctx: CoreContext;
  private readonly stopForwarding: () => void;
  private readonly ledger = new HistoryLedger();
  /** Streamed text not yet in the transcript. */
  private unsavedText = '';
  /** The subagents' model notes said already (an agent's model that cannot be reached is said once). */
  private readonly modelNotesSaid = new Set<string>();

  private constructor(
    private readonly options: AgentSessionOptions,
    replay: ReplayState,
    resumed: boolean,
  ) {
    this.replay = replay;
    this.settings = options.settings;
    const emit = (event: AgentEvent): void => this.emit(event);
    this.ctx = {
      sessionId: options.sessionId,
      settings: () => this.settings,
      model: options.model,
      conversation: { id: options.subagent === undefined ? options.sessionId : `${options.sessionId}/${options.subagent.id}` },
      tools: options.tools,
      clock: options.clock,
      logger: options.logger,
      hookCaller: new HookCaller({ tools: options.tools, clock: options.clock, emit, timeoutMs: () => this.settings.hooks.timeoutMs, logger: options.logger }),
      emit,
      state: () => this.replay,
      hintedServers: new Set(),
      saidToolLimits: new Set(),
      historyLedger: this.ledger,
      lifecycle: { sessionStart: resumed ? 'resume' : 'new', promptRan: false, ended: false },
      toolWait: { listedOnce: false },
      instructions: newInstructionState(),
      skills: { set: undefined, announced: '' },
      ...(options.subagent === undefined ? { subagents: { slots: new SubagentSlots(), start: (ref, profile, signal) => this.startSubagent(ref, profile, signal) } } : { subagent: options.subagent }),
      agentSaid: { key: '' },
      resourceWatch: newResourceWatch(),
    };
    this.stopForwarding = options.tools.subscribe((event) => this.emit(event));
  }

  /** Loads the transcript (if any) and replays it to rebuild history, compaction state and budget. */
  static async open(options: AgentSessionOptions): Promise<AgentSession> {
    const records = options.transcript === undefined ? [] : await options.transcript.load();
    const events = records.map((r) => r.event);
    const replayed = replayEvents(events);
    // A crash or kill can leave calls unanswered; the repair is deterministic, so replaying again gives the same history.
    const repaired = repairHistory(replayed.history);
    if (repaired.changes > 0) options.logger?.warn('repaired the resumed chat history', { sessionId: options.sessionId, changes: repaired.changes });
    reserveHookCallIds(repaired.history);
    const usageMessageCount = Math.min(replayed.usageMessageCount, repaired.history.length);
    const session = new AgentSession(options, { ...replayed, history: repaired.history, usageMessageCount }, records.length > 0);
    // Measured and checked once here, so the first round only looks at what it adds.
    session.ledger.validate(repaired.history);
    session.emit({ type: 'session_started', sessionId: options.sessionId, resumed: records.length > 0 });
    // The process died while an answer streamed: keep what the user saw, as a cancel would have.
    const partial = interruptedReply(events);
    if (partial.trim() !== '') {
      options.logger?.warn('kept the partial answer of an interrupted prompt', { sessionId: options.sessionId, chars: partial.length });
      session.emit({ type: 'message', message: { role: 'assistant', content: partial } });
    }
    return session;
  }

  /** Runs one prompt; what the host adds to it (attached files, and the per-chat choices to come) is in `options`. */
  async run(prompt: string, signal?: AbortSignal, options: PromptOptions = {}): Promise<Outcome> {
    if (this.running) throw new Error('A prompt is already running in this session; wait for it or cancel it first.');
    this.running = true;
    let outcome: Outcome;
    try {
      outcome = await new PromptRunner(this.ctx, prompt, signal ?? NOT_CANCELLABLE, options).run();
    } catch (error) {
      this.options.logger?.error('prompt failed unexpectedly', { message: errorMessage(error) });
      outcome = { reason: 'error', message: `Internal error: ${errorMessage(error)}`, rounds: 0 };
    } finally {
      this.running = false;
    }
    this.answerDanglingCalls();
    this.emit({ type: 'outcome', outcome });
    await this.flush();
    return outcome;
  }

  async compactNow(signal?: AbortSignal): Promise<void> {
    if (this.running) throw new Error('Cannot compact while a prompt is running; cancel it or wait for it to finish.');
    this.running = true;
    try {
      const abort = signal ?? NOT_CANCELLABLE;
      const tools = await this.options.tools.listTools(abort, toolListOptions(this.ctx));
      const { system, specs } = roundRequest(this.ctx, tools);
      await compact(this.ctx, { trigger: 'manual', currentPrompt: null, tools, specs, fixedChars: fixedChars(system, specs) }, abort);
    } finally {
      this.running = false;
    }
    await this.flush();
  }

  /**
   * `_SessionEnd` (once per session): the host is done with it. Made only when a prompt ran in this
   * process, so its servers saw the session start; bounded by the hook timeout, and so is the tool
   * listing it may need first. What the hooks answer reaches no model.
   */
  async end(reason: SessionEndReason, signal?: AbortSignal): Promise<void> {
    const lifecycle = this.ctx.lifecycle;
    if (lifecycle.ended || !lifecycle.promptRan) return;
    lifecycle.ended = true;
    const abort = signal ?? NOT_CANCELLABLE;
    const timeoutMs = this.settings.hooks.timeoutMs;
    const cached = this.options.tools.cachedTools?.();
    const listed = cached === undefined ? await runWithTimeout(this.options.clock, timeoutMs, (s) => this.options.tools.listTools(s, { waitMs: timeoutMs }), abort) : undefined;
    const tools = cached ?? (listed?.kind === 'done' ? listed.value : []);
    await runSessionEndHook(this.ctx, tools, reason, abort);
    await this.flush();
  }

  resetBudget(): void {
    emitBudget(this.ctx, 0);
  }

  /** Applies from the next round of a running prompt. */
  updateSettings(settings: AgentSettings): void {
    this.settings = settings;
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A snapshot: the history is a copy, so it stays as it was when read. */
  get state(): Readonly<SessionState> {
    const { history, rejectionsUsed, lastUsage } = this.replay;
    return { sessionId: this.options.sessionId, history: [...history], rejectionsUsed, lastUsage, running: this.running };
  }

  /** Stops forwarding tool-host events; the session can still be read but should not run again. */
  dispose(): void {
    this.stopForwarding();
    endResourceWatch(this.ctx);
    this.listeners.clear();
  }

  /**
   * A child session for a delegation (subagents.ts): its own history and budget, the agent's words and
   * tool filter, its agent's model where the host's catalog has it (else this session's), this
   * session's tool host, clock, settings (as they are now) and the
   * instruction files and skills of this session's last prompt. It keeps no transcript: its events
   * reach this session's (wrapped), and its `_SessionStart`/`_SessionEnd` are never called.
   */
  private async startSubagent(ref: SubagentRef, profile: AgentProfile, signal: AbortSignal): Promise<SubagentSession> {
    const { options, ctx } = this;
    const model = await subagentModel(profile, this.settings.model, options.models, signal);
    const modelNote = model.note === undefined || this.modelNotesSaid.has(model.note) ? undefined : model.note;
    if (modelNote !== undefined) this.modelNotesSaid.add(modelNote);
    const child = await AgentSession.open({
      sessionId: options.sessionId,
      settings: subagentSettings(this.settings, profile, model),
      model: model.client ?? options.model,
      tools: subagentToolHost(options.tools, profile),
      clock: options.clock,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      subagent: ref,
    });
    const instructions = ctx.instructions?.set;
    const skills = ctx.skills?.set;
    return {
      run: (task: string, signal: AbortSignal, mode?: Mode) =>
        child.run(task, signal, { ...(mode === undefined ? {} : { mode }), ...(instructions === undefined ? {} : { instructions }), ...(skills === undefined ? {} : { skills }) }),
      finalText: () => child.finalText(),
      subscribe: (listener) => child.subscribe(listener),
      dispose: () => child.dispose(),
      model: model.model,
      ...(modelNote === undefined ? {} : { modelNote }),
    };
  }

  /** The last assistant text of the history: a subagent's answer. */
  finalText(): string {
    const history = this.replay.history;
    for (let at = history.length - 1; at >= 0; at -= 1) {
      const m = history[at];
      if (m?.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '') return m.content;
      if (m?.role === 'user') break;
    }
    return '';
  }

  /**
   * A safety net after unexpected failures: unanswered calls at the tail get a cancelled answer, so the
   * next prompt sends a valid history. (Comparing with a repaired copy never matched: the repair copies
   * the assistant message, so calls stayed open.)
   */
  private answerDanglingCalls(): void {
    for (const toolCallId of unansweredTailCalls(this.replay.history)) {
      this.emit({ type: 'message', message: { role: 'tool', toolCallId, content: CANCELLED_TOOL_RESULT } });
    }
  }

  private emit(event: AgentEvent): void {
    this.replay = applyEventInPlace(this.replay, event);
    if (this.options.transcript !== undefined) this.record(event);
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger?.error('event listener threw', { type: event.type, message: errorMessage(error) });
      }
    }
  }

  /**
   * Streamed text goes to the transcript in pieces (see SAVED_TEXT_PIECE). The rest is dropped when the
   * assistant message holding the whole text is written, or written before the outcome of a prompt
   * that ended without one (an error mid-answer), so a reopened chat shows what the user saw.
   */
  private record(event: AgentEvent): void {
    // Thinking is kept whole on the assistant message; its pieces are for the live view only.
    if (event.type === 'reasoning_delta') return;
    if (event.type === 'text_delta') {
      this.unsavedText += event.delta;
      if (this.unsavedText.length >= SAVED_TEXT_PIECE) this.saveText();
      return;
    }
    if (event.type === 'text_reclassified') {
      // Thinking after all: it leaves the pieces not saved yet; a saved piece is taken back by the record.
      if (this.unsavedText.endsWith(event.text)) {
        this.unsavedText = this.unsavedText.slice(0, this.unsavedText.length - event.text.length);
        return;
      }
      this.saveText();
    }
    if (event.type === 'message' && event.message.role === 'assistant') this.unsavedText = '';
    if (event.type === 'outcome') this.saveText();
    this.write(event);
  }

  private saveText(): void {
    if (this.unsavedText === '') return;
    this.write({ type: 'text_delta', delta: this.unsavedText });
    this.unsavedText = '';
  }

  private write(event: AgentEvent): void {
    try {
      this.options.transcript?.append({ at: this.options.clock.now(), event });
    } catch (error) {
      this.options.logger?.error('transcript append failed', { message: errorMessage(error) });
    }
  }

  private async flush(): Promise<void> {
    try {
      await this.options.transcript?.flush();
    } catch (error) {
      this.options.logger?.error('transcript flush failed', { message: errorMessage(error) });
    }
  }
}
