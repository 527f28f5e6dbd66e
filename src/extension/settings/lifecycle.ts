/**
 * What reacts to the world changing under the extension: settings edits (applied without a reload),
 * `.vscode/mcp.json` edits, Workspace Trust being granted, plus the user-facing prompts for setting
 * errors and for consent to start a workspace-defined MCP server.
 */
import * as vscode from 'vscode';
import type { ConfigError } from '../../agent/settings';
import type { McpServerConfig } from '../../mcp/config';
import type { AgentHost } from '../agentHost';
import type { ChatController } from '../chat/chatController';
import type { ExtensionSettings } from './settingsMapping';

const shownErrors = new Set<string>();

export function reportSettingErrors(errors: readonly ConfigError[]): void {
  for (const error of errors) {
    if (shownErrors.has(error.message)) continue;
    shownErrors.add(error.message);
    void vscode.window.showErrorMessage(`Sprout settings: ${error.message}`, 'Open Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', error.setting);
    });
  }
}

export async function askConsent(server: McpServerConfig): Promise<boolean> {
  const t = server.transport;
  const what = t.type === 'stdio' ? `${t.command} ${t.args.join(' ')}` : t.url;
  const choice = await vscode.window.showWarningMessage(
    `This workspace defines the MCP server "${server.name}": ${what}. Allow Sprout to start it? You are asked again if its command changes.`,
    { modal: true },
    'Allow',
    'Do Not Allow',
  );
  return choice === 'Allow';
}

export function untrustedNotice(): string | null {
  return vscode.workspace.isTrusted
    ? null
    : 'This workspace is not trusted: Sprout starts no MCP server or hook defined by the workspace and ignores its hook allowlist and auto-approvals. Trust the workspace to use them.';
}

export interface WatchDeps {
  reread: () => ExtensionSettings;
  host: AgentHost;
  controller: ChatController;
  workspaceFolder: string;
}

export function watchConfiguration(deps: WatchDeps): vscode.Disposable[] {
  deps.controller.setNotice(untrustedNotice());
  const serverKeys = ['sprout.mcp.servers', 'sprout.mcp.builtinServers'];
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(deps.workspaceFolder, '.vscode/mcp.json'));
  const serversChanged = (): void => void deps.host.invalidateServers();
  return [
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('sprout')) return;
      reportSettingErrors(deps.reread().errors);
      if (serverKeys.some((key) => event.affectsConfiguration(key))) serversChanged();
      if (event.affectsConfiguration('sprout.model.baseUrl') || event.affectsConfiguration('sprout.model.compatibility')) deps.host.invalidateModel();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      deps.reread();
      deps.controller.setNotice(untrustedNotice());
      serversChanged();
    }),
    watcher,
    watcher.onDidChange(serversChanged),
    watcher.onDidCreate(serversChanged),
    watcher.onDidDelete(serversChanged),
  ];
}
