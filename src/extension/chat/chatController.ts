/**
 * The window's chat: which chat is open, the webviews showing it, and what the user's actions do. The
 * host owns the state; a webview gets a snapshot when it says `ready` and incremental messages after.
 * Every webview message was validated by the view before it reaches `handle`. A prompt sent before
 * setup is done is kept and sent once it is; a question waiting for the user (an approval) is counted
 * for the views' badge and asked by notification when no visible view shows it.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent/events';
import { type AttachmentRef, type ChatState, type HostMessage, type SetupInfo, type WebviewMessage } from '../../shared/protocol';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { createApprovalPolicy } from '../approvals/approvalPolicy';
import type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest } from '../approvals/approvalToolHost';
import { Chat } from './chat';
import { ElicitationBroker } from './elicitationBroker';
import { chatTitle } from './chatIndex';
import type { ChatControllerDeps, ChatViewPort } from './chatControllerDeps';
import { readAttachments } from './attachments';
import { handleControl, type ControlContext } from './chatControls';
import { showChatHistory } from './chatHistory';
import { undoTurn } from '../checkpoints/turnChanges';
import { CheckpointStore } from '../checkpoints/checkpointStore';

export const CONTINUE_PROMPT = 'Continue: the hook objection above is still unresolved. Address it, or explain why it cannot be done.';

export type { ChatControllerDeps, ChatViewPort } from './chatControllerDeps';

/** A prompt sent before setup was done, with what was attached to it. */
type PendingPrompt = { text: string; attachments: AttachmentRef[] };

export class ChatController {
  private chat: Chat | undefined;
  private opening: Promise<Chat> | undefined;
  private readonly views = new Set<ChatViewPort>();
  readonly approvals = new ApprovalBroker();
  /** Servers' questions go to the open chat (the hub's elicitation handler is this broker). */
  readonly elicitations = new ElicitationBroker(
    () => (this.chat === undefined ? undefined : { view: this.chat.view, visible: [...this.views].some((v) => v.visible()) }),
    () => void vscode.commands.executeCommand('sprout.chat.focus'),
  );
  notice: string | null = null;
  /** The notice the user dismissed; it stays away for this window's life unless it changes. */
  private dismissedNotice: string | null = null;
  /** The hooks line the views show now (as sent), so an unchanged one is not sent again. */
  private shownHooks: string | undefined;
  private pending: PendingPrompt | undefined;
  private readonly policy: ApprovalPolicy;

  constructor(private readonly deps: ChatControllerDeps) {
    // The card answers when a visible chat view shows it; otherwise the broker asks with a notification too.
    this.policy = this.approvalPolicy((request) => this.approvals.ask(request, this.shownOnCard(request.approvalId)));
  }

  private shownOnCard(approvalId: string): boolean {
    return [...this.views].some((v) => v.visible()) && this.chat?.view.showsApproval(approvalId) === true;
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
    const lastId = this.deps.index.lastOpen ?? this.deps.state.get<string>('sprout.currentChat');
    const id = lastId !== undefined && this.deps.index.get(lastId) ? lastId : randomUUID();
    this.opening ??= this.open(id).finally(() => (this.opening = undefined));
    return this.opening;
  }

