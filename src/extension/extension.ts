/**
 * The extension's entry point: composes the window's parts (settings, secrets, trust and consent, the
 * agent host, the view events and the views that follow them, the open chat, its webviews and the
 * questions it asks, commands and the task type) and returns a small API that the extension-host tests
 * drive. No agent logic lives here, and no event is routed here: each view subscribes to the view events.
 */
import { watchTerminalCommands } from './chat/terminalCommands';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../agent/errorMessage';
import type { Logger } from '../agent/ports';
import type { ChatState, WebviewMessage } from '../shared/protocol';
import { EditorServer } from './editorServer/editorServer';
import { AgentHost, type AgentHostDeps } from './agentHost';
import { ApiKeyStore } from './settings/apiKeyStore';
import { ChatController } from './chat/chatController';
import { ChatIndex } from './chat/chatIndex';
import { handleChatMessage } from './chat/chatMessages';
import { windowQuickPicks, type QuickPicks } from './chat/attachments';
import { SproutTerminals } from './terminal/sproutTerminals';
import { CHAT_VIEW_ID, ChatViewProvider, openChatInEditor, restoreChatEditors, type ChatWebviewDeps } from './chat/chatViewProvider';
import { ChatViews } from './chat/chatViews';
import { QuestionBrokers } from './chat/questionBrokers';
import { askSamplingModal, SamplingBroker, type SamplingAsk } from './chat/samplingBroker';
import { quotedName } from '../agent/nameText';
import type { UrlElicitation } from '../mcp/clientFeatures';
import type { ElicitationAction } from '../agent/messages';
import { registerCommands } from './commands/commands';
import { ConsentStore } from './settings/consentStore';
import { askConsent, askKeyConsent, askSecretConsent, reportSettingErrors, watchConfiguration } from './settings/lifecycle';
import { KeyConsent } from './settings/keyConsent';
import { SecretConsent } from './settings/secretConsent';
import { globalStateAdaptations } from './settings/adaptationStore';
import { WorkspaceApprovals } from './approvals/workspaceApprovals';
import { protectedTargetFinder } from './approvals/protectedTargets';
import { HooksViewState } from './hooks/hooksViewState';
import { HooksTreeProvider } from './hooks/hooksTreeProvider';
import { createOutputLogger } from './outputLogger';
import { addUserCommandRule, readBaseUrlLevels, readSettings } from './settings/configReader';
import type { ExtensionSettings } from './settings/settingsMapping';
import { createStatusBar } from './hooks/statusBar';
import { registerTaskProvider } from './commands/taskProvider';
import { runPromptInNewChat } from './commands/taskRunner';
import { openSignInInBrowser, promptForInput, resolveInputs, vscodeOAuthHost, type InputPrompt, type SignInOpener } from './settings/mcpSecrets';
import { TestResultsMirror } from './testing/testResultsMirror';
import { AgentHookFiles, warnOnce } from './hooks/agentHookFiles';
import { nodeTextFiles } from '../platform/textFiles';
import { registerChangeDocuments } from './checkpoints/fileChanges';
import { ViewEvents } from './viewEvents';
import { onToolPickerShown } from './chat/toolPicker';

/** How MCP sign-in pages are opened and `${input:id}` values asked for; extension-host tests replace them to play the user. */
export interface McpUserPrompts {
  openSignIn: SignInOpener;
  askInput: InputPrompt;
  /** The permission a server's sampling request needs (a modal; src/extension/chat/samplingBroker.ts). */
  askSampling: SamplingAsk;
}

