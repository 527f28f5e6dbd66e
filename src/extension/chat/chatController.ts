/**
 * The window's chat: which chat is open, the webviews showing it, and what the user's actions do. The
 * host owns the state; a webview gets a snapshot when it says `ready` and incremental messages after.
 * Every webview message was validated by the view before it reaches `handle`.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import type { AgentEvent } from '../../agent/events';
import { assertNever, type ChatState, type HostMessage, type SetupInfo, type WebviewMessage } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { createApprovalPolicy, type ApprovalSources } from '../approvals/approvalPolicy';
import type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest } from '../approvals/approvalToolHost';
import { Chat } from './chat';
import { ElicitationBroker } from './elicitationBroker';
import { type ChatIndex, chatTitle } from './chatIndex';
import type { HooksViewState } from '../hooks/hooksViewState';
import type { TestResultsMirror } from '../testing/testResultsMirror';
import type { ExtensionSettings } from '../settings/settingsMapping';

export const CONTINUE_PROMPT = 'Continue: the hook objection above is still unresolved. Address it, or explain why it cannot be done.';

export interface ChatControllerDeps {
  host: AgentHost;
  index: ChatIndex;
  hooks: HooksViewState;
  /** The Testing view's copy of the last test verdict; also opens failure locations. */
  testing: TestResultsMirror;
  logger: Logger;
  state: vscode.Memento;
  settings: () => ExtensionSettings;
  apiKey: () => string | undefined;
  /** Where pre-approvals come from (never the workspace's files). */
  approvalSources: ApprovalSources;
  onCommand: (command: string, ...args: unknown[]) => void;
}

export interface ChatViewPort {
  post(message: HostMessage): void;
}

export class ChatController {
  private chat: Chat | undefined;
  private opening: Promise<Chat> | undefined;
  private readonly views = new Set<ChatViewPort>();
  readonly approvals = new ApprovalBroker();
  /** Servers' questions go to the open chat (the hub's elicitation handler is this broker). */
  readonly elicitations = new ElicitationBroker(
    () => (this.chat === undefined ? undefined : { view: this.chat.view, visible: this.views.size > 0 }),
    () => void vscode.commands.executeCommand('sprout.chat.focus'),
  );
  notice: string | null = null;
  private readonly policy: ApprovalPolicy;

  constructor(private readonly deps: ChatControllerDeps) {
    // The card answers when a chat view shows it; otherwise the broker asks with a notification.
    this.policy = this.approvalPolicy((request) =>
      this.approvals.ask(request, this.views.size > 0 && this.chat?.view.showsApproval(request.approvalId) === true),
    );
  }

