/**
 * The only caller of `getConfiguration('sprout')`. It hands settingsMapping plain values and applies
 * Workspace Trust: in an untrusted workspace a restricted setting (servers, hook allowlist, tool
 * auto-approval, model URL) is read from the user's own settings only, never from the workspace.
 */
import * as vscode from 'vscode';
import { mapSettings, type ExtensionSettings, type SettingKey } from './settingsMapping';

export const RESTRICTED_KEYS: readonly SettingKey[] = ['sprout.hooks.servers', 'sprout.mcp.servers', 'sprout.mcp.builtinServers', 'sprout.tools.autoApprove', 'sprout.model.baseUrl'];

function section(key: SettingKey): string {
  return key.slice('sprout.'.length);
}

export function readRaw(key: SettingKey, trusted = vscode.workspace.isTrusted): unknown {
  const config = vscode.workspace.getConfiguration('sprout');
  if (trusted || !RESTRICTED_KEYS.includes(key)) return config.get(section(key));
  const inspected = config.inspect(section(key));
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** True when the setting has a value of its own in a scope that applies: the user's, or (unless restricted and untrusted) the workspace's. */
export function isConfigured(key: SettingKey, trusted = vscode.workspace.isTrusted): boolean {
  const inspected = vscode.workspace.getConfiguration('sprout').inspect(section(key));
  if (inspected?.globalValue !== undefined) return true;
  if (!trusted && RESTRICTED_KEYS.includes(key)) return false;
  return inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
}

export function readSettings(trusted = vscode.workspace.isTrusted): ExtensionSettings {
  return mapSettings(
    (key) => readRaw(key, trusted),
    (key) => isConfigured(key, trusted),
  );
}

/** The `sprout.mcp.servers` entries split by where they were defined. */
export function readMcpServersBySource(): { user: Record<string, unknown>; workspace: Record<string, unknown> } {
  const inspected = vscode.workspace.getConfiguration('sprout').inspect<Record<string, unknown>>('mcp.servers');
  return {
    user: inspected?.globalValue ?? {},
    workspace: { ...(inspected?.workspaceValue ?? {}), ...(inspected?.workspaceFolderValue ?? {}) },
  };
}

export async function writeSetting(key: SettingKey, value: unknown, target = vscode.ConfigurationTarget.Workspace): Promise<void> {
  const useTarget = vscode.workspace.workspaceFolders?.length ? target : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('sprout').update(section(key), value, useTarget);
}