export interface SproutApi {
  /** The open chat and switching chats. */
  controller: ChatController;
  /** The chat webviews (notice, snapshot). */
  views: ChatViews;
  /** Tool approvals and servers' questions waiting for the user. */
  questions: QuestionBrokers;
  /** What a chat webview's message does (tests play the webview with it). */
  handle: (message: WebviewMessage) => Promise<void>;
  /** The state a chat webview gets when it says `ready`. */
  snapshot: () => Promise<ChatState>;
  /** The one event path of the window's views. */
  events: ViewEvents;
  host: AgentHost;
  hooks: HooksViewState;
  tree: HooksTreeProvider;
  testing: TestResultsMirror;
  consent: ConsentStore;
  /** Consent to send the API key to a model URL the workspace set. */
  keyConsent: KeyConsent;
  /** Consent for a workspace-defined server to have one of the user's secret variables. */
  secretConsent: SecretConsent;
  /** Other agents' hook files, and the consent a workspace's file needs before it runs. */
  hookFiles: AgentHookFiles;
  /** "Always allow in this workspace", in workspace state. */
  approvals: WorkspaceApprovals;
  keys: ApiKeyStore;
  index: ChatIndex;
  settings: () => ReturnType<typeof readSettings>;
  statusBar: vscode.StatusBarItem;
  mcpPrompts: McpUserPrompts;
  /** How the Attach menu asks (VS Code's quick pick by default). */
  picks: QuickPicks;
  /** Wall time of `activate` itself (what `npm run bench` reports as activation). */
  activationMs: number;
  /** Everything a `sprout` task writes to its terminal, as written (after neutralising). */
  onTaskOutput: vscode.Event<string>;
  /** The labels of the tool picker's items once it is shown (src/extension/chat/toolPicker.ts). */
  onToolPickerShown: vscode.Event<string[]>;
}

/** The window's parts, as `activate` composed them. */
interface Parts {
  channel: vscode.LogOutputChannel;
  keys: ApiKeyStore;
  logger: Logger;
  host: AgentHost;
  events: ViewEvents;
  hooks: HooksViewState;
  tree: HooksTreeProvider;
  index: ChatIndex;
  controller: ChatController;
  views: ChatViews;
  questions: QuestionBrokers;
  handle: (message: WebviewMessage) => Promise<void>;
  testing: TestResultsMirror;
  approvals: WorkspaceApprovals;
  workspaceFolder: string;
}

let statusBarItem: vscode.StatusBarItem | undefined;
const taskOutput = new vscode.EventEmitter<string>();

function registerParts(context: vscode.ExtensionContext, parts: Parts, config: { get: () => ExtensionSettings; reread: () => ExtensionSettings }): void {
  const { channel, keys, logger, host, events, index, controller, views, questions, testing } = parts;
  // The servers' state goes to the views in one piece, whenever any of it changed (no polling).
  const stopServers = host.onServers((state) => events.publish({ type: 'servers', state }));
  const statusBar = createStatusBar(parts.hooks);
  statusBarItem = statusBar.item;
  const webviews: ChatWebviewDeps = { views, handle: parts.handle, logger, extensionUri: context.extensionUri };
  context.subscriptions.push(
    channel,
    statusBar,
    new vscode.Disposable(stopServers),
    registerChangeDocuments((chatId) => controller.checkpointsOf(chatId)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, new ChatViewProvider({ ...webviews, questions, index, events }), { webviewOptions: { retainContextWhenHidden: true } }),
    restoreChatEditors(webviews),
    vscode.window.createTreeView('sprout.hooks', { treeDataProvider: parts.tree, showCollapseAll: false }),
    ...registerCommands({ controller, host, keys, approvals: parts.approvals, settings: config.get, channel, testing, openInEditor: () => openChatInEditor(webviews) }),
    registerTaskProvider(
      (prompt, onEvent, signal) => runPromptInNewChat({ host, index, logger, settings: config.get, questions }, prompt, onEvent, signal),
      (text) => taskOutput.fire(text),
    ),
    keys.onDidChange(() => controller.applySettings()),
    // VS Code's models came, went or were listed: the source in use, its window and the setup card follow.
    host.modelSources.onDidChange(() => controller.applySettings()),
    ...watchConfiguration({ reread: config.reread, host, views, workspaceFolder: parts.workspaceFolder, home: homedir() }),
  );
}

/**
 * What the window offers MCP servers: questions go to the chat's form cards, roots are the workspace
 * folders, sign-in and `${input:id}` values live in SecretStorage.
 */
