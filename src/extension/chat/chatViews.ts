/**
 * The chat's webviews (the view in the side bar, chat editor tabs): which are attached, what every one
 * of them is sent, and the whole state a webview gets when it says `ready`. The open chat's entries
 * come from its own view state (chatViewState.ts posts them here); the window's facts beside them come
 * one way each: the running flag from the view events, the hooks line from the Hooks view's state,
 * and the notice, setup card and model from whoever changed them. vscode-free (unit-tested under node).
 */
import type { ChatState, HostMessage, ModelInUse, SetupInfo } from '../../shared/protocol';
import { hooksSummary } from '../hooks/hooksSummary';
import type { HooksViewState } from '../hooks/hooksViewState';
import type { ViewEvent, ViewEventListener } from '../viewEvents';
import type { Chat } from './chat';

/** One attached webview, as the chat views see it. */
export interface ChatViewPort {
  post(message: HostMessage): void;
  /** Whether the user can see this view now (a collapsed side bar or a background tab cannot). */
  visible(): boolean;
}

/** What a snapshot says besides the chat: the setup card (with a prompt kept for it) and the model the next prompt goes to. */
export interface ChatFacts {
  setup: SetupInfo | null;
  model: ModelInUse | null;
}

export interface ChatViewsDeps {
  /** Where the message box's draft is kept. */
  drafts: { get<T>(key: string): T | undefined };
  hooks: HooksViewState;
}

export const DRAFT_KEY = 'sprout.draft';

export class ChatViews implements ViewEventListener {
  private readonly ports = new Set<ChatViewPort>();
  /** The notice the user dismissed; it stays away for this window's life unless it changes. */
  private dismissed: string | null = null;
  /** The hooks line the views show now (as sent), so an unchanged one is not sent again. */
  private shownHooks: string | undefined;
  /** What the workspace may not do (Restricted Mode, ignored user-only settings), or null. */
  notice: string | null = null;

  constructor(private readonly deps: ChatViewsDeps) {
    // The Hooks view's state changes with every hook event (each replayed one too); its one line rarely.
    deps.hooks.onDidChange(() => this.showHooks());
  }

  attach(port: ChatViewPort): { dispose(): void } {
    this.ports.add(port);
    return { dispose: () => void this.ports.delete(port) };
  }

  /** Whether any attached chat view is visible to the user now. */
  visible(): boolean {
    return [...this.ports].some((port) => port.visible());
  }

  broadcast(message: HostMessage): void {
    for (const port of this.ports) port.post(message);
  }

  apply(event: ViewEvent): void {
    if (event.type === 'running') this.broadcast({ type: 'running', running: event.running });
  }

  setNotice(notice: string | null): void {
    this.notice = notice;
    this.broadcast({ type: 'notice', notice: this.shownNotice() });
  }

  dismissNotice(): void {
    this.dismissed = this.notice;
    this.broadcast({ type: 'notice', notice: null });
  }

  showFacts(facts: ChatFacts): void {
    this.broadcast({ type: 'setup', setup: facts.setup });
    this.broadcast({ type: 'model', model: facts.model });
  }

  /** The whole state of `chat` for a webview that just said `ready` (or every one, after a switch). */
  snapshot(chat: Chat, facts: ChatFacts): ChatState {
    return {
      chatId: chat.id,
      entries: chat.view.entries,
      running: chat.running,
      draft: this.deps.drafts.get<string>(DRAFT_KEY) ?? '',
      setup: facts.setup,
      notice: this.shownNotice(),
      usage: chat.view.usage,
      hooks: hooksSummary(this.deps.hooks),
      model: facts.model,
    };
  }

  sendSnapshot(chat: Chat, facts: ChatFacts): void {
    this.broadcast({ type: 'snapshot', state: this.snapshot(chat, facts) });
    this.sendToolsOff(chat);
  }

  /** The tools button says how many tools the chat turned off (the tool picker). */
  sendToolsOff(chat: Chat): void {
    this.broadcast({ type: 'toolsOff', count: chat.toolChoice.off?.length ?? 0 });
  }

  private showHooks(): void {
    const hooks = hooksSummary(this.deps.hooks);
    const shown = JSON.stringify(hooks);
    if (shown === this.shownHooks) return;
    this.shownHooks = shown;
    this.broadcast({ type: 'hooks', hooks });
  }

  private shownNotice(): string | null {
    return this.notice !== null && this.notice === this.dismissed ? null : this.notice;
  }
}
