/**
 * The text the model streams into the chat: its answer and its thinking, each an entry that stays open
 * while deltas come (a `delta` message each) and is closed when anything else comes, or arrives whole
 * with a replayed message. Separate from the chat's view state, which owns the entries and their ids:
 * this only knows the two open entries and is handed how to add, replace and post.
 * vscode-free so it is unit-tested under node.
 */
import type { ChatEntry, HostMessage } from '../../shared/protocol';

type Streamed = Extract<ChatEntry, { kind: 'assistant' | 'thinking' }>;

/** What the view state lends the streamed text: its entry list's add and replace, its post, its ids. */
export interface StreamedTextPort {
  add(entry: ChatEntry): void;
  replace(entry: ChatEntry): void;
  post(message: HostMessage): void;
  id(): string;
}

export class StreamedText {
  private openAssistant: Extract<Streamed, { kind: 'assistant' }> | undefined;
  private openThinking: Extract<Streamed, { kind: 'thinking' }> | undefined;

  constructor(private readonly port: StreamedTextPort) {}

  /** Streamed text goes to the open entry of its kind (a `delta` message), or opens one. */
  private streamInto<E extends Streamed>(open: E | undefined, kind: E['kind'], delta: string): E {
    if (open) {
      open.text += delta;
      this.port.post({ type: 'delta', id: open.id, text: delta });
      return open;
    }
    const entry = { kind, id: this.port.id(), text: delta, done: false } as E;
    this.port.add(entry);
    return entry;
  }

  appendThinking(delta: string): void {
    if (delta !== '') this.openThinking = this.streamInto(this.openThinking, 'thinking', delta);
  }

  /** Thinking shown live ends when the answer, a tool or anything else comes; a replayed message brings it whole. */
  closeThinking(reasoning?: string): void {
    if (this.openThinking) {
      this.port.replace({ ...this.openThinking, done: true });
      this.openThinking = undefined;
    } else if (reasoning !== undefined && reasoning.trim() !== '') {
      this.port.add({ kind: 'thinking', id: this.port.id(), text: reasoning, done: true });
    }
  }

  appendText(delta: string): void {
    if (delta === '') return;
    this.closeThinking();
    this.openAssistant = this.streamInto(this.openAssistant, 'assistant', delta);
  }

  /**
   * The end of the streamed answer was thinking (a lone `</think>`): it moves to a thinking entry. An
   * answer entry that held nothing else becomes that entry, in its place; thinking streamed after it
   * is appended there.
   */
  reclassify(text: string): void {
    const open = this.openAssistant;
    if (text === '' || !open?.text.endsWith(text)) return;
    const kept = open.text.slice(0, open.text.length - text.length);
    if (kept.trim() === '') {
      this.openAssistant = undefined;
      this.openThinking = { kind: 'thinking', id: open.id, text: open.text, done: false };
      this.port.replace(this.openThinking);
      return;
    }
    this.port.replace({ ...open, text: kept, done: true });
    this.openAssistant = undefined;
    this.appendThinking(text);
  }

  finishAssistant(content: string | null, reasoning?: string): void {
    // A replayed transcript has no reasoning deltas: the thinking comes whole with the message, before the answer.
    this.closeThinking(this.openAssistant ? undefined : reasoning);
    if (this.openAssistant) {
      const text = content !== null && content.length >= this.openAssistant.text.length ? content : this.openAssistant.text;
      this.port.replace({ ...this.openAssistant, text, done: true });
      this.openAssistant = undefined;
    } else if (content !== null && content.trim() !== '') {
      this.port.add({ kind: 'assistant', id: this.port.id(), text: content, done: true });
    }
  }

  closeAssistant(): void {
    this.closeThinking();
    if (this.openAssistant) this.finishAssistant(null);
  }
}
