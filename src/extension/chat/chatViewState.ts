/**
 * The chat's display state, folded from the core's event stream (live, or replayed from a transcript).
 * Each change is also reported as one incremental host message, so the webview re-renders only the entry
 * that changed: streamed text becomes `delta` messages against the open entry (streamedText.ts) and finished
 * entries are never sent again. Hooks stay quiet unless they have something to say (hookFold.ts: a check that
 * passed goes into the turn's footer, an objection is a card that learns what became of it, a `_PreToolUse`
 * denial marks its tool card (`blocked`), and hook text put into the history is a card of its own).
 * Each turn (prompt) is numbered, and the tool calls of a turn are kept by turn, so the footer can offer
 * to undo the turn's file changes (the checkpoints themselves are the host's: `changeOf` reads them).
 * vscode-free so it is unit-tested under node.
 */
import { showSubagentEvent, type SubagentTag } from './subagentEntries';
import type { AgentEvent, Outcome } from '../../agent/events';
import type { ApprovalScope } from '../../agent/ports';
import type { ElicitationRequest } from '../../agent/messages';
import type { ChatEntry, ContextUsage, ElicitationStatus, HostMessage, ImageView, ToolProgressInfo, ToolStatus } from '../../shared/protocol';
import { StopChecksFold } from '../../agent/rewind';
import { HookFold } from './hookFold';
import { PlanFold } from './chatPlans';
import { SamplingCards } from './samplingEntries';
import { StreamedText } from './streamedText';

type EntryOf<K extends ChatEntry['kind']> = Extract<ChatEntry, { kind: K }>;

export interface ChatViewOptions {
  /** The file a finished tool call changed, if a checkpoint recorded one. */
  changeOf?: (callId: string) => { path: string; undone: boolean; paths?: string[] } | undefined;
  /** Whether the call runs (or ran) in a Sprout terminal that is still open (the card's Show terminal). */
  terminalOf?: (callId: string) => boolean;
  /** The model's context window in tokens, for the usage indicator. */
  contextWindow?: () => number;
}

export class ChatViewState {
  readonly entries: ChatEntry[] = [];
  /**
   * Whether the last prompt in the events has not ended yet (no outcome after its prompt_started): a
   * replayed transcript that ends so was interrupted. Whether a prompt runs now is the chat's (Chat.running).
   */
  promptOpen = false;
  usage: ContextUsage | null = null;
  /** Servers' sampling requests in this chat: their cards, and their tokens (the usage meter says them apart). */
  private readonly sampling = new SamplingCards();
  /** The answer and the thinking being streamed, closed when anything else comes. */
  private readonly streamed = new StreamedText({ add: (e) => this.add(e), replace: (e) => this.replace(e), post: (m) => this.post(m), id: () => this.id() });
  private nextId = 0;
  /** The current turn (-1 before the first prompt) and each turn's tool call ids. */
  private turn = -1;
  private readonly callsByTurn = new Map<number, string[]>();
  /** A Plan turn's answer becomes a plan card (chatPlans.ts). */
  private readonly plans = new PlanFold({ entries: this.entries, add: (e) => this.add(e), replace: (e) => this.replace(e), note: (level, text) => this.note(level, text), id: () => this.id() });
  /** The turn's `_Stop` answers, for the verdict drawn on its end (green, not green, no checks). */
  private readonly stops = new StopChecksFold();
  /** Hook cards, the turn's quiet checks and the notes of every other event (hookFold.ts). */
  private readonly hooks = new HookFold({
    entries: this.entries,
    add: (e) => this.add(e),
    replace: (e) => this.replace(e),
    note: (level, text, files) => this.note(level, text, files),
    id: () => this.id(),
    closeAssistant: () => this.streamed.closeAssistant(),
    closeThinking: () => this.streamed.closeThinking(),
    blockTool: (callId, server, text) => this.blockTool(callId, server, text),
  });

  constructor(
    private readonly post: (message: HostMessage) => void = () => {},
    private readonly options: ChatViewOptions = {},
  ) {}

