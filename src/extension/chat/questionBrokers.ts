/**
 * The questions Sprout puts to the user while an agent works: tool approvals (the approval broker) and
 * MCP servers' questions (the elicitation broker, the hub's elicitation handler). Both show on the open
 * chat's cards, which the chat controller names here when a chat opens; when no visible chat view shows
 * a question, it is asked by notification too. A `sprout` task's chat, which no view shows, asks by
 * notification only. Together they are the views' badge: how many questions wait.
 */
import { ApprovalBroker } from '../approvals/approvalBroker';
import { createApprovalPolicy, type ApprovalSources } from '../approvals/approvalPolicy';
import type { ApprovalPolicy } from '../approvals/approvalToolHost';
import type { ChatViewState } from './chatViewState';
import { ElicitationBroker } from './elicitationBroker';

export interface QuestionBrokersDeps {
  /** Where pre-approvals come from (never the workspace's files). */
  approvalSources: ApprovalSources;
  /** Whether a chat view is visible to the user now. */
  visible: () => boolean;
  /** Brings the chat into view (a notification's "Show Chat"). */
  showChat: () => void;
}

export class QuestionBrokers {
  readonly approvals = new ApprovalBroker();
  readonly elicitations: ElicitationBroker;
  /** The open chat's cards, or none while chats switch. */
  private cards: ChatViewState | undefined;
  /** The open chat's policy: a question on a card of a visible view is answered there, else by notification too. */
  readonly chatPolicy: ApprovalPolicy;
  /** A task's policy: no view shows its chat, so its questions are notifications. */
  readonly notificationPolicy: ApprovalPolicy;

  constructor(private readonly deps: QuestionBrokersDeps) {
    this.elicitations = new ElicitationBroker(() => (this.cards === undefined ? undefined : { view: this.cards, visible: deps.visible() }), deps.showChat);
    this.chatPolicy = createApprovalPolicy(deps.approvalSources, (request) => this.approvals.ask(request, this.shownOnCard(request.approvalId)));
    this.notificationPolicy = createApprovalPolicy(deps.approvalSources, (request) => this.approvals.ask(request, false));
  }

  /** The chat whose cards show questions from now on (undefined: none, while chats switch). */
  showOn(cards: ChatViewState | undefined): void {
    this.cards = cards;
  }

  /** The chat open now (a sampling allowance "in this chat" is about it). */
  get openChat(): ChatViewState | undefined {
    return this.cards;
  }

  private shownOnCard(approvalId: string): boolean {
    return this.deps.visible() && this.cards?.showsApproval(approvalId) === true;
  }

  /** Questions waiting for the user's answer (the views' badge). */
  get waiting(): number {
    return this.approvals.waiting + this.elicitations.waiting;
  }

  onWaitingChange(listener: () => void): () => void {
    const stops = [this.approvals.onDidChange(listener), this.elicitations.onDidChange(listener)];
    return () => stops.forEach((stop) => stop());
  }

  /** Every waiting question is answered no: the chat it was asked in stopped or went. */
  dropAll(): void {
    this.approvals.denyAll();
    this.elicitations.cancelAll();
  }
}
