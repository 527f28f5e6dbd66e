/**
 * The extension's entry point: composes the window's parts (settings, secrets, trust and consent, the
 * agent host, the chat controller and its webviews, the Hooks view, the status bar, commands and the
 * task type) and returns a small API that the extension-host tests drive. No agent logic lives here.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../agent/ports';
import { AgentHost } from './agentHost';
import { ApiKeyStore } from './settings/apiKeyStore';
import { ChatController } from './chat/chatController';
import { ChatIndex } from './chat/chatIndex';
import { CHAT_VIEW_ID, ChatViewProvider, openChatInEditor } from './chat/chatViewProvider';
import { registerCommands } from './commands/commands';
import { ConsentStore } from './settings/consentStore';
import { askConsent, askKeyConsent, reportSettingErrors, watchConfiguration } from './settings/lifecycle';
import { KeyConsent } from './settings/keyConsent';
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

export interface SproutApi {
  controller: ChatController;
  host: AgentHost;
  hooks: HooksViewState;
  tree: HooksTreeProvider;
  consent: ConsentStore;
  /** Consent to send the API key to a model URL the workspace set. */
  keyConsent: KeyConsent;
  /** "Always allow in this workspace", in workspace state. */
  approvals: WorkspaceApprovals;
  keys: ApiKeyStore;
  index: ChatIndex;
  settings: () => ReturnType<typeof readSettings>;
  statusBar: vscode.StatusBarItem;
  /** Wall time of `activate` itself (what `npm run bench` reports as activation). */
  activationMs: number;
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
  approvals: WorkspaceApprovals;
  workspaceFolder: string;
}

let statusBarItem: vscode.StatusBarItem | undefined;

function registerParts(context: vscode.ExtensionContext, parts: Parts, config: { get: () => ExtensionSettings; reread: () => ExtensionSettings }): void {
  const { channel, keys, logger, host, hooks, tree, index, controller, workspaceFolder } = parts;
  // Polled every 2 s: the model tells the tree and status bar only when something moved, and the
  // tree is refreshed here only for a new set of notices.
  const refreshServers = (): void => {
    hooks.updateStatus(host.status(), host.started);
    if (tree.notices.join('\n') === host.notices.join('\n')) return;
    tree.notices = host.notices;
    tree.refresh();
  };
  host.onHubChanged(refreshServers);
  const poll = setInterval(refreshServers, 2000);
  const statusBar = createStatusBar(hooks);
  statusBarItem = statusBar.item;
  const chatProvider = new ChatViewProvider(controller, logger, context.extensionUri);
  context.subscriptions.push(
    channel,
    statusBar,
    new vscode.Disposable(() => clearInterval(poll)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatProvider, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.window.createTreeView('sprout.hooks', { treeDataProvider: tree, showCollapseAll: false }),
    ...registerCommands({ controller, host, keys, approvals: parts.approvals, settings: config.get, channel, openInEditor: () => openChatInEditor(controller, logger, context.extensionUri) }),
    registerTaskProvider((prompt, onEvent, signal) => runPromptInNewChat({ host, index, logger, settings: config.get, controller }, prompt, onEvent, signal)),
    keys.onDidChange(() => {
      host.invalidateModel();
      controller.applySettings();
    }),
    ...watchConfiguration({ reread: config.reread, host, controller, workspaceFolder }),
  );
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

/** The agent host with its two consents: to start workspace-defined servers, and to send the key where the workspace points. */
function createHost(context: vscode.ExtensionContext, inputs: HostInputs): { host: AgentHost; consent: ConsentStore; keyConsent: KeyConsent } {
  const consent = new ConsentStore(context.globalState, askConsent);
  const keyConsent = new KeyConsent(context.workspaceState, askKeyConsent);
  const host = new AgentHost({
    extensionPath: context.extensionPath,
    storageDir: inputs.storageDir,
    workspaceFolder: inputs.workspaceFolder,
    logger: inputs.logger,
    consent,
    settings: inputs.settings,
    apiKey: () => inputs.keys.current,
    keyConsent,
    baseUrlLevels: readBaseUrlLevels,
    trusted: () => vscode.workspace.isTrusted,
    onServerStderr: (server, line) => inputs.channel.debug(`[${server}] ${line}`),
  });
  return { host, consent, keyConsent };
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
  const { host, consent, keyConsent } = createHost(context, { storageDir, workspaceFolder, logger, keys, channel, settings: () => settings });
  const hooks = new HooksViewState(settings.agent.hooks.allowlist);
  const tree = new HooksTreeProvider(hooks);
  const index = new ChatIndex(join(storageDir, 'chats'));
  const controller = new ChatController({
    host,
    index,
    hooks,
    logger,
    state: context.workspaceState,
    settings: () => settings,
    apiKey: () => keys.current,
    approvalSources: {
      userAutoApprove: () => settings.autoApprove,
      remembered: approvals,
      protectedTarget: protectedTargetFinder(() => ({ workspaceServer: host.bundledWorkspaceServer, workspaceFolder, addedPatterns: settings.protectedPaths })),
    },
    onCommand: (command) =>
      void (command === 'sprout.setBaseUrl'
        ? vscode.commands.executeCommand('workbench.action.openSettings', 'sprout.model.baseUrl')
        : vscode.commands.executeCommand(command)),
  });
  registerParts(context, { channel, keys, logger, host, hooks, tree, index, controller, approvals, workspaceFolder }, {
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
  return { controller, host, hooks, tree, consent, keyConsent, approvals, keys, index, settings: () => settings, statusBar: statusBarItem!, activationMs };
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
