/**
 * The window's open chat and switching between chats: which chat is open (one at a time, reopened
 * from its transcript), sending a prompt to it (kept while setup is not done, and sent once it is),
 * stopping it, starting or opening another, and its running flag (the chat's own, `Chat.running`).
 * The open chat speaks to the views by itself (its view state posts its entries, its events go on
 * the window's view events); this controller only says which chat that is.
 */
import type { SproutTerminals } from '../terminal/sproutTerminals';
import { windowAgents, windowInstructions, windowSkills } from './chatInstructions';
import { agentRunModel } from './agentModels';
import { quotedName } from '../../agent/nameText';
import type { PromptOptions } from '../../agent/promptAttachments';
import { findAgent } from '../../customizations/agentFiles';
import { runSlashCommand, slashCommandList } from './chatCommands';
import { askArgumentInBox, mcpSlashCommands, ServerPromptMenu, type ServerPromptUi } from './mcpPromptCommands';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import type { AgentChoice, AttachmentRef, ChatMode, ImageInput, SetupInfo, SlashCommandInfo } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';
import { undoTurn } from '../checkpoints/turnChanges';
import { approvedPlanPrompt, planSteps } from '../../agent/planSteps';
import { writePlan } from '../../runtime/planApproval';
import { CheckpointStore } from '../../runtime/checkpointStore';
import { planRename, type RenameArgs } from '../editorServer/renameSymbol';
import { EDITOR_SERVER_NAME } from '../editorServer/editorServerName';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { ViewEvents } from '../viewEvents';
import { readAttachments } from './attachments';
import { readMentions } from './contextMentions';
import { mentionedResources } from '../../agent/contextMentions';
import type { ResourceHost } from '../../agent/resources';
import { checkSentImages } from './composerImages';
import { Chat } from './chat';
import { applyRewind, confirmRewind, planBackToGreen, planRewind, type RewindTarget } from './chatRewind';
import type { RewindPlan } from '../../agent/rewind';
import { chatTitle, type ChatIndex } from './chatIndex';
import { showChatHistory } from './chatHistory';
import { DRAFT_KEY, type ChatFacts, type ChatViews } from './chatViews';
import type { QuestionBrokers } from './questionBrokers';
import { type PickToolsArg, pickTools } from './toolPicker';
import type { ToolSelection } from '../../agent/toolSelection';

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
  /** The window's Sprout terminals, where `run_command` runs when `sprout.tools.runInTerminal` is on. */
  terminals?: SproutTerminals;
  /** VS Code's user prompts folder, where its user-level custom agents live. */
  userPrompts?: string;
}

/** A prompt sent before setup was done, with what was attached to it. */
type PendingPrompt = { text: string; attachments: AttachmentRef[]; images: ImageInput[]; mode?: ChatMode; agent?: string };

export class ChatController {
  private chat: Chat | undefined;
  private opening: Promise<Chat> | undefined;
  private pending: PendingPrompt | undefined;
  /** The model each chat's last prompt runs on when its agent named one (undefined: the chat's). */
  private readonly runModels = new WeakMap<Chat, string | undefined>();
  /** The modal before a rewind overwrites the user's edits; the editor tests answer it. */
  confirmRewind: RewindTarget['confirm'] = confirmRewind;

  /** How an MCP prompt's arguments are asked (editor tests answer them here). */
  serverPrompts: ServerPromptUi = { askArgument: askArgumentInBox };

  constructor(private readonly deps: ChatControllerDeps) {
    // The `/` menu follows the servers: one starting or stopping, or saying its prompts changed.
    new ServerPromptMenu(deps.host, () => void this.slashCommands().then((commands) => deps.views.broadcast({ type: 'commands', commands })));
  }

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

  /** The servers' resources once the servers are up (the Attach menu's Resource…). */
  async startedResources(): Promise<ResourceHost | undefined> {
    await this.deps.host.ensureServers();
    return this.deps.host.tools.resources;
  }

  /** The commands the composer's `/` menu lists: Sprout's own, the prompt files, the running servers' prompts. */
  async slashCommands(): Promise<SlashCommandInfo[]> {
    return [...slashCommandList(this.deps.host.workspaceFolder), ...(await mcpSlashCommands(this.deps.host.currentHub))];
  }