function mcpHostOptions(context: vscode.ExtensionContext, questions: QuestionBrokers, prompts: McpUserPrompts): Pick<AgentHostDeps, 'features' | 'oauth' | 'inputs' | 'sampling'> {
  return {
    features: {
      elicitation: { by: 'user', answer: (request, signal) => questions.elicitations.answer(request, signal), openUrl: openElicitationUrl },
      roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })),
    },
    sampling: new SamplingBroker(context.workspaceState, () => questions.openChat, () => prompts.askSampling),
    oauth: vscodeOAuthHost(context.secrets, () => prompts.openSignIn),
    inputs: (source, specs, signal) => resolveInputs(context.secrets, source, specs, prompts.askInput, signal),
  };
}

/** URL-mode elicitation: a modal shows the server, its message and the URL; the URL opens only on "Open". */
async function openElicitationUrl(request: UrlElicitation, signal: AbortSignal): Promise<ElicitationAction> {
  const choice = await vscode.window.showWarningMessage(
    `The MCP server ${quotedName(request.server)} asks you to open a web page.`,
    { modal: true, detail: `${request.message}\n\n${request.url}` },
    'Open',
  );
  if (signal.aborted) return 'cancel';
  if (choice !== 'Open') return 'decline';
  return (await vscode.env.openExternal(vscode.Uri.parse(request.url, true))) ? 'accept' : 'decline';
}

let shutdown: (() => Promise<void>) | undefined;

interface HostInputs {
  storageDir: string;
  workspaceFolder: string;
  logger: Logger;
  keys: ApiKeyStore;
  channel: vscode.LogOutputChannel;
  settings: () => ExtensionSettings;
}

/** What the user is asked before the workspace gets something: its servers started, its secrets, the key sent where it points. */
type Consents = Pick<SproutApi, 'consent' | 'keyConsent' | 'secretConsent' | 'hookFiles'>;

/** The agent host with its consents. */
function createHost(context: vscode.ExtensionContext, inputs: HostInputs, mcp: Pick<AgentHostDeps, 'features' | 'oauth' | 'inputs' | 'sampling'>): Consents & { host: AgentHost } {
  const consent = new ConsentStore(context.globalState, askConsent);
  const keyConsent = new KeyConsent(context.workspaceState, askKeyConsent);
  const secretConsent = new SecretConsent(context.workspaceState, askSecretConsent);
  const hookFiles = new AgentHookFiles({
    workspaceFolder: inputs.workspaceFolder,
    home: homedir(),
    formats: () => inputs.settings().agentHookFormats,
    trusted: () => vscode.workspace.isTrusted,
    state: context.workspaceState,
    fs: nodeTextFiles,
    logger: inputs.logger,
    warn: warnOnce,
  });
  const host = new AgentHost({
    extensionPath: context.extensionPath,
    storageDir: inputs.storageDir,
    workspaceFolder: inputs.workspaceFolder,
    logger: inputs.logger,
    consent,
    secretConsent,
    settings: inputs.settings,
    apiKey: () => inputs.keys.current,
    keyConsent,
    baseUrlLevels: readBaseUrlLevels,
    modelMemory: globalStateAdaptations(context.globalState, inputs.logger),
    trusted: () => vscode.workspace.isTrusted,
    onServerStderr: (server, line) => inputs.channel.debug(`[${server}] ${line}`),
    hookFiles,
    // The editor's own server (Problems, symbols, the Problems _Stop), in-process; the CLI has none.
    editorServer: new EditorServer({
      workspaceFolder: inputs.workspaceFolder,
      settleBudgetMs: () => Math.max(200, inputs.settings().agent.hooks.timeoutMs - 500),
      log: (message) => inputs.logger.warn(message),
    }),
    ...mcp,
  });
  return { host, consent, keyConsent, secretConsent, hookFiles };
}

