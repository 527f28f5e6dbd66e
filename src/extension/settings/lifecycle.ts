/**
 * What reacts to the world changing under the extension: settings edits (applied without a reload),
 * `.vscode/mcp.json` and `.vscode/settings.json` edits, Workspace Trust being granted, plus the
 * user-facing prompts for setting errors, for consent to start a workspace-defined MCP server, to give
 * it one of the user's secret variables and to send the API key to a model URL the workspace chose, and the chat's notice about what the workspace
 * may not do (untrusted, or a user-only setting it tried to set).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { ConfigError } from '../../agent/settings';
import type { McpServerConfig } from '../../mcp/config';
import type { SecretUse } from '../../mcp/secretVariables';
import type { AgentHost } from '../agentHost';
import type { ChatViews } from '../chat/chatViews';
import type { ExtensionSettings } from './settingsMapping';
import { SERVER_KEYS, USER_ONLY_KEYS, readMcpServersBySource } from './configReader';
import { stripJsonComments } from '../../mcp/jsonc';
import { findIgnoredSettings, ignoredSettingsNotice, type SettingsFile } from './ignoredSettings';
import { watchHookFiles } from '../hooks/agentHookFiles';
import { quotedName } from '../../agent/nameText';

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

function serverSummary(server: McpServerConfig): string {
  const t = server.transport;
  if (t.type === 'http') {
    const headers = Object.keys(t.headers);
    return `${t.url}${headers.length > 0 ? `, sending the headers ${headers.join(', ')}` : ''}`;
  }
  if (t.type === 'inProcess') return 'a server inside the editor';
  const env = Object.keys(t.env);
  return `${t.command} ${t.args.join(' ')}${env.length > 0 ? ` (with the environment variables ${env.join(', ')})` : ''}`;
}

export async function askConsent(server: McpServerConfig): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `This workspace defines the MCP server ${quotedName(server.name)}: ${serverSummary(server)}. Allow Sprout to start it? You are asked again if its command, environment, URL or headers change.`,
    { modal: true },
    'Allow',
    'Do Not Allow',
  );
  return choice === 'Allow';
}

export async function askSecretConsent(use: SecretUse): Promise<boolean> {
  const allow = `Allow ${use.variable}`;
  const choice = await vscode.window.showWarningMessage(
    `The workspace's MCP server ${quotedName(use.server)} wants your secret \${env:${use.variable}} in its ${use.field}, which sends it to ${use.destination}. Allow?`,
    {
      modal: true,
      detail:
        'Trusting this workspace lets its servers run; it does not give them your secrets. If you do not allow it, the server does not start. ' +
        'You are asked again if the server would send it somewhere else.',
    },
    allow,
    'Do Not Allow',
  );
  return choice === allow;
}

export async function askKeyConsent(origin: string, url: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `This workspace sends your API key to ${origin}. Allow?`,
    {
      modal: true,
      detail:
        `The workspace setting sprout.model.baseUrl points Sprout at ${url}, which is not the endpoint in your user settings. ` +
        'Until you allow it, Sprout sends its requests there without your key. You are asked again if the address changes.',
    },
    'Send My Key',
    'Do Not Send',
  );
  return choice === 'Send My Key';
}

/** Each folder's `.vscode/settings.json` and the `.code-workspace` file, as user-only settings may hide there. */
export function workspaceSettingsFiles(): SettingsFile[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const files: SettingsFile[] = folders.map((f) => ({ path: join(f.uri.fsPath, '.vscode', 'settings.json'), shownFile: join(folders.length > 1 ? f.name : '', '.vscode', 'settings.json'), kind: 'folder' }));
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') {
    const base = folders[0]?.uri.fsPath;
    files.push({ path: workspaceFile.fsPath, shownFile: base ? relative(base, workspaceFile.fsPath) : workspaceFile.fsPath, kind: 'workspace' });
  }
  return files;
}

const warnedNotices = new Set<string>();

/** The chat's notice: what this workspace may not do, or null. A new ignored setting also gets a warning once. */
export function workspaceNotice(): string | null {
  const ignored = ignoredSettingsNotice(findIgnoredSettings(workspaceSettingsFiles(), USER_ONLY_KEYS));
  if (ignored !== null && !warnedNotices.has(ignored)) {
    warnedNotices.add(ignored);
    void vscode.window.showWarningMessage(ignored, 'Open User Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'sprout.tools.autoApprove');
    });
  }
  const parts = [untrustedNotice(), ignored].filter((n): n is string => n !== null);
  return parts.length > 0 ? parts.join('\n') : null;
}

/** The MCP servers this workspace defines itself (its settings and `.vscode/mcp.json`), by name. */
export function workspaceServerNames(): string[] {
  const names = new Set(Object.keys(readMcpServersBySource().workspace));
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const file = join(folder.uri.fsPath, '.vscode', 'mcp.json');
    if (!existsSync(file)) continue;
    try {
      const parsed = JSON.parse(stripJsonComments(readFileSync(file, 'utf8'))) as { servers?: unknown; mcpServers?: unknown };
      const servers = parsed.servers ?? parsed.mcpServers;
      if (servers && typeof servers === 'object') for (const name of Object.keys(servers)) names.add(name);
    } catch {
      // a broken mcp.json is reported where servers are resolved
    }
  }
  return [...names].sort();
}

export function untrustedNotice(): string | null {
  if (vscode.workspace.isTrusted) return null;
  const names = workspaceServerNames();
  const blocked = names.length === 0 ? 'the MCP servers this workspace may define' : `this workspace's MCP ${names.length === 1 ? 'server' : 'servers'} ${names.join(', ')}`;
  return `Restricted Mode: Sprout does not start ${blocked}, and ignores the workspace's hook servers and tool approvals. Trust the workspace to use them.`;
}

export interface WatchDeps {
  reread: () => ExtensionSettings;
  host: AgentHost;
  views: ChatViews;
  workspaceFolder: string;
  /** The user's home folder, where their own agents' hook files are. */
  home: string;
}

export function watchConfiguration(deps: WatchDeps): vscode.Disposable[] {
  const renotice = (): void => deps.views.setNotice(workspaceNotice());
  renotice();
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(deps.workspaceFolder, '.vscode/mcp.json'));
  // VS Code raises no configuration event for a user-only key edited in workspace settings: watch the file.
  const settingsWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(deps.workspaceFolder, '.vscode/settings.json'));
  const serversChanged = (): void => {
    // The notice names the workspace's servers, so it follows .vscode/mcp.json too.
    renotice();
    void deps.host.configurationChanged();
  };
  return [
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('sprout')) return;
      reportSettingErrors(deps.reread().errors);
      renotice();
      if (SERVER_KEYS.some((key) => event.affectsConfiguration(key))) serversChanged();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      deps.reread();
      renotice();
      serversChanged();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void deps.host.rootsChanged()),
    watcher,
    watcher.onDidChange(serversChanged),
    watcher.onDidCreate(serversChanged),
    watcher.onDidDelete(serversChanged),
    settingsWatcher,
    settingsWatcher.onDidChange(renotice),
    settingsWatcher.onDidCreate(renotice),
    settingsWatcher.onDidDelete(renotice),
    // Another agent's hook file changed: read again at the next prompt, and a workspace's file asks again.
    ...watchHookFiles(deps.workspaceFolder, deps.home, () => void deps.host.configurationChanged()),
  ];
}
