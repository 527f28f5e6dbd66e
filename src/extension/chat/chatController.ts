/**
 * The window's open chat and switching between chats: which chat is open (one at a time, reopened
 * from its transcript), sending a prompt to it (kept while setup is not done, and sent once it is),
 * stopping it, starting or opening another, and its running flag (the chat's own, `Chat.running`).
 * The open chat speaks to the views by itself (its view state posts its entries, its events go on
 * the window's view events); this controller only says which chat that is.
 */
import { windowInstructions, windowSkills } from './chatInstructions';
import { runSlashCommand, slashCommandList } from './chatCommands';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import type { AttachmentRef, ChatMode, ImageInput, SetupInfo, SlashCommandInfo } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';
import { undoTurn } from '../checkpoints/turnChanges';
import { CheckpointStore } from '../checkpoints/checkpointStore';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { ViewEvents } from '../viewEvents';
import { readAttachments } from './attachments';
import { readMentions } from './contextMentions';
import type { ResourceHost } from '../../agent/resources';
import { checkSentImages } from './composerImages';
import { Chat } from './chat';
import { chatTitle, type ChatIndex } from './chatIndex';
import { showChatHistory } from './chatHistory';
import { DRAFT_KEY, type ChatFacts, type ChatViews } from './chatViews';
import type { QuestionBrokers } from './questionBrokers';

export const CONTINUE_PROMPT = 'Continue: the hook objection above is still unresolved. Address it, or explain why it cannot be done.';

const OPEN_CHAT_KEY = 'sprout.currentChat';

export interface ChatControllerDeps {
  host: AgentHost;
  index: ChatIndex;
  logger: Logger;
  state: vscode.Memento;
  settings: () => ExtensionSettings;
  views: ChatViews;
  questions: QuestionBrokers;
  events: ViewEvents;
}

/** A prompt sent before setup was done, with what was attached to it. */
type PendingPrompt = { text: string; attachments: AttachmentRef[]; images: ImageInput[]; mode?: ChatMode };

export class ChatController {
  private chat: Chat | undefined;
  private opening: Promise<Chat> | undefined;
  private pending: PendingPrompt | undefined;

  constructor(private readonly deps: ChatControllerDeps) {}

  /** Whether the open chat's prompt runs. */
  get running(): boolean {
    return this.chat?.running ?? false;
  }

  /** The open chat (the one open last, reopened from its transcript, or a new one). */
  async current(): Promise<Chat> {
    if (this.chat) return this.chat;
    const lastId = this.deps.index.lastOpen ?? this.deps.state.get<string>(OPEN_CHAT_KEY);
    const id = lastId !== undefined && this.deps.index.get(lastId) ? lastId : randomUUID();
    this.opening ??= this.open(id).finally(() => (this.opening = undefined));
    return this.opening;
  }

  /** The setup card, with the prompt kept for it; null when a model is ready. */
  setupNeeded(): SetupInfo | null {
    const setup = this.deps.host.modelSources.setup();
    return setup && this.pending ? { ...setup, pendingPrompt: this.pending.text } : setup;
  }

  /** The servers' resources, for the `#` menu's `#resource:` (mentionCompletions.ts). */
  get resources(): ResourceHost | undefined {
    return this.deps.host.tools.resources;
  }

  /** The commands the composer's `/` menu lists. */
  slashCommands(): SlashCommandInfo[] {
    return slashCommandList(this.deps.host.workspaceFolder);
  }

  facts(): ChatFacts {
    return { setup: this.setupNeeded(), model: this.deps.host.modelSources.inUse() };
  }

