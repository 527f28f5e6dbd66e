/**
 * Slash commands typed in the chat (docs: README.md#prompt-files-and-slash-commands): Sprout's own
 * (`/new`, `/compact`, `/hooks`, mapped to the commands the extension already has) and the window's
 * prompt files (`.github/prompts`, `.claude/commands`: none of the workspace's in Restricted Mode; the
 * user's `~/.claude/commands` always), expanded by the core (src/agent/promptCommands.ts) with each
 * missing `${input:}` asked in an input box. Whatever cannot run goes back to the message box, said.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { BUILTIN_COMMANDS, expandCommand, parseSlash, unknownCommandMessage } from '../../agent/promptCommands';
import { readPromptFiles } from '../../customizations/promptFiles';
import { nodeInstructionFs } from '../../platform/instructionFs';
import type { ChatMode, SlashCommandInfo } from '../../shared/protocol';
import { isMcpCommand } from '../../agent/mcpPrompts';
import type { ImagePart } from '../../agent/messages';
import type { AgentHost } from '../agentHost';
import { runMcpPrompt, type ServerPromptUi } from './mcpPromptCommands';

export type SlashResult =
  /** Not a command: send as typed. */
  | { kind: 'text' }
  /** Sprout's own command, already done. */
  | { kind: 'done' }
  /** A prompt file: send this text (in its mode when it names one). */
  | { kind: 'prompt'; text: string; mode?: ChatMode; images?: ImagePart[] }
  /** Nothing sent: the reason was said; the text goes back to the box. */
  | { kind: 'refused' };

function windowCommands(workspaceFolder: string): ReturnType<typeof readPromptFiles> {
  return readPromptFiles(nodeInstructionFs(), { root: workspaceFolder.replace(/\\/g, '/'), home: homedir(), trusted: vscode.workspace.isTrusted });
}

/** What the composer's `/` menu lists: Sprout's own commands, then the window's prompt files. */
export function slashCommandList(workspaceFolder: string): SlashCommandInfo[] {
  const files = workspaceFolder === '' ? [] : windowCommands(workspaceFolder).commands;
  return [
    ...BUILTIN_COMMANDS.map((b) => ({ name: b.name, description: b.description, source: 'Sprout' })),
    ...files.map((c) => ({ name: c.name, description: c.description ?? '', source: c.path, ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}) })),
  ];
}

const BUILTIN_ACTIONS: Readonly<Record<string, string>> = { new: 'sprout.newChat', compact: 'sprout.compactNow', hooks: 'sprout.showHooks' };

/** `mcp`: where an MCP server's prompt (`/mcp.SERVER.PROMPT`) is asked for. */
export async function runSlashCommand(text: string, workspaceFolder: string, mcp?: { host: AgentHost; ui: ServerPromptUi }): Promise<SlashResult> {
  const slash = parseSlash(text);
  if (slash === undefined) return { kind: 'text' };
  const builtin = BUILTIN_ACTIONS[slash.name];
  if (builtin !== undefined) {
    await vscode.commands.executeCommand(builtin);
    return { kind: 'done' };
  }
  const set = windowCommands(workspaceFolder);
  const command = set.commands.find((c) => c.name === slash.name);
  if (command === undefined && mcp !== undefined && isMcpCommand(slash.name)) return runMcpPrompt(mcp.host, slash.name, slash.args, mcp.ui);
  if (command === undefined) {
    const untrusted = set.notes.some((n) => n.startsWith('The workspace is not trusted')) ? ' The workspace is not trusted, so its prompt files were not read.' : '';
    void vscode.window.showWarningMessage(`Sprout: ${unknownCommandMessage(slash.name, set.commands.map((c) => c.name))}${untrusted} (To send text that starts with "/", put a space before it.)`);
    return { kind: 'refused' };
  }
  const inputs: Record<string, string> = {};
  for (;;) {
    const expansion = expandCommand(command, slash.args, inputs);
    if (expansion.ok) return { kind: 'prompt', text: expansion.prompt, ...(expansion.mode === undefined ? {} : { mode: expansion.mode }) };
    const missing = expansion.missing[0]!;
    const value = await vscode.window.showInputBox({ title: `/${command.name}: ${missing.name}`, prompt: `${missing.name} for ${command.path}`, placeHolder: missing.placeholder ?? missing.name, ignoreFocusOut: true });
    if (value === undefined) return { kind: 'refused' };
    inputs[missing.name] = value;
  }
}
