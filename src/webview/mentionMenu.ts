/**
 * The composer's `#` menu: while the word before the caret starts with `#`, the mentions of
 * src/shared/mentions.ts that match are listed; once it reads `#kind:` (file, folder, symbol, resource)
 * the host's completions of what follows are (asked with `completeMention`, answered by
 * `mentionItems`). Up/Down move, Enter or Tab put the pick in place of the word, Escape closes.
 */
import type { CompletedMention } from '../shared/mentions';
import { COMPLETED_MENTIONS, MENTIONS } from '../shared/mentions';
import type { MentionItem } from '../shared/protocol';
import { el } from './dom';

const WORD = /(?:^|\s)(#[^\s#]*)$/;

export class MentionMenu {
  readonly element = el('div', { class: 'slash-menu mention-menu', role: 'listbox', 'data-testid': 'mention-menu', hidden: '' });
  private shown: MentionItem[] = [];
  private active = 0;
  private asked = '';

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly complete: (kind: CompletedMention, query: string) => void,
  ) {
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => this.hide());
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  /** The host's completions; shown when they answer what the box still holds. */
  items(kind: CompletedMention, query: string, items: readonly MentionItem[]): void {
    const typed = this.typed();
    if (typed !== `#${kind}:${query}`) return;
    this.show(items.filter((i) => i.insert.toLowerCase().startsWith(typed.toLowerCase())));
  }

  /** A key the menu takes (it is open): true when it was handled. */
  key(event: KeyboardEvent): boolean {
    if (!this.open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.shown.length - 1)) % this.shown.length;
      this.render();
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      const picked = this.shown[this.active];
      if (picked !== undefined) this.pick(picked);
      return true;
    }
    if (event.key === 'Escape') {
      this.hide();
      return true;
    }
    return false;
  }

  /** The `#` word before the caret, or undefined. */
  private typed(): string | undefined {
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    return WORD.exec(before)?.[1];
  }

  private update(): void {
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

  private show(items: readonly MentionItem[]): void {
    this.shown = [...items];
    if (this.shown.length === 0) return this.hide();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.element.hidden = false;
    this.render();
  }

  private render(): void {
    this.element.replaceChildren(
      ...this.shown.map((m, i) => {
        const item = el('div', { class: `slash-item${i === this.active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === this.active), 'data-testid': 'mention-item' });
        const name = el('span', { class: 'slash-name' });
        name.textContent = m.insert;
        const description = el('span', { class: 'slash-description' });
        description.textContent = m.description;
        item.append(name, description);
        // mousedown, not click: the box's blur would close the menu first.
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.pick(m);
        });
        return item;
      }),
    );
  }

  /** The word before the caret becomes the pick (a complete mention gets a space after it). */
  private pick(m: MentionItem): void {
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

  private hide(): void {
    this.element.hidden = true;
    this.active = 0;
  }
}