  async send(typed: string, attachments: AttachmentRef[] = [], sentImages: ImageInput[] = [], pickedMode?: ChatMode): Promise<void> {
    // A slash command: Sprout's own runs here; a prompt file becomes the prompt (in its mode, when it names one).
    const slash = await runSlashCommand(typed, this.deps.host.workspaceFolder);
    if (slash.kind === 'done') return;
    if (slash.kind === 'refused') return void this.deps.views.broadcast({ type: 'focusInput', text: typed });
    const text = slash.kind === 'prompt' ? slash.text : typed;
    const mode = slash.kind === 'prompt' && slash.mode !== undefined ? slash.mode : pickedMode;
    const chat = await this.current();
    if (chat.running) return void vscode.window.showInformationMessage('Sprout is still working on the last prompt; stop it first or wait.');
    const { images, refusals } = checkSentImages(sentImages);
    if (refusals.length > 0) return this.refuseImages(text, refusals);
    // Before the first prompt VS Code's models may not be listed yet; `auto` needs them to decide.
    await this.deps.host.modelSources.prepare();
    if (this.setupNeeded()) {
      // Kept, not lost: the setup card shows it, and it goes out once setup is done.
      this.pending = { text, attachments, images, ...(mode === undefined ? {} : { mode }) };
      this.deps.views.showFacts(this.facts());
      return;
    }
    chat.session.updateSettings(this.deps.host.agentSettings());
    await this.deps.state.update(DRAFT_KEY, '');
    this.deps.index.touch(chat.id, chatTitle(text), Date.now());
    await chat.run(text, async () => {
      const attached = await readAttachments(attachments, text);
      await this.deps.host.ensureServers();
      // After the servers: `#resource:` reads from them.
      attached.push(...(await readMentions(text, this.deps.host.tools.resources)));
      // The hook files that run were settled while the servers started (consent): the session calls them too.
      chat.session.updateSettings(this.deps.host.agentSettings());
      return attached;
    }, { images, ...(mode === undefined ? {} : { mode }) });
    this.deps.index.touch(chat.id, undefined, Date.now());
  }

  /** Images the message box had checked, refused when sent (the webview's word is not taken): the text goes back to the box. */
  private refuseImages(text: string, refusals: string[]): void {
    void vscode.window.showWarningMessage(`Sprout did not send the message: ${refusals.join(' ')}`);
    this.deps.views.broadcast({ type: 'focusInput', text });
  }

  /** The prompt kept during setup is dropped (its text went back to the message box). */
  dropPending(): void {
    this.pending = undefined;
    this.deps.views.showFacts(this.facts());
  }

  /** Settings, the key or VS Code's models changed: the open chat, the setup card and the model button follow; a kept prompt goes out once setup is done. */
  applySettings(): void {
    this.chat?.session.updateSettings(this.deps.host.agentSettings());
    this.deps.views.showFacts(this.facts());
    const pending = this.pending;
    if (!pending || this.setupNeeded()) return;
    this.pending = undefined;
    this.send(pending.text, pending.attachments, pending.images, pending.mode).catch((error: unknown) => this.deps.logger.error('the prompt kept during setup failed', { message: String(error) }));
  }

  async stop(): Promise<void> {
    this.chat?.stop();
    this.deps.questions.dropAll();
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

  /** Past chats in a quick pick: open, rename or delete one. */
  showHistory(): void {
    const index = this.deps.index;
    showChatHistory({
      list: () => index.list(),
      currentId: () => this.chat?.id,
      open: (id) => this.openChat(id),
      rename: (id, title) => index.rename(id, title),
      remove: async (id) => {
        if (id === this.chat?.id) await this.newChat();
        index.remove(id);
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

  /** The open chat's title, if it has one yet (the view shows it as its description). */
  get currentTitle(): string | undefined {
    return this.deps.index.get(this.chat?.id ?? '')?.title;
  }

  /** The window is closing: the open chat's session ends (`_SessionEnd` "closed", best effort within the hook timeout). */
  async dispose(): Promise<void> {
    const chat = this.chat;
    this.chat = undefined;
    this.deps.questions.showOn(undefined);
    await chat?.close('closed');
  }

  private async switchTo(chatId: string): Promise<void> {
    const old = this.chat ?? (await this.opening);
    this.chat = undefined;
    this.deps.questions.showOn(undefined);
    // The replaced chat's session ends in the background (within the hook timeout): the switch does not wait for its hooks.
    void old?.close('new_chat');
    this.deps.questions.dropAll();
    this.opening = this.open(chatId).finally(() => (this.opening = undefined));
    const chat = await this.opening;
    this.deps.views.sendSnapshot(chat, this.facts());
  }

  private async open(chatId: string): Promise<Chat> {
    const chat = await Chat.open(chatId, this.deps.index.files(chatId), {
      host: this.deps.host,
      logger: this.deps.logger,
      settings: this.deps.settings,
      policy: this.deps.questions.chatPolicy,
      post: (message) => this.deps.views.broadcast(message),
      events: this.deps.events,
      instructions: windowInstructions(this.deps.host.workspaceFolder, this.deps.settings),
      skills: windowSkills(this.deps.host.workspaceFolder),
    });
    this.chat = chat;
    this.deps.questions.showOn(chat.view);
    this.deps.index.setLastOpen(chatId);
    await this.deps.state.update(OPEN_CHAT_KEY, chatId);
    return chat;
  }
}
