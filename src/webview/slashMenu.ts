/**
 * The composer's `/` menu: while the message box holds only `/` and a partial name, the commands whose
 * name starts with (then contains) it are listed with their descriptions; Up/Down move, Enter or Tab
 * puts `/name ` in the box, Escape closes. The host expands a command when the message is sent.
 */
import type { SlashCommandInfo } from '../shared/protocol';
import { type PickItem, PickList } from './pickList';

const TYPING = /^\/([\w.:-]*)$/;

export class SlashMenu extends PickList<SlashCommandInfo> {
  private commands: SlashCommandInfo[] = [];

  constructor(input: HTMLTextAreaElement) {
    super(input, { class: 'slash-menu', testid: 'slash-menu' }, 'slash-item');
  }

  setCommands(commands: readonly SlashCommandInfo[]): void {
    this.commands = [...commands];
    if (this.open) this.update();
  }

  protected update(): void {
    const typed = TYPING.exec(this.input.value)?.[1]?.toLowerCase();
    if (typed === undefined) return this.hide();
    const starts = this.commands.filter((c) => c.name.toLowerCase().startsWith(typed));
    const contains = this.commands.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(typed));
    this.show([...starts, ...contains]);
  }

  protected view(c: SlashCommandInfo): PickItem {
    return { name: `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`, description: c.description, title: c.source };
  }

  protected pick(command: SlashCommandInfo): void {
    this.input.value = `/${command.name} `;
    this.input.dispatchEvent(new Event('input'));
    this.hide();
    this.input.focus();
  }
}
