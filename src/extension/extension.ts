/**
 * The extension's entry point: composes the window's parts (settings, secrets, trust and consent, the
 * agent host, the chat controller and its webviews, the Hooks view, the status bar, commands and the
 * task type) and returns a small API that the extension-host tests drive. No agent logic lives here.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../agent/ports';
import { AgentHost, type AgentHostDeps } from './agentHost';
import { ApiKeyStore } from './settings/apiKeyStore';
import { ChatController } from './chat/chatController';
import { ChatIndex } from './chat/chatIndex';
import { CHAT_VIEW_ID, ChatViewProvider, openChatInEditor } from './chat/chatViewProvider';
import { registerCommands } from './commands/commands';
import { ConsentStore } from './settings/consentStore';
import { askConsent, askKeyConsent, askSecretConsent, reportSettingErrors, watchConfiguration } from './settings/lifecycle';
import { KeyConsent } from './settings/keyConsent';
import { SecretConsent } from './settings/secretConsent';
import { WorkspaceApprovals } from './approvals/workspaceApprovals';
import { protectedTargetFinder } from './approvals/protectedTargets';
import { HooksViewState } from './hooks/hooksViewState';
import { HooksTreeProvider } from './hooks/hooksTreeProvider';
import { createOutputLogger } from './outputLogger';
import { readBaseUrlLevels, readSettings } from './settings/configReader';
import type { ExtensionSettings } from './settings/settingsMapping';
import { createStatusBar } from './hooks/statusBar';
import { registerTaskProvider } from './commands/taskProvider';
import { runPromptInNewChat } from './commands/taskRunner';
import { openSignInInBrowser, promptForInput, resolveInputs, vscodeOAuthHost, type InputPrompt, type SignInOpener } from './settings/mcpSecrets';

/** How MCP sign-in pages are opened and `${input:id}` values asked for; extension-host tests replace them to play the user. */
export interface McpUserPrompts {
  openSignIn: SignInOpener;
  askInput: InputPrompt;
}
import { TestResultsMirror } from './testing/testResultsMirror';
import { hooksSummary } from './hooks/hooksSummary';
import { registerChangeDocuments } from './checkpoints/fileChanges';

export interface SproutApi {
  controller: ChatController;
  host: AgentHost;
  hooks: HooksViewState;
  tree: HooksTreeProvider;
  testing: TestResultsMirror;
  consent: ConsentStore;
  /** Consent to send the API key to a model URL the workspace set. */
  keyConsent: KeyConsent;
  /** Consent for a workspace-defined server to have one of the user's secret variables. */
  secretConsent: SecretConsent;
  /** "Always allow in this workspace", in workspace state. */
  approvals: WorkspaceApprovals;
  keys: ApiKeyStore;
  index: ChatIndex;
  settings: () => ReturnType<typeof readSettings>;
  statusBar: vscode.StatusBarItem;
  mcpPrompts: McpUserPrompts;
  /** Wall time of `activate` itself (what `npm run bench` reports as activation). */
  activationMs: number;
  /** Everything a `sprout` task writes to its terminal, as written (after neutralising). */
  onTaskOutput: vscode.Event<string>;
}

interface Parts {
  channel: vscode.LogOutputChannel;
  keys: ApiKeyStore;
  logger: Logger;
  host: AgentHost;
  hooks: HooksViewState;
  tree: HooksTreeProvider;
  index: ChatIndex;
  controller: ChatController;
  testing: TestResultsMirror;
  approvals: WorkspaceApprovals;
  workspaceFolder: string;
}

let statusBarItem: vscode.StatusBarItem | undefined;
const taskOutput = new vscode.EventEmitter<string>();

