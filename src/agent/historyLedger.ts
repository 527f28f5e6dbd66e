/**
 * Per-session running facts about the history the loop measures and checks before every model call:
 * its size in characters and how far it is known valid. Between compactions the history only grows
 * at the end, so each round covers just the new messages; a history that does not extend the last
 * one seen (after a compaction) is measured from the start. The answers are those of `historyChars`
 * and `validateHistory` over the whole history.
 */
import { messageChars } from './compaction';
import { type HistoryProblem, validateHistoryFrom } from './historyValidity';
import type { ChatMessage } from './types';

export class HistoryLedger {
  private seen: readonly ChatMessage[] = [];
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

  /** Identity of every earlier slot, not just the length: a compaction can replace a prefix. */
  private extendsSeen(history: readonly ChatMessage[]): boolean {
    const seen = this.seen;
    if (history.length < seen.length) return false;
    for (let i = seen.length - 1; i >= 0; i--) if (history[i] !== seen[i]) return false;
    return true;
  }

  private sync(history: readonly ChatMessage[]): void {
    if (history === this.seen) return;
    if (!this.extendsSeen(history)) {
      this.seen = [];
      this.chars = 0;
      this.clean = 0;
    }
    for (let i = this.seen.length; i < history.length; i++) this.chars += messageChars(history[i] as ChatMessage);
    this.seen = history;
  }
}