  /** The custom agents the mode picker lists. */
  agentChoices(): AgentChoice[] {
    return windowAgents(this.deps.host.workspaceFolder, this.deps.userPrompts)().agents.map((a) => ({ name: a.name, description: a.description, source: a.source }));
  }

  facts(): ChatFacts {
    return { setup: this.setupNeeded(), model: this.deps.host.modelSources.inUse() };
  }

  async send(typed: string, attachments: AttachmentRef[] = [], sentImages: ImageInput[] = [], pickedMode?: ChatMode, pickedAgent?: string): Promise<void> {
    // A slash command: Sprout's own runs here; a prompt file becomes the prompt (in its mode, when it names one).
    const slash = await runSlashCommand(typed, this.deps.host.workspaceFolder, { host: this.deps.host, ui: this.serverPrompts });
    if (slash.kind === 'done') return;
    if (slash.kind === 'refused') return void this.deps.views.broadcast({ type: 'focusInput', text: typed });
    const text = slash.kind === 'prompt' ? slash.text : typed;
    const mode = slash.kind === 'prompt' && slash.mode !== undefined ? slash.mode : pickedMode;
    // Without a picked agent, the window's custom agents are still the ones `sprout__delegate` may name.
    const picked = pickedAgent === undefined ? { agents: windowAgents(this.deps.host.workspaceFolder, this.deps.userPrompts)().agents } : this.pickedAgent(pickedAgent, typed);
    if (picked === null) return;
    const chat = await this.current();
    if (chat.running) return void vscode.window.showInformationMessage('Sprout is still working on the last prompt; stop it first or wait.');
    const checked = checkSentImages(sentImages);
    if (checked.refusals.length > 0) return this.refuseImages(text, checked.refusals);
    const images = slash.kind === 'prompt' && slash.images !== undefined ? [...checked.images, ...slash.images] : checked.images;
    // Before the first prompt VS Code's models may not be listed yet; `auto` needs them to decide.
    await this.deps.host.modelSources.prepare();
    if (this.setupNeeded()) {
      // Kept, not lost: the setup card shows it, and it goes out once setup is done.
      this.pending = { text, attachments, images, ...(mode === undefined ? {} : { mode }), ...(pickedAgent === undefined ? {} : { agent: pickedAgent }) };
      this.deps.views.showFacts(this.facts());
      return;
    }
    // A picked agent's own model, where Sprout can reach it (agentModels.ts); the chat's otherwise.
    const { options: agents, model } = await agentRunModel(picked, this.deps.host.modelSources);
    this.runModels.set(chat, model);
    chat.session.updateSettings(this.deps.host.agentSettings(model));
    await this.deps.state.update(DRAFT_KEY, '');
    this.deps.index.touch(chat.id, chatTitle(text), Date.now());
    await chat.run(text, async () => {
      const attached = await readAttachments(attachments, text);
      await this.deps.host.ensureServers();
      // After the servers: `#resource:` reads from them.
      attached.push(...(await readMentions(text, this.deps.host.tools.resources)));
      // The hook files that run were settled while the servers started (consent): the session calls them too.
      chat.session.updateSettings(this.deps.host.agentSettings(model));
      return attached;
    }, { images, ...(mode === undefined ? {} : { mode }), ...agents, resources: mentionedResources(text) });
    this.deps.views.broadcast({ type: 'handoffs', handoffs: [...(agents.agent?.handoffs ?? [])] });
    this.deps.index.touch(chat.id, undefined, Date.now());
  }

  /**
   * The plan card's Approve: the steps as the user left them become the todo server's list (where the
   * todo `_Stop` holds the agent to them), and the plan runs in Agent mode. Nothing is written when the
   * text has no numbered steps or the todo server is off; the user is told which.
   */
  async approvePlan(text: string): Promise<void> {
    const chat = await this.current();
    if (chat.running) return void vscode.window.showInformationMessage('Sprout is still working on the last prompt; stop it first or wait.');
    const hub = await this.deps.host.ensureServers();
    const written = await writePlan(chat.id, planSteps(text), hub, new AbortController().signal);
    if (!written.ok) return void vscode.window.showWarningMessage(`Sprout: ${written.message}`);
    await this.send(approvedPlanPrompt(written.steps), [], [], 'agent');
  }