  /** The window's approval policy with a given way of asking (a task asks through a notification). */
  approvalPolicy(ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ApprovalPolicy {
    return createApprovalPolicy(this.deps.approvalSources, ask);
  }

  attach(view: ChatViewPort): vscode.Disposable {
    this.views.add(view);
    return new vscode.Disposable(() => this.views.delete(view));
  }

  /** Whether the open chat's prompt is running (its view state says; nothing else keeps this). */
  get running(): boolean {
    return this.chat?.view.running ?? false;
  }

  async current(): Promise<Chat> {
    if (this.chat) return this.chat;
    const lastId = this.deps.state.get<string>('sprout.currentChat');
    const id = lastId !== undefined && this.deps.index.get(lastId) ? lastId : randomUUID();
    this.opening ??= this.open(id).finally(() => (this.opening = undefined));
    return this.opening;
  }

  async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendSnapshot();
      case 'send':
        return this.send(message.text);
      case 'stop':
        return this.stop();
      case 'newChat':
        return this.newChat();
      case 'openChat':
        return this.openChat(message.chatId);
      case 'approve':
        this.approvals.answer(message.approvalId, message.scope);
        return;
      case 'deny':
        this.approvals.answer(message.approvalId, 'deny');
        return;
      case 'continueAnyway':
        return this.continueAnyway();
      case 'draft':
        await this.deps.state.update('sprout.draft', message.text);
        return;
      case 'setup':
        if (message.action === 'useVscodeModel') this.deps.onCommand('sprout.selectModel', { source: 'vscode' });
        else this.deps.onCommand({ setApiKey: 'sprout.setApiKey', selectModel: 'sprout.selectModel', setBaseUrl: 'sprout.setBaseUrl' }[message.action]);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        return;
      case 'elicitationAnswer':
        this.elicitations.reply(message.id, message.action === 'accept' ? { action: 'accept', content: message.content ?? {} } : { action: message.action });
        return;
      case 'openLocation':
        return this.deps.testing.openLocation(message.file, message.line);
      case 'showInTesting':
        return this.deps.testing.reveal();
      default:
        assertNever(message);
    }
  }

  setupNeeded(): SetupInfo | null {
    return this.deps.host.models.setup();
  }

  async send(text: string): Promise<void> {
    const chat = await this.current();
    if (chat.view.running) return void vscode.window.showInformationMessage('Sprout is still working on the last prompt; stop it first or wait.');
    // Before the first prompt VS Code's models may not be listed yet; `auto` needs them to decide.
    await this.deps.host.models.prepare();
    const setup = this.setupNeeded();
    if (setup) {
      this.broadcast({ type: 'setup', setup });
      return;
    }
    chat.session.updateSettings(this.deps.host.models.agentSettings());
    await this.deps.state.update('sprout.draft', '');
    this.deps.index.touch(chat.id, chatTitle(text), Date.now());
    this.broadcast({ type: 'history', history: this.deps.index.list() });
    await this.deps.host.ensureServers();
    await chat.run(text);
    this.deps.index.touch(chat.id, undefined, Date.now());
  }

  async stop(): Promise<void> {
    this.chat?.stop();
    this.approvals.denyAll();
    this.elicitations.cancelAll();
  }

  async continueAnyway(): Promise<void> {
    const chat = await this.current();
    chat.session.resetBudget();
    await this.send(CONTINUE_PROMPT);
  }

  async newChat(): Promise<void> {
    await this.switchTo(randomUUID());
  }

  async openChat(chatId: string): Promise<void> {
    if (!this.deps.index.get(chatId)) return;
    await this.switchTo(chatId);
  }

  applySettings(): void {
    this.chat?.session.updateSettings(this.deps.host.models.agentSettings());
    this.broadcast({ type: 'setup', setup: this.setupNeeded() });
  }

  setNotice(notice: string | null): void {
    this.notice = notice;
    this.broadcast({ type: 'notice', notice });
  }

  focusInput(text?: string): void {
    this.broadcast({ type: 'focusInput', text });
  }

  broadcast(message: HostMessage): void {
    for (const view of this.views) view.post(message);
  }

  async snapshot(): Promise<ChatState> {
    const chat = await this.current();
    return {
      chatId: chat.id,
      entries: chat.view.entries,
      running: chat.view.running,
      draft: this.deps.state.get<string>('sprout.draft') ?? '',
      history: this.deps.index.list(),
      setup: this.setupNeeded(),
      notice: this.notice,
      budget: chat.view.budget,
    };
  }

  async dispose(): Promise<void> {
    this.chat?.dispose();
    this.chat = undefined;
  }

  private async sendSnapshot(): Promise<void> {
    this.broadcast({ type: 'snapshot', state: await this.snapshot() });
  }

  private async switchTo(chatId: string): Promise<void> {
    const old = this.chat ?? (await this.opening);
    old?.dispose();
    this.chat = undefined;
    this.approvals.denyAll();
    this.elicitations.cancelAll();
    this.opening = this.open(chatId).finally(() => (this.opening = undefined));
    await this.opening;
    await this.sendSnapshot();
  }

  /** The views beside the chat's own: the Hooks view and the Testing view's mirror. */
  private viewEvent(event: AgentEvent, at: number): void {
    this.deps.hooks.apply(event, at);
    this.deps.testing.apply(event);
  }

  private async open(chatId: string): Promise<Chat> {
    this.deps.hooks.resetChat();
    const chat = await Chat.open(
      chatId,
      this.deps.index.transcriptPath(chatId),
      {
        host: this.deps.host,
        logger: this.deps.logger,
        settings: this.deps.settings,
        policy: this.policy,
        post: (message) => this.broadcast(message),
        onEvent: (event: AgentEvent, at: number) => this.viewEvent(event, at),
      },
      (event, at) => this.viewEvent(event, at),
    );
    this.chat = chat;
    await this.deps.state.update('sprout.currentChat', chatId);
    return chat;
  }
}
