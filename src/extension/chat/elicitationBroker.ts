/**
 * Puts a server's question (MCP form elicitation) to the user: a form card in the chat that runs (or
 * the open chat), answered accept / decline / cancel; when no chat view is visible a notification
 * says a question waits and shows the chat. The hub re-checks every accepted answer against the form.
 * A question the server withdraws (or a stopped prompt, a closed chat) ends as cancelled, so no
 * server ever waits on a card nobody will answer.
 */
import * as vscode from 'vscode';
import type { ElicitationAnswer, ElicitationRequest } from '../../agent/messages';
import type { ElicitationHandling } from '../../mcp/clientFeatures';
import type { ChatViewState } from './chatViewState';
import { quotedName } from '../../agent/nameText';

interface Pending {
  view: ChatViewState;
  settle: (answer: ElicitationAnswer, withdrawn?: boolean) => void;
}

export class ElicitationBroker implements ElicitationHandling {
  readonly by = 'user' as const;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<() => void>();

  /** The number of open questions changed (the chat view's badge counts them with approvals). */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get waiting(): number {
    return this.pending.size;
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  constructor(
    /** The chat that should show the question, and whether a chat view is visible. */
    private readonly target: () => { view: ChatViewState; visible: boolean } | undefined,
    private readonly showChat: () => void,
  ) {}

  answer(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    const target = this.target();
    if (target === undefined || signal.aborted) return Promise.resolve({ action: 'cancel' });
    const { view } = target;
    return new Promise((resolve) => {
      const onAbort = (): void => settle({ action: 'cancel' }, true);
      const settle = (answer: ElicitationAnswer, withdrawn = false): void => {
        if (!this.pending.delete(request.id)) return;
        this.changed();
        signal.removeEventListener('abort', onAbort);
        view.settleElicitation(request.id, withdrawn ? 'withdrawn' : answer.action);
        resolve(answer);
      };
      this.pending.set(request.id, { view, settle });
      this.changed();
      signal.addEventListener('abort', onAbort, { once: true });
      view.askElicitation(request);
      if (!target.visible) void this.notify(request);
    });
  }

  /** The user's answer from the card; false when the question is no longer open. */
  reply(id: string, answer: ElicitationAnswer): boolean {
    const pending = this.pending.get(id);
    pending?.settle(answer);
    return pending !== undefined;
  }

  /** A stopped prompt or a switched chat: every open question ends as cancelled. */
  cancelAll(): void {
    for (const pending of [...this.pending.values()]) pending.settle({ action: 'cancel' }, true);
  }

  private async notify(request: ElicitationRequest): Promise<void> {
    const choice = await vscode.window.showInformationMessage(`The MCP server ${quotedName(request.server)} asks you something in the Sprout chat.`, 'Show Chat');
    if (choice !== undefined) this.showChat();
  }
}
