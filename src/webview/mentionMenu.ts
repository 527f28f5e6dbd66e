/**
 * The composer's `#` menu: while the word before the caret starts with `#`, the mentions of
 * src/shared/mentions.ts that match are listed; once it reads `#kind:` (file, folder, symbol, resource)
 * the host's completions of what follows are (asked with `completeMention`, answered by
 * `mentionItems`). Up/Down move, Enter or Tab put the pick in place of the word, Escape closes.
 */
import type { CompletedMention } from '../shared/mentions';
import { COMPLETED_MENTIONS, MENTIONS } from '../shared/mentions';
import type { MentionItem } from '../shared/protocol';
import { type PickItem, PickList } from './pickList';

const WORD = /(?:^|\s)(#[^\s#]*)$/;

export class MentionMenu extends PickList<MentionItem> {
  private asked = '';

  constructor(
    input: HTMLTextAreaElement,
    private readonly complete: (kind: CompletedMention, query: string) => void,
  ) {
    super(input, { class: 'slash-menu mention-menu', testid: 'mention-menu' }, 'mention-item');
  }

  /** The host's completions; shown when they answer what the box still holds. */
  items(kind: CompletedMention, query: string, items: readonly MentionItem[]): void {
    const typed = this.typed();
    if (typed !== `#${kind}:${query}`) return;
    this.show(items.filter((i) => i.insert.toLowerCase().startsWith(typed.toLowerCase())));
  }

  /** The `#` word before the caret, or undefined. */
  private typed(): string | undefined {
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    return WORD.exec(before)?.[1];
  }

  protected update(): void {
    const typed = this.typed();
    if (typed === undefined) return this.hide();
    const colon = typed.indexOf(':');
    const kind = typed.slice(1, colon) as CompletedMention;
    if (colon > 0 && COMPLETED_MENTIONS.includes(kind)) {
      // Asked once per text; the answer (`items`) shows it.
      if (this.asked !== typed) this.complete(kind, typed.slice(colon + 1));
      this.asked = typed;
      return;
    }
    const lower = typed.toLowerCase();
    this.show(MENTIONS.filter((m) => m.insert.toLowerCase().startsWith(lower) && m.insert.toLowerCase() !== lower));
  }

  protected view(m: MentionItem): PickItem {
    return { name: m.insert, description: m.description };
  }

  /** The word before the caret becomes the pick (a complete mention gets a space after it). */
  protected pick(m: MentionItem): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const typed = this.typed() ?? '';
    const after = m.insert.endsWith(':') ? '' : ' ';
    const start = caret - typed.length;
    this.input.value = `${this.input.value.slice(0, start)}${m.insert}${after}${this.input.value.slice(caret)}`;
    const end = start + m.insert.length + after.length;
    this.input.setSelectionRange(end, end);
    this.hide();
    this.input.dispatchEvent(new Event('input'));
    this.input.focus();
  }
}
