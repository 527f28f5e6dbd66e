/**
 * The chat's display state, folded from the core's event stream (live, or replayed from a transcript).
 * Each change is also reported as one incremental host message, so the webview re-renders only the entry
 * that changed: streamed text becomes `delta` messages against the open assistant entry and finished
 * entries are never sent again. vscode-free so it is unit-tested under node.
 */
import type { AgentEvent, Outcome } from '../../agent/events';
import { KILL_AFTER_TIMEOUTS } from '../../agent/hookCaller';
import type { ApprovalScope } from '../../agent/ports';
import type { ElicitationRequest } from '../../agent/messages';
import type { Budget, ChatEntry, ElicitationStatus, HostMessage, ToolProgressInfo, ToolStatus } from '../../shared/protocol';

type EntryOf<K extends ChatEntry['kind']> = Extract<ChatEntry, { kind: K }>;

export class ChatViewState {
  readonly entries: ChatEntry[] = [];
  /** Whether this chat's prompt is running, as its events say: the one place the UI reads it from. */
  running = false;
  budget: Budget | null = null;
  private openAssistant: EntryOf<'assistant'> | undefined;
  private openThinking: EntryOf<'thinking'> | undefined;
  private nextId = 0;

  constructor(private readonly post: (message: HostMessage) => void = () => {}) {}

  apply(event: AgentEvent): void {
    switch (event.type) {
      case 'prompt_started':
        // In a replayed transcript, a prompt that never ended (the window closed) is followed by the next one.
        this.endInterruptedPrompt();
        this.closeAssistant();
        this.running = true;
        this.post({ type: 'running', running: true });
        this.add({ kind: 'user', id: this.id(), text: event.text });
        return;
      case 'text_delta':
        return this.appendText(event.delta);
      case 'reasoning_delta':
        return this.appendThinking(event.delta);
      case 'message':
        if (event.message.role === 'assistant') this.finishAssistant(event.message.content, event.message.reasoning);
        return;
      case 'tool_started':
        this.closeAssistant();
        this.add({ kind: 'tool', id: toolId(event.callId), name: event.name, args: event.arguments, status: 'running' });
        return;
      case 'tool_finished':
        return this.finishTool(event.callId, event.isError ? 'error' : 'ok', event.text);
      case 'tool_progress':
        return this.toolProgress(event.callId, { progress: event.progress, total: event.total, message: event.message });
      case 'approval_requested':
        return this.requestApproval(event.name, event.approvalId, event.scopes, event.warning);
      case 'approval_resolved':
        return this.resolveApproval(event.approvalId, event.answer !== 'deny');
      case 'budget':
        this.budget = { used: event.used, max: event.max, scope: event.scope, repeatedEndTurnStops: event.repeatedEndTurnStops };
        this.post({ type: 'budget', budget: this.budget });
        return;
      case 'compaction':
        this.closeAssistant();
        this.add({
          kind: 'compaction',
          id: this.id(),
          trigger: event.trigger,
          summary: event.summary,
          injected: event.injected,
          fallback: event.fallback,
          droppedMessages: event.droppedMessages,
        });
        return;
      case 'outcome':
        return this.finishOutcome(event.outcome);
      default:
        return this.applyHookEvent(event);
    }
  }

  /**
   * After replaying a transcript that ends mid-prompt (the window closed or the extension host died
   * while it ran): nothing runs now, so what was streaming is finished as it stands, running tool
   * cards read cancelled, and a note says why. Does nothing when the last prompt ended.
   */
  endInterruptedPrompt(): void {
    if (!this.running) return;
    this.closeAssistant();
    this.cancelOpenTools();
    this.note('warning', 'This prompt was interrupted (the window closed or the extension host stopped); what had streamed is kept. Send a message to go on.');
    this.running = false;
    this.post({ type: 'running', running: false });
  }

