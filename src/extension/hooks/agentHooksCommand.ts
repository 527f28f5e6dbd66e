/**
 * Sprout: Use Hooks in Another Agent. Writes the command hooks that let Claude Code, Codex, Gemini
 * CLI, Copilot, Cursor or Kiro be gated by this window's allowlisted hook servers (through the
 * `sprout-agent` CLI's bridge) into that agent's config file in the workspace: the same entries as
 * `sprout-agent hooks install`, for the hooks the servers actually have. The change is shown before it
 * is written, the user's own hooks are kept, and what the agent needs besides is said afterwards.
 * The extension does not ship the CLI: the hooks run the `sprout-agent` found on PATH.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import * as vscode from 'vscode';
import type { HookName } from '../../agent/events';
import { isHookServerAllowed } from '../../agent/settings';
import { AGENT_IDS, bridgeEvents, isAgentId, type AgentId } from '../../agentHooks/agentFormat';
import { AGENT_LIST, agentFormat } from '../../agentHooks/agentFormats';
import { BRIDGE_AGENT_TIMEOUT_MS, bridgeCommandLine, planInstall, shellQuote } from '../../agentHooks/hookConfig';
import { readMcpConfigJson } from '../../mcp/config';
import { BUNDLED_SERVER_NAMES } from '../../runtime/bundledServers';
import type { AgentHost } from '../agentHost';
import type { ExtensionSettings } from '../settings/settingsMapping';

export interface UseHooksOptions {
  /** Write without the confirmation dialog (tests). */
  yes?: boolean;
  /** The CLI to run (default: `sprout-agent` on PATH). */
  program?: string;
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function pickAgent(agent: string | undefined): Promise<AgentId | undefined> {
  if (agent !== undefined) {
    if (!isAgentId(agent)) throw new Error(`"${agent}" is no agent Sprout knows; use one of ${AGENT_IDS.join(', ')}.`);
    return agent;
  }
  const picked = await vscode.window.showQuickPick(
    AGENT_LIST.map((f) => ({ label: f.displayName, description: f.config.workspaceFiles[0], id: f.id })),
    { title: 'Sprout: Use Hooks in Another Agent', placeHolder: 'The agent to gate with this workspace\'s hook servers' },
  );
  return picked?.id;
}

/** The servers `.vscode/mcp.json` declares: the only servers of the window's the CLI can start. */
function workspaceFileServers(folder: string): string[] {
  const file = join(folder, '.vscode', 'mcp.json');
  if (!existsSync(file)) return [];
  const json = readMcpConfigJson(file) as Record<string, unknown>;
  return ['servers', 'mcpServers'].flatMap((key) => (json[key] !== null && typeof json[key] === 'object' ? Object.keys(json[key] as object) : []));
}

/**
 * The options the CLI's bridge needs to start the same servers this window runs. A server defined in
 * settings only (`sprout.mcp.servers`) is one the CLI cannot see: an error saying where to move it.
 */
function serverOptions(folder: string, allowlisted: readonly string[]): string[] {
  const bundled = BUNDLED_SERVER_NAMES.filter((name) => allowlisted.includes(name));
  const inFile = workspaceFileServers(folder);
  const unseen = allowlisted.filter((name) => !(bundled as readonly string[]).includes(name) && !inFile.includes(name));
  if (unseen.length > 0) {
    throw new Error(`${unseen.join(', ')} ${unseen.length > 1 ? 'are' : 'is'} defined in settings, which the sprout-agent CLI does not read: move ${unseen.length > 1 ? 'them' : 'it'} to .vscode/mcp.json, then run this command again.`);
  }
  return ['--cwd', folder, ...(inFile.length > 0 ? ['--trust-workspace'] : []), '--builtin-servers', bundled.join(','), '--hook-servers', allowlisted.join(',')];
}

async function servedHooks(host: AgentHost, settings: () => ExtensionSettings): Promise<{ servers: string[]; hooks: Set<HookName> }> {
  const statuses = await host.listedStatus();
  const allowlist = settings().agent.hooks.allowlist;
  const served = statuses.filter((s) => s.hooks.length > 0 && isHookServerAllowed(allowlist, s.name));
  return { servers: served.map((s) => s.name), hooks: new Set(served.flatMap((s) => s.hooks as HookName[])) };
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export async function useHooksInAgent(host: AgentHost, settings: () => ExtensionSettings, agentArg?: string, options: UseHooksOptions = {}): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder === undefined) throw new Error('open a folder first: the hooks are written into the workspace.');
  const agent = await pickAgent(agentArg);
  if (agent === undefined) return undefined;
  const format = agentFormat(agent);
  const program = options.program ?? findOnPath('sprout-agent');
  if (program === undefined) throw new Error('the hooks run the Sprout CLI, and `sprout-agent` is not on PATH. Install it (README, "CLI"), then run this command again.');
  const { servers, hooks } = await servedHooks(host, settings);
  const events = bridgeEvents(format, hooks);
  if (events.length === 0) {
    void vscode.window.showInformationMessage('Sprout: no allowlisted MCP server has hooks to share. Choose hook servers first (Sprout: Configure Hook Servers).');
    return undefined;
  }
  const words = serverOptions(folder, servers);
  const entries = events.map((event) => ({ event, command: bridgeCommandLine(shellQuote(program), agent, event, words), timeoutMs: BRIDGE_AGENT_TIMEOUT_MS }));
  const file = vscode.Uri.file(join(folder, format.config.workspaceFiles[0] ?? ''));
  const plan = planInstall(format, await readText(file), file.fsPath, entries);
  if (!plan.changed) {
    void vscode.window.showInformationMessage(`Sprout: ${vscode.workspace.asRelativePath(file)} already has these hooks.`);
    return file.fsPath;
  }
  const change = [...plan.removed.map((l) => `- ${l}`), ...plan.added.map((l) => `+ ${l}`)].join('\n');
  const write = options.yes === true || (await vscode.window.showWarningMessage(`Sprout: write ${format.displayName}'s hooks to ${vscode.workspace.asRelativePath(file)}?`, { modal: true, detail: change }, 'Write')) === 'Write';
  if (!write) return undefined;
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(plan.text));
  void vscode.window.showInformationMessage(`Sprout: ${format.displayName} now runs ${servers.join(', ')} as hooks (${events.join(', ')}). ${format.setupNotes.join(' ')}`);
  return file.fsPath;
}