  async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendSnapshot();
      case 'send':
        return this.send(message.text, message.attachments);
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
        return handleControl(message, this.controls);
    }
  }

  /** What the chat's smaller controls use of this controller (chatControls.ts). */
  private readonly controls: ControlContext = {
    current: () => this.current(),
    undoTurn: (turn) => this.undoTurn(turn),
    showHistory: () => this.showHistory(),
    onCommand: (command, ...args) => this.deps.onCommand(command, ...args),
    broadcast: (message) => this.broadcast(message),
    dismissNotice: () => void (this.dismissedNotice = this.notice),
    dropPending: () => void (this.pending = undefined),
    setupNeeded: () => this.setupNeeded(),
  };

  setupNeeded(): SetupInfo | null {
    const setup = this.deps.host.models.setup();
    return setup && this.pending ? { ...setup, pendingPrompt: this.pending.text } : setup;
  }

  async send(text: string, attachments: AttachmentRef[] = []): Promise<void> {
    const chat = await this.current();
    if (chat.view.running) return void vscode.window.showInformationMessage('Sprout is still working on the last prompt; stop it first or wait.');
    // Before the first prompt VS Code's models may not be listed yet; `auto` needs them to decide.
    await this.deps.host.models.prepare();
    if (this.setupNeeded()) {
      // Kept, not lost: the setup card shows it, and it goes out once setup is done.
      this.pending = { text, attachments };
      this.broadcast({ type: 'setup', setup: this.setupNeeded() });
      return;
    }
    chat.session.updateSettings(this.deps.host.models.agentSettings());
    await this.deps.state.update('sprout.draft', '');
    this.deps.index.touch(chat.id, chatTitle(text), Date.now());
    this.broadcastHistory();
    const attached = await readAttachments(attachments, text);
    await this.deps.host.ensureServers();
    await chat.run(text, attached);
    this.deps.index.touch(chat.id, undefined, Date.now());
    this.broadcastHistory();
  }

  private broadcastHistory(): void {
    this.broadcast({ type: 'history', history: this.deps.index.list() });
    this.onHistory?.(this.currentTitle);
  }

  /** Told the open chat's title when it changes (the view shows it as its description). */
  onHistory: ((title: string | undefined) => void) | undefined;

  get currentTitle(): string | undefined {
    return this.deps.index.get(this.chat?.id ?? '')?.title;
  }

  /** Setup may be done now: a prompt that waited for it goes out. */
  private sendPending(): void {
    const pending = this.pending;
    if (!pending || this.setupNeeded()) return;
    this.pending = undefined;
    this.send(pending.text, pending.attachments).catch((error: unknown) => this.deps.logger.error('the prompt kept during setup failed', { message: String(error) }));
  }

  showHistory(): void {
    showChatHistory({
      list: () => this.deps.index.list(),
      currentId: () => this.chat?.id,
      open: (id) => this.openChat(id),
      rename: (id, title) => (this.deps.index.rename(id, title), this.broadcastHistory()),
      remove: async (id) => {
        if (id === this.chat?.id) await this.newChat();
        this.deps.index.remove(id);
        this.broadcastHistory();
      },
    });
  }

  async undoTurn(turn: number): Promise<boolean> {
    return undoTurn(await this.current(), turn);
  }

  /** A chat's checkpoints for the diff editor: the open chat's, or read from its file. */
  checkpointsOf(chatId: string): CheckpointStore {
    return this.chat?.id === chatId ? this.chat.checkpoints : new CheckpointStore(this.deps.index.files(chatId).changes);
  }

  /** Questions waiting for the user's answer, approvals and servers' questions (for the views' badge). */
  get waiting(): number {
    return this.approvals.waiting + this.elicitations.waiting;
  }

  /** The number of waiting questions changed. */
  onWaitingChange(listener: () => void): () => void {
    const stops = [this.approvals.onDidChange(listener), this.elicitations.onDidChange(listener)];
    return () => stops.forEach((stop) => stop());
  }

  async stop(): Promise<void> {
    this.chat?.stop();
    this.dropQuestions();
  }

  /** Questions waiting for the user are answered no: the chat they were asked in stopped or went. */
  private dropQuestions(): void {
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
    this.broadcast({ type: 'model', model: this.deps.host.models.inUse() });
    this.broadcastHooks();
    this.sendPending();
  }

  /**
   * The hooks line, to every view, when it reads differently from what they show: the Hooks view's
   * state changes with every hook event (each one replayed when a chat opens, too), its summary rarely.
   */
  broadcastHooks(): void {
    const hooks = this.deps.hooksSummary();
    const shown = JSON.stringify(hooks);
    if (shown === this.shownHooks) return;
    this.shownHooks = shown;
    this.broadcast({ type: 'hooks', hooks });
  }

  setNotice(notice: string | null): void {
    this.notice = notice;
    this.broadcast({ type: 'notice', notice: this.shownNotice() });
  }

  private shownNotice(): string | null {
    return this.notice !== null && this.notice === this.dismissedNotice ? null : this.notice;
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
      notice: this.shownNotice(),
      budget: chat.view.budget,
      usage: chat.view.usage,
      hooks: this.deps.hooksSummary(),
      model: this.deps.host.models.inUse(),
    };
  }

  /** The window is closing: the open chat's session ends (`_SessionEnd` "closed", best effort within the hook timeout). */
  async dispose(): Promise<void> {
    const chat = this.chat;
    this.chat = undefined;
    await chat?.close('closed');
  }

  private async sendSnapshot(): Promise<void> {
    this.broadcast({ type: 'snapshot', state: await this.snapshot() });
  }

  private async switchTo(chatId: string): Promise<void> {
    const old = this.chat ?? (await this.opening);
    this.chat = undefined;
    // The replaced chat's session ends in the background (within the hook timeout): the switch does not wait for its hooks.
    void old?.close('new_chat');
    this.dropQuestions();
    this.opening = this.open(chatId).finally(() => (this.opening = undefined));
    await this.opening;
    await this.sendSnapshot();
    this.broadcastHistory();
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
      this.deps.index.files(chatId),
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
    this.deps.index.setLastOpen(chatId);
    await this.deps.state.update('sprout.currentChat', chatId);
    return chat;
  }
}
