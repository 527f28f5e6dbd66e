/**
 * The composer's mode picker (Agent, Ask, Plan: README.md#modes, then the window's custom agents:
 * README.md#custom-agents), kept per chat: switching chats shows the choice last made in that chat, else
 * the mode of its last message (a reopened chat), else Agent. The choice goes with each prompt; a custom
 * agent works in Agent mode with its own tools and instructions.
 */
import type { AgentChoice, ChatMode } from '../shared/protocol';
import { el } from './dom';

const CHOICES: ReadonlyArray<{ mode: ChatMode; label: string; title: string }> = [
  { mode: 'agent', label: 'Agent', title: 'Agent: every tool; the agent does the work.' },
  { mode: 'ask', label: 'Ask', title: 'Ask: only tools that read; nothing is written or run.' },
  { mode: 'plan', label: 'Plan', title: 'Plan: only tools that read; the answer is a numbered plan of steps.' },
];

/** An agent's option value: apart from the modes' whatever its name. */
const AGENT_PREFIX = 'agent:';

export class ModePicker {
  readonly element = el('select', { class: 'mode-picker', 'data-testid': 'mode-picker', 'aria-label': 'Mode or custom agent' });
  private readonly byChat = new Map<string, string>();
  private chatId = '';
  private agents: readonly AgentChoice[] = [];

  constructor() {
    for (const choice of CHOICES) {
      const option = el('option', { value: choice.mode, title: choice.title }, choice.label);
      this.element.append(option);
    }
    this.element.addEventListener('change', () => {
      this.byChat.set(this.chatId, this.element.value);
      this.showTitle();
    });
    this.showTitle();
  }

  /** The window's agents, after the modes; a chat whose agent is gone is back on Agent. */
  setAgents(agents: readonly AgentChoice[]): void {
    const current = this.element.value;
    this.agents = agents;
    for (const option of [...this.element.querySelectorAll('option')]) if (option.value.startsWith(AGENT_PREFIX)) option.remove();
    for (const agent of agents) {
      this.element.append(el('option', { value: `${AGENT_PREFIX}${agent.name}`, title: agentTitle(agent) }, agent.name));
    }
    this.element.value = current;
    if (this.element.value !== current) this.element.value = 'agent';
    this.showTitle();
  }

  value(): ChatMode {
    const picked = CHOICES.find((c) => c.mode === this.element.value);
    return picked?.mode ?? 'agent';
  }

  /** Picks a mode or an agent by name (a handoff's target; any case); false when the picker has neither. */
  pick(name: string): boolean {
    const lower = name.trim().toLowerCase();
    const mode = CHOICES.find((c) => c.mode === lower);
    const agent = this.agents.find((a) => a.name === name) ?? this.agents.find((a) => a.name.toLowerCase() === lower);
    const value = agent !== undefined ? `${AGENT_PREFIX}${agent.name}` : mode?.mode;
    if (value === undefined) return false;
    this.element.value = value;
    this.byChat.set(this.chatId, value);
    this.showTitle();
    return true;
  }

  /** The custom agent picked, by name; undefined for a mode. */
  agent(): string | undefined {
    const value = this.element.value;
    return value.startsWith(AGENT_PREFIX) ? value.slice(AGENT_PREFIX.length) : undefined;
  }

  /** `lastMode`: the mode of the chat's last message (a chat reopened after a reload), used when nothing was picked in it here. */
  setChat(chatId: string, lastMode?: ChatMode): void {
    this.chatId = chatId;
    this.element.value = this.byChat.get(chatId) ?? lastMode ?? 'agent';
    if (this.element.value === '') this.element.value = 'agent';
    this.showTitle();
  }

  private showTitle(): void {
    const agent = this.agents.find((a) => a.name === this.agent());
    this.element.title = agent !== undefined ? agentTitle(agent) : (CHOICES.find((c) => c.mode === this.value())?.title ?? '');
  }
}

function agentTitle(agent: AgentChoice): string {
  return `${agent.name}: ${agent.description || 'a custom agent'} (${agent.source})`;
}