export async function activate(context: vscode.ExtensionContext): Promise<SproutApi> {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel('Sprout', { log: true });
  const keys = new ApiKeyStore(context.secrets);
  await keys.load();
  const logger = createOutputLogger(channel, () => (keys.current ? [keys.current] : []));
  let settings = readSettings();
  reportSettingErrors(settings.errors);
  const storageDir = (context.storageUri ?? context.globalStorageUri).fsPath;
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
  const approvals = new WorkspaceApprovals(context.workspaceState);
  const mcpPrompts: McpUserPrompts = { openSignIn: openSignInInBrowser, askInput: promptForInput, askSampling: askSamplingModal };
  // The views, each subscribed to the one event path; the chat and the host publish on it.
  const events = new ViewEvents((error, event) => logger.error('a view failed to show an event', { type: event.type, message: errorMessage(error) }));
  const hooks = new HooksViewState(settings.agent.hooks.allowlist);
  const testing = new TestResultsMirror(workspaceFolder);
  const views = new ChatViews({ drafts: context.workspaceState, hooks });
  for (const view of [hooks, testing, views]) events.subscribe(view);
  const questions = new QuestionBrokers({
    approvalSources: {
      userAutoApprove: () => settings.autoApprove,
      commandRules: () => settings.commandRules,
      addUserCommandRule,
      remembered: approvals,
      // Asked only when a tool call is, long after the host below exists.
      protectedTarget: protectedTargetFinder(() => ({ workspaceServer: host.bundledWorkspaceServer, workspaceFolder, addedPatterns: settings.protectedPaths })),
    },
    visible: () => views.visible(),
    showChat: () => void vscode.commands.executeCommand('sprout.chat.focus'),
  });
  const hostInputs = { storageDir, workspaceFolder, logger, keys, channel, settings: () => settings };
  const { host, consent, keyConsent, secretConsent, hookFiles } = createHost(context, hostInputs, mcpHostOptions(context, questions, mcpPrompts));
  const tree = new HooksTreeProvider(hooks);
  const index = new ChatIndex(join(storageDir, 'chats'));
  const terminals = new SproutTerminals(workspaceFolder);
  // `#terminalLastCommand` reads what shell integration said while the command ran.
  context.subscriptions.push(testing, terminals, watchTerminalCommands());
  // VS Code's user prompts folder (its user-level agents): <User>/prompts, beside <User>/globalStorage/<extension>.
  const userPrompts = vscode.Uri.joinPath(context.globalStorageUri, '..', '..', 'prompts').fsPath;
  const controller = new ChatController({ host, index, logger, state: context.workspaceState, settings: () => settings, views, questions, events, terminals, userPrompts });
  const picks: QuickPicks = { show: (items, options) => windowQuickPicks.show(items, options) };
  const handle = (message: WebviewMessage): Promise<void> =>
    handleChatMessage(message, { chats: controller, views, questions, testing, terminals, picks, state: context.workspaceState, runCommand: (command, ...args) => void vscode.commands.executeCommand(command, ...args) });
  registerParts(context, { channel, keys, logger, host, events, hooks, tree, index, controller, views, questions, handle, approvals, testing, workspaceFolder }, {
    get: () => settings,
    reread: () => {
      settings = readSettings();
      events.publish({ type: 'allowlist', allowlist: settings.agent.hooks.allowlist });
      controller.applySettings();
      return settings;
    },
  });
  shutdown = async () => {
    await controller.dispose();
    await host.dispose();
  };
  const activationMs = performance.now() - started;
  logger.info(`Sprout activated in ${Math.round(activationMs)} ms`, { trusted: vscode.workspace.isTrusted });
  const snapshot = async (): Promise<ChatState> => views.snapshot(await controller.current(), controller.facts());
  return { controller, views, questions, handle, snapshot, events, host, hooks, tree, testing, consent, keyConsent, secretConsent, hookFiles, approvals, keys, index, settings: () => settings, statusBar: statusBarItem!, mcpPrompts, picks, activationMs, onTaskOutput: taskOutput.event, onToolPickerShown };
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