  apply(event: AgentEvent): void {
    this.stops.see(event);
    switch (event.type) {
      case 'prompt_started':
        // In a replayed transcript, a prompt that never ended (the window closed) is followed by the next one.
        this.endInterruptedPrompt();
        this.streamed.closeAssistant();
        this.promptOpen = true;
        this.turn += 1;
        this.hooks.promptStarted();
        this.plans.promptStarted(event.text, event.mode);
        // The mode shows on the message (Agent, the default, does not), and the picker starts from it after a reload.
        this.add({ kind: 'user', id: this.id(), text: event.text, prompt: this.turn + 1, ...(event.attachments?.length ? { attachments: [...event.attachments] } : {}), ...(event.mode === undefined || event.mode === 'agent' ? {} : { mode: event.mode }) });
        return;
      case 'text_delta':
        return this.streamed.appendText(event.delta);
      case 'reasoning_delta':
        return this.streamed.appendThinking(event.delta);
      case 'text_reclassified':
        return this.streamed.reclassify(event.text);
      case 'message':
        if (event.message.role === 'assistant') this.finishAnswer(event.message.content, event.message.reasoning);
        // The prompt's images come with its message, right after prompt_started made its entry.
        else if (event.message.role === 'user' && event.message.images?.length) this.withImages(event.message.images);
        return;
      case 'tool_started':
        this.streamed.closeAssistant();
        this.callsOf(this.turn).push(event.callId);
        this.add({ kind: 'tool', id: toolId(event.callId), name: event.name, args: event.arguments, status: 'running' });
        return;
      case 'tool_finished':
        return this.finishTool(event.callId, event.isError ? 'error' : 'ok', event.text);
      case 'tool_progress':
        return this.toolProgress(event.callId, { progress: event.progress, total: event.total, message: event.message });
      case 'approval_requested':
        return this.requestApproval(event.name, event.approvalId, event.scopes, event.warning, event.rule);
      case 'approval_resolved':
        return this.resolveApproval(event.approvalId, event.answer !== 'deny');
      case 'compaction':
        this.streamed.closeAssistant();
        this.add({ kind: 'compaction', id: this.id(), trigger: event.trigger, summary: event.summary, injected: event.injected, fallback: event.fallback, droppedMessages: event.droppedMessages });
        return;
      case 'usage':
        return this.postUsage({ used: event.usage.promptTokens + event.usage.completionTokens, window: this.options.contextWindow?.() ?? 0, estimated: event.usage.estimated === true });
      case 'sampling_requested':
      case 'sampling_answered': {
        const card = this.sampling.fold(this.entries, event);
        if (card.isNew) this.add(card.entry);
        else this.replace(card.entry);
        if (card.tokens > 0) this.postUsage(this.usage ?? { used: 0, window: this.options.contextWindow?.() ?? 0, estimated: false });
        return;
      }
      case 'outcome':
        return this.finishOutcome(event.outcome);
      case 'subagent_event':
        // A subagent's call: its own card, tagged, under the delegate card (subagentEntries.ts).
        return showSubagentEvent(event, { apply: (e) => this.apply(e), note: (level, text) => this.note(level, text), tag: (callId, subagent) => this.tagTool(callId, subagent) });
      default:
        return this.hooks.apply(event);
    }
  }

  private finishAnswer(content: string | null, reasoning: string | undefined): void {
    this.streamed.finishAssistant(content, reasoning);
    this.plans.answered(content);
  }

  /**
   * After replaying a transcript that ends mid-prompt (the window closed or the extension host died
   * while it ran): nothing runs now, so what was streaming is finished as it stands, running tool
   * cards read cancelled, and a note says why. Does nothing when the last prompt ended.
   */
  endInterruptedPrompt(): void {
    if (!this.promptOpen) return;
    this.streamed.closeAssistant();
    this.cancelOpenTools();
    this.note('warning', 'This prompt was interrupted (the window closed or the extension host stopped); what had streamed is kept. Send a message to go on.');
    this.promptOpen = false;
  }

  private cancelOpenTools(): void {
    for (const entry of this.entries) {
      if (entry.kind === 'tool' && (entry.status === 'running' || entry.status === 'awaiting_approval')) this.replace({ ...entry, status: 'cancelled' });
    }
  }

  /** The tool calls of turn `turn` (to undo what they changed). */
  turnCallIds(turn: number): readonly string[] {
    return this.callsByTurn.get(turn) ?? [];
  }

  /** The host undid turn `turn`'s file changes: its footer and its cards say so. */
  markTurnUndone(turn: number): void {
    const calls = new Set(this.turnCallIds(turn).map(toolId));
    for (const entry of this.entries) {
      if (entry.kind === 'tool' && calls.has(entry.id) && entry.change && !entry.change.undone) this.replace({ ...entry, change: { ...entry.change, undone: true } });
      if (entry.kind === 'outcome' && entry.turn === turn && entry.files) this.replace({ ...entry, files: { ...entry.files, undone: true } });
    }
  }

  private callsOf(turn: number): string[] {
    let calls = this.callsByTurn.get(turn);
    if (!calls) this.callsByTurn.set(turn, (calls = []));
    return calls;
  }

  /** Whether the question `approvalId` shows on a tool card (so the card's buttons can answer it). */
  showsApproval(approvalId: string): boolean {
    return this.entries.some((e) => e.kind === 'tool' && e.approvalId === approvalId && e.status === 'awaiting_approval');
  }

