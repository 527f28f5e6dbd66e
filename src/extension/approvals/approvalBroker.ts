/**
 * Asks the user about a tool call: as approve/deny buttons on the call's card in the chat when a chat
 * view shows it, or as a notification otherwise (a `sprout` task, a hidden view). Cancelling the
 * prompt counts as a denial, so a stopped run never waits on a question nobody will answer.
 */
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalRequest } from './approvalToolHost';
import type { ChatViewState } from '../chat/chatViewState';
import type { ApprovalScope } from '../../shared/protocol';

export class ApprovalBroker {
  private readonly pending = new Map<string, (answer: ApprovalAnswer) => void>();
  private next = 0;

  ask(view: ChatViewState, viewsOpen: boolean, request: ApprovalRequest): Promise<ApprovalAnswer> {
    const approvalId = `a${this.next++}`;
    if (request.signal.aborted) return Promise.resolve('deny');
    return new Promise((resolve) => {
      const onAbort = (): void => settle('deny');
      const settle = (answer: ApprovalAnswer): void => {
        if (!this.pending.delete(approvalId)) return;
        request.signal.removeEventListener('abort', onAbort);
        view.resolveApproval(approvalId, answer !== 'deny');
        resolve(answer);
      };
      this.pending.set(approvalId, settle);
      // The prompt's signal: it outlives this question, so the listener goes when the question does.
      request.signal.addEventListener('abort', onAbort, { once: true });
      const onCard = view.requestApproval(request.qualifiedName, approvalId, { scopes: request.scopes, warning: request.warning });
      if (!onCard || !viewsOpen) void this.notify(request, settle);
    });
  }

  answer(approvalId: string, answer: ApprovalAnswer): boolean {
    const settle = this.pending.get(approvalId);
    settle?.(answer);
    return settle !== undefined;
  }

  denyAll(): void {
    for (const settle of [...this.pending.values()]) settle('deny');
  }

  get waiting(): number {
    return this.pending.size;
  }

  private async notify(request: ApprovalRequest, settle: (answer: ApprovalAnswer) => void): Promise<void> {
    const args = JSON.stringify(request.args);
    const labels: Record<ApprovalScope, string> = { once: 'Allow once', chat: 'Allow for this chat', workspace: 'Always allow in this workspace' };
    const offered = request.scopes.map((scope) => labels[scope]);
    const question = `Sprout wants to run ${request.qualifiedName} ${args.length > 300 ? `${args.slice(0, 300)}…` : args}`;
    const choice = await vscode.window.showWarningMessage(request.warning ? `${request.warning}\n${question}` : question, ...offered, 'Deny');
    const scope = request.scopes.find((s) => labels[s] === choice);
    settle(scope ?? 'deny');
  }
}
