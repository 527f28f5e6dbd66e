/**
 * What the chat shows of hooks and servers, folded here for chatViewState.ts: hooks stay quiet unless
 * they have something to say. A check that passed goes into the turn's footer (the outcome entry), an
 * objection is a card that learns what became of it, a `_PreToolUse` denial marks its tool card, hook
 * text put into the history is a card of its own, a server wait is a note replaced by how it ended, and
 * any other event with something to say is a note (chatNotes.ts).
 * vscode-free.
 */
import type { AgentEvent } from '../../agent/events';
import type { ChatEntry, HookCheck } from '../../shared/protocol';
import { noteFor, type Note } from './chatNotes';

type ObjectionOutcome = 'complied' | 'declined' | 'overridden';

/** What the hook fold may do to the chat's entries and cards (ChatViewState gives it). */
export interface HookEntries {
  readonly entries: readonly ChatEntry[];
  add(entry: ChatEntry): void;
  replace(entry: ChatEntry): void;
  note(level: Note['level'], text: string, files?: readonly string[]): void;
  id(): string;
  /** Closes the streamed answer, so what comes next is drawn after it. */
  closeAssistant(): void;
  /** Closes the streamed thinking (a retry thinks afresh). */
  closeThinking(): void;
  /** Marks the card of `callId` as denied by `server`'s `_PreToolUse`. */
  blockTool(callId: string, server: string, text: string): void;
}

/** The hook cards and notes of a chat, and the quiet checks of the turn in progress. */
export class HookFold {
  /** The turn's quiet hook checks, for its footer. */
  private checks: HookCheck[] = [];
  /** The note of a server wait still in progress (servers_waiting), to be replaced by how it ended. */
  private waitingNote: string | undefined;

  constructor(private readonly view: HookEntries) {}

  /** A new turn: its footer starts with no checks. */
  promptStarted(): void {
    this.checks = [];
  }

  /**
   * The turn ended (its outcome is `declined` or not): pending objection cards learn so, and the turn's
   * quiet checks are handed over for its footer (none: undefined).
   */
  turnEnded(declined: boolean): HookCheck[] | undefined {
    this.settleObjections(() => true, declined ? 'declined' : 'overridden');
    const checks = this.checks;
    this.checks = [];
    return checks.length > 0 ? checks : undefined;
  }

  /** An event the chat's view state does not fold itself: a hook's, a server's, or a note. */
  apply(event: AgentEvent): void {
    switch (event.type) {
      case 'hook_objected':
        this.view.closeAssistant();
        this.view.add({
          kind: 'objection',
          id: this.view.id(),
          server: event.server,
          text: event.text,
          used: event.rejectionsUsed,
          max: event.maxRejections,
          hook: event.hook,
          scope: event.scope,
          outcome: 'pending',
          ...(event.failures ? { failures: event.failures } : {}),
        });
        return;
      case 'hook_finished':
        // _SessionEnd comes after the turn's footer: it is timed and shown in the Hooks view, not in a turn.
        if (event.result === 'no_objection' && event.hook !== '_SessionEnd') this.passed(event.server, event.hook, event.durationMs);
        break;
      case 'tool_denied':
        this.view.blockTool(event.callId, event.server, event.text);
        break;
      case 'hook_injected':
        this.view.closeAssistant();
        this.view.add({ kind: 'injection', id: this.view.id(), hook: event.hook, server: event.server, text: event.text });
        return;
      case 'objection_resolved':
        return this.settleObjections((server) => event.servers.includes(server), event.resolution);
      case 'servers_waiting':
      case 'servers_waited':
        return this.serversWait(event);
      case 'retry':
        // The next attempt thinks afresh; its thinking goes in a part of its own.
        this.view.closeThinking();
        break;
      default:
        break;
    }
    const note = noteFor(event);
    if (note) this.view.note(note.level, note.text, note.files);
  }

  /** Its note is replaced by what became of the wait (servers_waited), so "waiting" is not its last word. */
  private serversWait(event: Extract<AgentEvent, { type: 'servers_waiting' | 'servers_waited' }>): void {
    const note = noteFor(event);
    if (event.type === 'servers_waiting') {
      this.waitingNote = this.view.id();
      this.view.add({ kind: 'hookEvent', id: this.waitingNote, level: 'info', text: note?.text ?? '' });
      return;
    }
    const id = this.waitingNote;
    this.waitingNote = undefined;
    if (note && id !== undefined) this.view.replace({ kind: 'hookEvent', id, level: note.level, text: note.text });
    else if (note) this.view.note(note.level, note.text);
  }

  /** A quiet hook call joins the turn's footer; the calls of one hook of one server are one line however many there were. */
  private passed(server: string, hook: string, durationMs: number): void {
    const at = this.checks.findIndex((c) => c.server === server && c.hook === hook);
    const seen = this.checks[at];
    if (!seen) this.checks.push({ server, hook, durationMs });
    else this.checks[at] = { server, hook, durationMs: Math.max(seen.durationMs, durationMs), calls: (seen.calls ?? 1) + 1 };
  }

  /** Objection cards still pending learn what became of them (the model's answer, or the turn's end). */
  private settleObjections(matches: (server: string) => boolean, outcome: ObjectionOutcome): void {
    for (const entry of this.view.entries) {
      if (entry.kind === 'objection' && entry.outcome === 'pending' && matches(entry.server)) this.view.replace({ ...entry, outcome });
    }
  }
}