  /** The newest running card of `name` waits for the user (no card: the question is asked elsewhere). */
  private requestApproval(name: string, approvalId: string, scopes: readonly ApprovalScope[], warning: string | undefined, rule: string | undefined): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry?.kind === 'tool' && entry.name === name && entry.status === 'running' && entry.approvalId === undefined) {
        this.replace({ ...entry, status: 'awaiting_approval', approvalId, approvalScopes: [...scopes], ...(warning ? { approvalWarning: warning } : {}), ...(rule ? { approvalRule: rule } : {}) });
        return;
      }
    }
  }

  private resolveApproval(approvalId: string, approved: boolean): void {
    const entry = this.entries.find((e): e is EntryOf<'tool'> => e.kind === 'tool' && e.approvalId === approvalId && e.status === 'awaiting_approval');
    if (!entry) return;
    const { approvalScopes: _scopes, approvalWarning: _warning, approvalRule: _rule, ...rest } = entry;
    this.replace({ ...rest, status: approved ? 'running' : 'denied' });
  }

  /** A server's question, shown as a form card until it is answered (the elicitation broker drives it). */
  askElicitation(request: ElicitationRequest): void {
    this.streamed.closeAssistant();
    this.add({ kind: 'elicitation', id: elicitationId(request.id), requestId: request.id, server: request.server, message: request.message, schema: request.schema, status: 'pending' });
  }

  settleElicitation(requestId: string, status: Exclude<ElicitationStatus, 'pending'>): void {
    const entry = this.entries.find((e): e is EntryOf<'elicitation'> => e.kind === 'elicitation' && e.id === elicitationId(requestId));
    if (entry && entry.status === 'pending') this.replace({ ...entry, status });
  }

  /** A `_PreToolUse` hook denied the call: the card says who blocked it and why (the call never ran). */
  private blockTool(callId: string, server: string, text: string): void {
    const entry = this.tool(callId);
    if (entry) this.replace({ ...entry, status: 'denied', blocked: { server, text } });
  }

  /** The card of the tool call `callId`, if there is one. */
  private tool(callId: string): EntryOf<'tool'> | undefined {
    return this.entries.find((e): e is EntryOf<'tool'> => e.kind === 'tool' && e.id === toolId(callId));
  }

  private toolProgress(callId: string, progress: ToolProgressInfo): void {
    const entry = this.tool(callId);
    if (entry && (entry.status === 'running' || entry.status === 'awaiting_approval')) this.replace({ ...entry, progress, ...(this.options.terminalOf?.(callId) ? { terminal: true } : {}) });
  }

  private finishTool(callId: string, status: ToolStatus, result: string): void {
    const entry = this.tool(callId);
    if (!entry) return;
    const change = this.options.changeOf?.(callId);
    this.replace({ ...entry, status: entry.status === 'denied' ? 'denied' : status, result, ...(change ? { change: { path: change.path, undone: change.undone } } : {}) });
  }

  private finishOutcome(outcome: Outcome): void {
    this.streamed.closeAssistant();
    this.cancelOpenTools();
    const checks = this.hooks.turnEnded(outcome.unresolved?.cause === 'declined');
    this.add({
      kind: 'outcome',
      id: this.id(),
      reason: outcome.reason,
      message: outcome.message,
      unresolved: outcome.unresolved,
      turn: this.turn,
      verdict: this.stops.verdict(outcome.reason),
      ...(checks ? { checks } : {}),
      ...this.turnFiles(),
    });
    this.promptOpen = false;
    this.plans.turnEnded(outcome.reason);
  }

  /** The files the turn's calls changed, for the footer's Undo (nothing when none did). */
  private turnFiles(): { files?: { paths: string[]; undone: boolean } } {
    const changes = this.turnCallIds(this.turn).map((id) => this.options.changeOf?.(id)).filter((c) => c !== undefined);
    if (changes.length === 0) return {};
    // A call may change several files (the editor's rename_symbol): `paths` lists them all.
    return { files: { paths: [...new Set(changes.flatMap((c) => c.paths ?? [c.path]))], undone: changes.every((c) => c.undone) } };
  }

  /** A note from the host itself (not from an event), such as why commands run hidden. */
  say(level: EntryOf<'hookEvent'>['level'], text: string): void {
    this.note(level, text);
  }

  private tagTool(callId: string, subagent: SubagentTag): void {
    const entry = this.tool(callId);
    if (entry) this.replace({ ...entry, subagent });
  }

  private note(level: EntryOf<'hookEvent'>['level'], text: string, files?: readonly string[]): void {
    this.add({ kind: 'hookEvent', id: this.id(), level, text, ...(files === undefined ? {} : { files: [...files] }) });
  }

  /** The meter: the last model call's context, and the chat's sampling tokens apart. */
  private postUsage(usage: ContextUsage): void {
    this.usage = this.sampling.meter(usage);
    this.post({ type: 'usage', usage: this.usage });
  }

  private add(entry: ChatEntry): void {
    this.entries.push(entry);
    this.post({ type: 'entry', entry });
  }

  private withImages(images: readonly ImageView[]): void {
    const user = this.entries.findLast((e): e is EntryOf<'user'> => e.kind === 'user');
    if (user) this.replace({ ...user, images: images.map(({ name, mimeType, data }) => ({ name, mimeType, data })) });
  }

  private replace(entry: ChatEntry): void {
    const at = this.entries.findIndex((e) => e.id === entry.id);
    if (at >= 0) this.entries[at] = entry;
    this.post({ type: 'entry', entry });
  }

  private id(): string {
    return `e${this.nextId++}`;
  }
}

function toolId(callId: string): string {
  return `t-${callId}`;
}

function elicitationId(requestId: string): string {
  return `q-${requestId}`;
}
