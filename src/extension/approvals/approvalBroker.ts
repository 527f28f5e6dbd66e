/**
 * Waits for the user's answer to a tool call's question: from the approve/deny buttons on the call's
 * card (the card shows them because the question is an event the chat view folds), or from a
 * notification when no chat view shows that card (a `sprout` task, a hidden view). Cancelling the
 * prompt counts as a denial, so a stopped run never waits on a question nobody will answer.
 */
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalRequest } from './approvalToolHost';
import type { ApprovalScope } from '../../agent/ports';

export class ApprovalBroker {
  private readonly pending = new Map<string, (answer: ApprovalAnswer) => void>();
  private readonly listeners = new Set<() => void>();

  /** The number of waiting questions changed (the chat view's badge follows it). */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** `onCard`: a visible chat shows this question on its card, so no notification is needed. */
  ask(request: ApprovalRequest, onCard: boolean): Promise<ApprovalAnswer> {
    const approvalId = request.approvalId;
    if (request.signal.aborted) return Promise.resolve('deny');
    return new Promise((resolve) => {
      const onAbort = (): void => settle('deny');
      const settle = (answer: ApprovalAnswer): void => {
        if (!this.pending.delete(approvalId)) return;
        request.signal.removeEventListener('abort', onAbort);
        this.changed();
        resolve(answer);
      };
      this.pending.set(approvalId, settle);
      this.changed();
      // The prompt's signal: it outlives this question, so the listener goes when the question does.
      request.signal.addEventListener('abort', onAbort, { once: true });
      if (!onCard) void this.notify(request, settle);
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
    const labels: Record<ApprovalScope, string> = { once: 'Allow once', chat: 'Allow for this chat', workspace: 'Always allow in this workspace', rule: `Always allow "${request.rule ?? ''}"` };
    const offered = request.scopes.map((scope) => labels[scope]);
    const question = `Sprout wants to run ${request.qualifiedName} ${args.length > 300 ? `${args.slice(0, 300)}…` : args}`;
    const choice = await vscode.window.showWarningMessage(request.warning ? `${request.warning}\n${question}` : question, ...offered, 'Deny');
    const scope = request.scopes.find((s) => labels[s] === choice);
    settle(scope ?? 'deny');
  }
}