function registerParts(context: vscode.ExtensionContext, parts: Parts, config: { get: () => ExtensionSettings; reread: () => ExtensionSettings }): void {
  const { channel, keys, logger, host, hooks, tree, index, controller, testing, workspaceFolder } = parts;
  // No polling: servers report each change of state, and a new hub (or none) brings a new server set
  // and its notices. The view state tells the tree and status bar only when something shown moved.
  const refreshServers = (): void => {
    hooks.updateStatus(host.status(), host.started);
    if (tree.notices.join('\n') === host.notices.join('\n')) return;
    tree.notices = host.notices;
    tree.refresh();
  };
  const stopHub = host.onHubChanged(refreshServers);
  const stopStatus = host.onServerStatus((status) => hooks.updateServer(status));
  const statusBar = createStatusBar(hooks, () => controller.running);
  // The chat's header line follows the Hooks view's state.
  const stopSummary = hooks.onDidChange(() => controller.broadcastHooks());
  statusBarItem = statusBar.item;
  const chatProvider = new ChatViewProvider(controller, logger, context.extensionUri);
  context.subscriptions.push(
    channel,
    statusBar,
    new vscode.Disposable(() => {
      stopHub();
      stopStatus();
      stopSummary();
    }),
    registerChangeDocuments((chatId) => controller.checkpointsOf(chatId)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatProvider, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.window.createTreeView('sprout.hooks', { treeDataProvider: tree, showCollapseAll: false }),
    ...registerCommands({ controller, host, keys, approvals: parts.approvals, settings: config.get, channel, testing, openInEditor: () => openChatInEditor(controller, logger, context.extensionUri) }),
    registerTaskProvider(
      (prompt, onEvent, signal) => runPromptInNewChat({ host, index, logger, settings: config.get, controller }, prompt, onEvent, signal),
      (text) => taskOutput.fire(text),
    ),
    keys.onDidChange(() => {
      host.invalidateModel();
      controller.applySettings();
    }),
    // VS Code's models came, went or were listed: the source in use, its window and the setup card follow.
    host.models.onDidChange(() => controller.applySettings()),
    ...watchConfiguration({ reread: config.reread, host, controller, workspaceFolder }),
  );
}

/**
 * What the window offers MCP servers: questions go to the chat's form cards (the hub starts on the
 * first prompt, after the controller exists, so the late reference holds), roots are the workspace
 * folders, sign-in and `${input:id}` values live in SecretStorage.
 */
function mcpHostOptions(context: vscode.ExtensionContext, chat: { controller?: ChatController }, prompts: McpUserPrompts): Pick<AgentHostDeps, 'features' | 'oauth' | 'inputs'> {
  return {
    features: {
      elicitation: { by: 'user', answer: (request, signal) => chat.controller?.elicitations.answer(request, signal) ?? Promise.resolve({ action: 'cancel' }) },
      roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })),
    },
    oauth: vscodeOAuthHost(context.secrets, () => prompts.openSignIn),
    inputs: (source, specs) => resolveInputs(context.secrets, source, specs, prompts.askInput),
  };
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
type Consents = Pick<SproutApi, 'consent' | 'keyConsent' | 'secretConsent'>;

/** The agent host with its consents. */
function createHost(context: vscode.ExtensionContext, inputs: HostInputs, mcp: Pick<AgentHostDeps, 'features' | 'oauth' | 'inputs'>): Consents & { host: AgentHost } {
  const consent = new ConsentStore(context.globalState, askConsent);
  const keyConsent = new KeyConsent(context.workspaceState, askKeyConsent);
  const secretConsent = new SecretConsent(context.workspaceState, askSecretConsent);
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
    trusted: () => vscode.workspace.isTrusted,
    onServerStderr: (server, line) => inputs.channel.debug(`[${server}] ${line}`),
    ...mcp,
  });
  return { host, consent, keyConsent, secretConsent };
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
  const chatRef: { controller?: ChatController } = {};
  const mcpPrompts: McpUserPrompts = { openSignIn: openSignInInBrowser, askInput: promptForInput };
  const hostInputs = { storageDir, workspaceFolder, logger, keys, channel, settings: () => settings };
  const { host, consent, keyConsent, secretConsent } = createHost(context, hostInputs, mcpHostOptions(context, chatRef, mcpPrompts));
  const hooks = new HooksViewState(settings.agent.hooks.allowlist);
  const tree = new HooksTreeProvider(hooks);
  const index = new ChatIndex(join(storageDir, 'chats'));
  const testing = new TestResultsMirror(workspaceFolder);
  context.subscriptions.push(testing);
  const controller = new ChatController({
    host,
    index,
    hooks,
    testing,
    logger,
    state: context.workspaceState,
    settings: () => settings,
    apiKey: () => keys.current,
    approvalSources: {
      userAutoApprove: () => settings.autoApprove,
      remembered: approvals,
      protectedTarget: protectedTargetFinder(() => ({ workspaceServer: host.bundledWorkspaceServer, workspaceFolder, addedPatterns: settings.protectedPaths })),
    },
    onCommand: (command, ...args) => void vscode.commands.executeCommand(command, ...args),
    hooksSummary: () => hooksSummary(hooks),
  });
  chatRef.controller = controller;
  registerParts(context, { channel, keys, logger, host, hooks, tree, index, controller, approvals, testing, workspaceFolder }, {
    get: () => settings,
    reread: () => {
      settings = readSettings();
      hooks.setAllowlist(settings.agent.hooks.allowlist);
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
  return { controller, host, hooks, tree, testing, consent, keyConsent, secretConsent, approvals, keys, index, settings: () => settings, statusBar: statusBarItem!, mcpPrompts, activationMs, onTaskOutput: taskOutput.event };
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
