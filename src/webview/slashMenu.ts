/**
 * The composer's `/` menu: while the message box holds only `/` and a partial name, the commands whose
 * name starts with (then contains) it are listed with their descriptions; Up/Down move, Enter or Tab
 * puts `/name ` in the box, Escape closes. The host expands a command when the message is sent.
 */
import type { SlashCommandInfo } from '../shared/protocol';
import { el } from './dom';

const TYPING = /^\/([\w.:-]*)$/;

export class SlashMenu {
  readonly element = el('div', { class: 'slash-menu', role: 'listbox', 'data-testid': 'slash-menu', hidden: '' });
  private commands: SlashCommandInfo[] = [];
  private shown: SlashCommandInfo[] = [];
  private active = 0;

  constructor(private readonly input: HTMLTextAreaElement) {
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => this.hide());
  }

  setCommands(commands: readonly SlashCommandInfo[]): void {
    this.commands = [...commands];
    if (!this.element.hidden) this.update();
  }

  get open(): boolean {
    return !this.element.hidden;
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

  private update(): void {
    const typed = TYPING.exec(this.input.value)?.[1]?.toLowerCase();
    if (typed === undefined) return this.hide();
    const starts = this.commands.filter((c) => c.name.toLowerCase().startsWith(typed));
    const contains = this.commands.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(typed));
    this.shown = [...starts, ...contains];
    if (this.shown.length === 0) return this.hide();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.element.hidden = false;
    this.render();
  }

  private render(): void {
    this.element.replaceChildren(
      ...this.shown.map((c, i) => {
        const item = el('div', { class: `slash-item${i === this.active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === this.active), 'data-testid': 'slash-item', title: c.source });
        const name = el('span', { class: 'slash-name' });
        name.textContent = `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`;
        const description = el('span', { class: 'slash-description' });
        description.textContent = c.description;
        item.append(name, description);
        // mousedown, not click: the box's blur would close the menu first.
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.pick(c);
        });
        return item;
      }),
    );
  }

  private pick(command: SlashCommandInfo): void {
    this.input.value = `/${command.name} `;
    this.input.dispatchEvent(new Event('input'));
    this.hide();
    this.input.focus();
  }

  private hide(): void {
    this.element.hidden = true;
    this.active = 0;
  }
}
