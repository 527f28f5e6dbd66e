/**
 * The composer's mode picker (Agent, Ask, Plan: README.md#modes), kept per chat: switching chats shows
 * the mode last picked in that chat, else the mode of its last message (a reopened chat), else Agent.
 * The choice goes with each prompt.
 */
import type { ChatMode } from '../shared/protocol';
import { el } from './dom';

const CHOICES: ReadonlyArray<{ mode: ChatMode; label: string; title: string }> = [
  { mode: 'agent', label: 'Agent', title: 'Agent: every tool; the agent does the work.' },
  { mode: 'ask', label: 'Ask', title: 'Ask: only tools that read; nothing is written or run.' },
  { mode: 'plan', label: 'Plan', title: 'Plan: only tools that read; the answer is a numbered plan of steps.' },
];

export class ModePicker {
  readonly element = el('select', { class: 'mode-picker', 'data-testid': 'mode-picker', 'aria-label': 'Mode' });
  private readonly byChat = new Map<string, ChatMode>();
  private chatId = '';

  constructor() {
    for (const choice of CHOICES) {
      const option = el('option', { value: choice.mode, title: choice.title }, choice.label);
      this.element.append(option);
    }
    this.element.addEventListener('change', () => {
      this.byChat.set(this.chatId, this.value());
      this.showTitle();
    });
    this.showTitle();
  }

  value(): ChatMode {
    const picked = CHOICES.find((c) => c.mode === this.element.value);
    return picked?.mode ?? 'agent';
  }

  /** Picks `mode` for the chat shown now, as the user's own choice would. */
  pick(mode: ChatMode): void {
    this.element.value = mode;
    this.byChat.set(this.chatId, mode);
    this.showTitle();
  }

  /** `lastMode`: the mode of the chat's last message (a chat reopened after a reload), used when nothing was picked in it here. */
  setChat(chatId: string, lastMode?: ChatMode): void {
    this.chatId = chatId;
    this.element.value = this.byChat.get(chatId) ?? lastMode ?? 'agent';
    this.showTitle();
  }

  private showTitle(): void {
    this.element.title = CHOICES.find((c) => c.mode === this.value())?.title ?? '';
  }
}