  /** The agent picked, read anew (its file may have changed); null when it is gone (said, the text back in the box). */
  private pickedAgent(name: string, typed: string): Pick<PromptOptions, 'agent' | 'agents'> | null {
    const set = windowAgents(this.deps.host.workspaceFolder, this.deps.userPrompts)();
    const found = findAgent(set.agents, name);
    if (found === undefined) {
      void vscode.window.showWarningMessage(`Sprout did not send the message: the agent ${quotedName(name)} is no longer found (its file was removed or renamed, or the workspace is not trusted).`);
      this.deps.views.broadcast({ type: 'agents', agents: this.agentChoices() });
      this.deps.views.broadcast({ type: 'focusInput', text: typed });
      return null;
    }
    return { agent: found, agents: set.agents };
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
    if (this.chat) this.chat.session.updateSettings(this.deps.host.agentSettings(this.runModels.get(this.chat)));
    this.deps.views.showFacts(this.facts());
    const pending = this.pending;
    if (!pending || this.setupNeeded()) return;
    this.pending = undefined;
    this.send(pending.text, pending.attachments, pending.images, pending.mode, pending.agent).catch((error: unknown) => this.deps.logger.error('the prompt kept during setup failed', { message: String(error) }));
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

  /** The open chat's tool picker (toolPicker.ts); the tools button then shows the choice. */
  async pickTools(arg?: PickToolsArg): Promise<ToolSelection | undefined> {
    const chat = await this.current();
    const choice = await pickTools(this.deps.host, chat, arg, this.deps.userPrompts);
    if (this.chat === chat) this.deps.views.sendToolsOff(chat);
    return choice;
  }

  async undoTurn(turn: number): Promise<boolean> {
    return undoTurn(await this.current(), turn);
  }

  /** Rewind to here on user message `prompt` (1-based); true when the chat went back (files put back, text in the message box). */
  async rewind(prompt: number): Promise<boolean> {
    const target = this.rewindTarget(await this.current());
    const plan = await planRewind(target, prompt);
    return plan !== undefined && this.rewound(target, plan);
  }

  /** Back to last green: to the end of the newest turn whose `_Stop` checks all passed. */
  async backToGreen(): Promise<boolean> {
    const target = this.rewindTarget(await this.current());
    const plan = await planBackToGreen(target);
    return plan !== undefined && this.rewound(target, plan);
  }

  private rewindTarget(chat: Chat): RewindTarget {
    return { chat, transcript: this.deps.index.files(chat.id).transcript, workspaceServer: this.deps.host.bundledWorkspaceServer, serversStateDir: this.deps.host.serversStateDir, confirm: this.confirmRewind };
  }

  /** The chat reopens from its rewound transcript (no `_SessionEnd`: the conversation goes on), and the message's text returns to the box. */
  private async rewound(target: RewindTarget, plan: RewindPlan): Promise<boolean> {
    if (!(await applyRewind(target, plan))) return false;
    if (this.chat === target.chat) this.chat = undefined;
    this.deps.questions.showOn(undefined);
    target.chat.dispose();
    this.opening = this.open(target.chat.id).finally(() => (this.opening = undefined));
    const chat = await this.opening;
    this.deps.views.sendSnapshot(chat, this.facts());
    this.deps.views.broadcast({ type: 'focusInput', text: plan.text });
    return true;
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
      ...(this.deps.terminals === undefined ? {} : { terminals: this.deps.terminals }),
      instructions: windowInstructions(this.deps.host.workspaceFolder, this.deps.settings),
      skills: windowSkills(this.deps.host.workspaceFolder),
      plannedFiles: (server, bareName, args) => {
        if (server !== EDITOR_SERVER_NAME || bareName !== 'rename_symbol') return undefined;
        return planRename(this.deps.host.workspaceFolder, args as unknown as RenameArgs).then((plan) => ('error' in plan ? [] : plan.files));
      },
    });
    this.chat = chat;
    this.deps.questions.showOn(chat.view);
    this.deps.index.setLastOpen(chatId);
    await this.deps.state.update(OPEN_CHAT_KEY, chatId);
    return chat;
  }
}