  private cancelOpenTools(): void {
    for (const entry of this.entries) {
      if (entry.kind === 'tool' && (entry.status === 'running' || entry.status === 'awaiting_approval')) this.replace({ ...entry, status: 'cancelled' });
    }
  }

  private applyHookEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'hook_objected':
        this.closeAssistant();
        this.add({
          kind: 'objection',
          id: this.id(),
          server: event.server,
          text: event.text,
          used: event.rejectionsUsed,
          max: event.maxRejections,
          ...(event.failures ? { failures: event.failures } : {}),
        });
        return;
      case 'hook_finished':
        if (event.result === 'no_objection') this.note('info', `${event.server} ${event.hook}: no objection (${event.durationMs} ms)`);
        if (event.result === 'error') this.note('warning', `${event.server} ${event.hook} failed, treated as no objection: ${firstLine(event.text)}`);
        return;
      case 'hook_timed_out':
        this.note('warning', `${event.server} ${event.hook} timed out (${event.consecutive}/${KILL_AFTER_TIMEOUTS} in a row); treated as no objection.`);
        return;
      case 'server_killed':
        this.note('error', `Server ${event.server} was killed (${event.reason}). It restarts on next use; its in-memory state (a todo list, say) is lost.`);
        return;
      case 'server_restarted':
        this.note('info', `Server ${event.server} restarted (attempt ${event.attempt}).`);
        return;
      case 'server_error':
        this.note('error', `Server ${event.server}: ${event.message}`);
        return;
      case 'hooks_not_enabled':
        this.note('warning', `Server ${event.server} exposes hooks (${event.hooks.join(', ')}) but is not in sprout.hooks.servers, so they never run. Use "Sprout: Configure Hook Servers" to enable them.`);
        return;
      case 'objection_resolved':
        this.note('info', resolutionText(event.servers, event.resolution));
        return;
      case 'retry':
        // The next attempt thinks afresh; its thinking goes in a part of its own.
        this.closeThinking();
        this.note('info', `Model call failed (${event.reason}); retry ${event.attempt} in ${Math.round(event.delayMs)} ms.`);
        return;
      case 'servers_waiting':
        this.note('info', `Waiting up to ${Math.round(event.waitMs / 100) / 10} s for MCP server${event.servers.length === 1 ? '' : 's'} ${event.servers.join(', ')} to be ready; the agent goes on without ${event.servers.length === 1 ? 'it' : 'them'} after that.`);
        return;
      default:
        return;
    }
  }

  /** Whether the question `approvalId` shows on a tool card (so the card's buttons can answer it). */
  showsApproval(approvalId: string): boolean {
    return this.entries.some((e) => e.kind === 'tool' && e.approvalId === approvalId && e.status === 'awaiting_approval');
  }

  /** The newest running card of `name` waits for the user (no card: the question is asked elsewhere). */
  private requestApproval(name: string, approvalId: string, scopes: readonly ApprovalScope[], warning: string | undefined): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry?.kind === 'tool' && entry.name === name && entry.status === 'running' && entry.approvalId === undefined) {
        this.replace({ ...entry, status: 'awaiting_approval', approvalId, approvalScopes: [...scopes], ...(warning ? { approvalWarning: warning } : {}) });
        return;
      }
    }
  }

  private resolveApproval(approvalId: string, approved: boolean): void {
    const entry = this.entries.find((e): e is EntryOf<'tool'> => e.kind === 'tool' && e.approvalId === approvalId && e.status === 'awaiting_approval');
    if (!entry) return;
    const { approvalScopes: _scopes, approvalWarning: _warning, ...rest } = entry;
    this.replace({ ...rest, status: approved ? 'running' : 'denied' });
  }

  /** A server's question, shown as a form card until it is answered (the elicitation broker drives it). */
  askElicitation(request: ElicitationRequest): void {
    this.closeAssistant();
    this.add({ kind: 'elicitation', id: elicitationId(request.id), requestId: request.id, server: request.server, message: request.message, schema: request.schema, status: 'pending' });
  }

  settleElicitation(requestId: string, status: Exclude<ElicitationStatus, 'pending'>): void {
    const entry = this.entries.find((e): e is EntryOf<'elicitation'> => e.kind === 'elicitation' && e.id === elicitationId(requestId));
    if (entry && entry.status === 'pending') this.replace({ ...entry, status });
  }

  private toolProgress(callId: string, progress: ToolProgressInfo): void {
    const entry = this.entries.find((e): e is EntryOf<'tool'> => e.kind === 'tool' && e.id === toolId(callId));
    if (entry && (entry.status === 'running' || entry.status === 'awaiting_approval')) this.replace({ ...entry, progress });
  }

  /** Streamed text goes to the open entry of its kind (a `delta` message), or opens one. */
  private streamInto<E extends EntryOf<'assistant'> | EntryOf<'thinking'>>(open: E | undefined, kind: E['kind'], delta: string): E {
    if (open) {
      open.text += delta;
      this.post({ type: 'delta', id: open.id, text: delta });
      return open;
    }
    const entry = { kind, id: this.id(), text: delta, done: false } as E;
    this.add(entry);
    return entry;
  }

  private appendThinking(delta: string): void {
    if (delta !== '') this.openThinking = this.streamInto(this.openThinking, 'thinking', delta);
  }

  /** Thinking shown live ends when the answer, a tool or anything else comes; a replayed message brings it whole. */
  private closeThinking(reasoning?: string): void {
    if (this.openThinking) {
      this.replace({ ...this.openThinking, done: true });
      this.openThinking = undefined;
    } else if (reasoning !== undefined && reasoning.trim() !== '') {
      this.add({ kind: 'thinking', id: this.id(), text: reasoning, done: true });
    }
  }

  private appendText(delta: string): void {
    if (delta === '') return;
    this.closeThinking();
    this.openAssistant = this.streamInto(this.openAssistant, 'assistant', delta);
  }

  private finishAssistant(content: string | null, reasoning?: string): void {
    // A replayed transcript has no reasoning deltas: the thinking comes whole with the message, before the answer.
    this.closeThinking(this.openAssistant ? undefined : reasoning);
    if (this.openAssistant) {
      const text = content !== null && content.length >= this.openAssistant.text.length ? content : this.openAssistant.text;
      this.replace({ ...this.openAssistant, text, done: true });
      this.openAssistant = undefined;
    } else if (content !== null && content.trim() !== '') {
      this.add({ kind: 'assistant', id: this.id(), text: content, done: true });
    }
  }

  private closeAssistant(): void {
    this.closeThinking();
    if (this.openAssistant) this.finishAssistant(null);
  }

  private finishTool(callId: string, status: ToolStatus, result: string): void {
    const entry = this.entries.find((e): e is EntryOf<'tool'> => e.kind === 'tool' && e.id === toolId(callId));
    if (!entry) return;
    this.replace({ ...entry, status: entry.status === 'denied' ? 'denied' : status, result });
  }

  private finishOutcome(outcome: Outcome): void {
    this.closeAssistant();
    this.cancelOpenTools();
    this.add({ kind: 'outcome', id: this.id(), reason: outcome.reason, message: outcome.message, unresolved: outcome.unresolved });
    this.running = false;
    this.post({ type: 'running', running: false });
  }

  private note(level: EntryOf<'hookEvent'>['level'], text: string): void {
    this.add({ kind: 'hookEvent', id: this.id(), level, text });
  }

  private add(entry: ChatEntry): void {
    this.entries.push(entry);
    this.post({ type: 'entry', entry });
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

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

function resolutionText(servers: string[], resolution: 'complied' | 'declined' | 'overridden'): string {
  const who = servers.join(', ');
  if (resolution === 'complied') return `The model acted on the objection of ${who}.`;
  if (resolution === 'declined') return `The model ended its turn again after the objection of ${who} (declined).`;
  return `The _Stop budget is spent: the objection of ${who} was overridden.`;
}
