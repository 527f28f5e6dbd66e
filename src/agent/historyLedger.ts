/**
 * Per-session running facts about the history the loop measures and checks before every model call:
 * its size in characters and how far it is known valid. The live session appends to one array in
 * place and a compaction brings a new one, so the same array seen again has only grown at the end:
 * each round covers just the new messages. Any other array is measured from the start. The answers
 * are those of `historyChars` and `validateHistory` over the whole history.
 */
import { messageChars } from './compactionRules';
import { type HistoryProblem, validateHistoryFrom } from './historyValidity';
import type { ChatMessage } from './messages';

export class HistoryLedger {
  private seen: readonly ChatMessage[] | undefined;
  /** How many messages of `seen` are counted in `chars`. */
  private counted = 0;
  private chars = 0;
  /** A prefix length that validates clean and leaves no tool-call block open. */
  private clean = 0;

  historyChars(history: readonly ChatMessage[]): number {
    this.sync(history);
    return this.chars;
  }

  validate(history: readonly ChatMessage[]): HistoryProblem[] {
    this.sync(history);
    const { problems, cleanUpTo } = validateHistoryFrom(history, this.clean);
    this.clean = cleanUpTo;
    return problems;
  }

  private sync(history: readonly ChatMessage[]): void {
    if (history !== this.seen || history.length < this.counted) {
      this.seen = history;
      this.counted = 0;
      this.chars = 0;
      this.clean = 0;
    }
    for (let i = this.counted; i < history.length; i++) this.chars += messageChars(history[i] as ChatMessage);
    this.counted = history.length;
  }
}
