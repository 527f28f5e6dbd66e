/**
 * The only caller of `getConfiguration('sprout')`. It hands settingsMapping plain values and applies
 * Workspace Trust: in an untrusted workspace a restricted setting (servers, hook allowlist, tool
 * auto-approval, model URL and source) is read from the user's own settings only, never from the workspace. A
 * user-only setting (`sprout.tools.autoApprove`, application scope) is read from the user's settings
 * always, whatever VS Code does with a workspace value; `sprout.tools.protectedPaths` is the union of
 * every level, so a workspace can add protected patterns but never remove one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { mapSettings, type ExtensionSettings, type SettingKey } from './settingsMapping';
import type { CommandRuleLevels } from '../approvals/commandRuleSettings';

export const RESTRICTED_KEYS: readonly SettingKey[] = ['sprout.hooks.servers', 'sprout.mcp.servers', 'sprout.mcp.builtinServers', 'sprout.tools.autoApprove', 'sprout.model.baseUrl', 'sprout.model.provider', 'sprout.agentHooks.formats'];

/** Settings a workspace must never provide: the repository would approve its own tool calls. */
export const USER_ONLY_KEYS: readonly SettingKey[] = ['sprout.tools.autoApprove'];

function section(key: SettingKey): string {
  return key.slice('sprout.'.length);
}

function unionOfLevels(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): unknown {
  const levels = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].filter((v) => v !== undefined);
  if (levels.some((v) => !Array.isArray(v))) return levels.find((v) => !Array.isArray(v));
  return [...new Set(levels.flatMap((v) => v as unknown[]))];
}

/** Each level apart: only the user's rules may allow (commandRuleSettings.ts). */
function commandRuleLevels(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): CommandRuleLevels {
  return { user: inspected?.globalValue, workspace: inspected?.workspaceValue, workspaceFolder: inspected?.workspaceFolderValue };
}

export function readRaw(key: SettingKey, trusted = vscode.workspace.isTrusted): unknown {
  const config = vscode.workspace.getConfiguration('sprout');
  if (key === 'sprout.tools.protectedPaths') return unionOfLevels(config.inspect(section(key)));
  if (key === 'sprout.tools.commandRules') return commandRuleLevels(config.inspect(section(key)));
  const userOnly = USER_ONLY_KEYS.includes(key) || (!trusted && RESTRICTED_KEYS.includes(key));
  if (!userOnly) return config.get(section(key));
  const inspected = config.inspect(section(key));
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** True when the setting has a value of its own in a scope that applies: the user's, or the workspace's where readRaw takes it. */
export function isConfigured(key: SettingKey, trusted = vscode.workspace.isTrusted): boolean {
  const inspected = vscode.workspace.getConfiguration('sprout').inspect(section(key));
  if (inspected?.globalValue !== undefined) return true;
  if (USER_ONLY_KEYS.includes(key) || (!trusted && RESTRICTED_KEYS.includes(key))) return false;
  return inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
}

/** Where `sprout.model.baseUrl` came from: the user's value, and the workspace's (folder first) if any. */
export function readBaseUrlLevels(): { user: unknown; workspace: unknown } {
  const inspected = vscode.workspace.getConfiguration('sprout').inspect('model.baseUrl');
  return { user: inspected?.globalValue ?? inspected?.defaultValue, workspace: inspected?.workspaceFolderValue ?? inspected?.workspaceValue };
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

/** The settings the window's servers (and the hook files beside them) are resolved from: a change to one starts them afresh. */
export const SERVER_KEYS: readonly SettingKey[] = ['sprout.mcp.servers', 'sprout.mcp.builtinServers', 'sprout.tools.protectedPaths', 'sprout.mcp.protocol', 'sprout.agentHooks.formats'];

/**
 * Everything the window's MCP servers are resolved from, as one string: every level of each of
 * SERVER_KEYS, trust, and `.vscode/mcp.json` as written. Equal strings mean a configuration event
 * changed nothing the servers depend on (a watcher's second event for one save, a save without
 * changes), so running servers need not stop for it.
 */
export function serverSources(workspaceFolder: string, trusted: boolean): string {
  let mcpJson: string | null = null;
  try {
    mcpJson = readFileSync(join(workspaceFolder, '.vscode', 'mcp.json'), 'utf8');
  } catch {
    // absent or unreadable: resolving the servers says which
  }
  const config = vscode.workspace.getConfiguration('sprout');
  const levels = SERVER_KEYS.map((key) => {
    const inspected = config.inspect(section(key));
    return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
  });
  return JSON.stringify([levels, trusted, mcpJson]);
}

/** Writes a setting; returns where it went, in words for the message that says so. */
export async function writeSetting(key: SettingKey, value: unknown, target = vscode.ConfigurationTarget.Workspace): Promise<string> {
  const useTarget = vscode.workspace.workspaceFolders?.length ? target : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('sprout').update(section(key), value, useTarget);
  return useTarget === vscode.ConfigurationTarget.Global ? 'your user settings' : "this workspace's .vscode/settings.json";
}

/**
 * "Always allow `npm test`": `{ "allow": "npm test" }` appended to the user's own
 * `sprout.tools.commandRules` (never a workspace's, whose allow rules are ignored). A user value that
 * is not a list is left as it is, and said, rather than overwritten.
 */
export async function addUserCommandRule(prefix: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('sprout');
  const current = config.inspect('tools.commandRules')?.globalValue;
  if (current !== undefined && !Array.isArray(current)) {
    void vscode.window.showErrorMessage(`Sprout settings: your user sprout.tools.commandRules is not a list, so "${prefix}" was allowed once and not added. Fix the setting, then choose Always allow again.`);
    return;
  }
  const rules: unknown[] = current ?? [];
  if (rules.some((rule) => rule !== null && typeof rule === 'object' && (rule as { allow?: unknown }).allow === prefix)) return;
  await config.update('tools.commandRules', [...rules, { allow: prefix }], vscode.ConfigurationTarget.Global);
}
