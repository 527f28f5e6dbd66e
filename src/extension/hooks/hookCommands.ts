/**
 * Commands about hooks: choose which servers may act as hooks (from the servers that expose `_` tools;
 * writes the workspace's `sprout.hooks.servers`), enable the bundled test runner or the editor's Problems as a `_Stop` hook, and
 * show one objection's full text.
 */
import * as vscode from 'vscode';
import type { AgentHost } from '../agentHost';
import { EDITOR_SERVER_NAME } from '../editorServer/editorServer';
import { writeSetting } from '../settings/configReader';
import type { ExtensionSettings } from '../settings/settingsMapping';

export async function configureHookServers(host: AgentHost, settings: () => ExtensionSettings, preselect?: string): Promise<string[] | undefined> {
  const withHooks = (await host.listedStatus()).filter((s) => s.hooks.length > 0);
  const allowlist = settings().agent.hooks.allowlist;
  if (withHooks.length === 0) {
    void vscode.window.showInformationMessage('Sprout: no running MCP server exposes hooks (tools named with a leading "_"). Try "Sprout: Enable Test-Runner Hook".');
    return undefined;
  }
  const items = withHooks.map((s) => ({
    label: s.name,
    description: s.hooks.join(', '),
    picked: s.name === preselect || allowlist.kind === 'all' || allowlist.names.includes(s.name),
  }));
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'Sprout: servers whose hooks may run' });
  if (!picked) return undefined;
  const names = picked.map((p) => p.label);
  const where = await writeSetting('sprout.hooks.servers', names);
  tellWhere(`Sprout: saved sprout.hooks.servers = [${names.join(', ')}] to ${where}.`, where);
  return names;
}

export async function enableTestRunnerHook(settings: () => ExtensionSettings): Promise<void> {
  const current = settings();
  const where = await writeSetting('sprout.mcp.builtinServers', { ...current.builtinServers, tests: true });
  const allowlist = current.agent.hooks.allowlist;
  if (allowlist.kind === 'names' && !allowlist.names.includes('tests')) await writeSetting('sprout.hooks.servers', [...allowlist.names, 'tests']);
  tellWhere(
    `Sprout: the bundled test runner is now a completion check: the agent cannot finish while tests fail (up to the objection budget). Saved sprout.mcp.builtinServers and sprout.hooks.servers to ${where}.`,
    where,
  );
}

/**
 * The editor's own server (always running in the extension) becomes a completion check: its `_Stop`
 * objects while files the turn changed have new errors in the Problems panel. Only the allowlist changes.
 */
export async function enableProblemsHook(settings: () => ExtensionSettings): Promise<void> {
  const allowlist = settings().agent.hooks.allowlist;
  if (allowlist.kind === 'all' || allowlist.names.includes(EDITOR_SERVER_NAME)) {
    void vscode.window.showInformationMessage(`Sprout: the Problems hook is already on (sprout.hooks.servers allows "${EDITOR_SERVER_NAME}").`);
    return;
  }
  const where = await writeSetting('sprout.hooks.servers', [...allowlist.names, EDITOR_SERVER_NAME]);
  tellWhere(
    `Sprout: the editor's Problems are now a completion check: the agent cannot finish while files it changed have new errors (up to the objection budget). Saved sprout.hooks.servers to ${where}.`,
    where,
  );
}

/** Says where a setting was written, with a way to look at the file. */
function tellWhere(message: string, where: string): void {
  const open = where.includes('workspace') ? 'Open Workspace Settings' : 'Open User Settings';
  void vscode.window.showInformationMessage(message, open).then((choice) => {
    if (choice) void vscode.commands.executeCommand(where.includes('workspace') ? 'workbench.action.openWorkspaceSettingsFile' : 'workbench.action.openSettingsJson');
  });
}

export async function showObjection(server: string, text: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# Objection from ${server}\n\n(hook output, untrusted)\n\n${text}\n` });
  await vscode.window.showTextDocument(doc, { preview: true });
}
