/**
 * MCP prompts as the chat's slash commands (docs: README.md#mcp-prompts-as-slash-commands): the `/`
 * menu lists every running server's prompts as `/mcp.SERVER.PROMPT` with their descriptions (and
 * again when a server starts, stops or says its list changed); running one asks for its arguments in
 * input boxes (every argument when nothing was typed after the command, else the required ones
 * missing; a required one cannot be left empty; the server's completions are offered when it has
 * them), then the server's messages become the prompt (src/agent/mcpPrompts.ts).
 */
import * as vscode from 'vscode';
import { findMcpPrompt, mcpArgumentHint, mcpCommandName, mcpCommandServer, mcpPromptArguments, mcpPromptText, typeableMcpPrompt, unknownMcpPromptMessage, type McpPromptArgument, type McpPromptInfo } from '../../agent/mcpPrompts';
import type { ImagePart } from '../../agent/messages';
import { quotedName } from '../../agent/nameText';
import type { McpHub } from '../../mcp/mcpHub';
import type { SlashCommandInfo } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';

/** One argument to ask for: `suggest` asks the server for values (none when it offers no completions). */
export interface ArgumentQuestion {
  command: string;
  argument: McpPromptArgument;
  suggest(value: string): Promise<string[]>;
}

/** How arguments are asked; tests replace it (the exported API's `serverPrompts`). */
export interface ServerPromptUi {
  askArgument(question: ArgumentQuestion): Promise<string | undefined>;
}

/** The real question: an input box, required ones refused empty, the server's suggestions shown. */
export async function askArgumentInBox(question: ArgumentQuestion): Promise<string | undefined> {
  const { argument } = question;
  const suggestions = await question.suggest('');
  const hint = suggestions.length > 0 ? ` The server suggests: ${suggestions.slice(0, 8).join(', ')}${suggestions.length > 8 ? ', ...' : ''}.` : '';
  const value = await vscode.window.showInputBox({
    title: `/${question.command}: ${argument.name}${argument.required ? '' : ' (optional)'}`,
    prompt: `${argument.description ?? argument.name}${hint}`,
    placeHolder: suggestions[0] ?? argument.name,
    ignoreFocusOut: true,
    validateInput: (v) => (argument.required && v.trim() === '' ? `${argument.name} is required by this prompt.` : undefined),
  });
  return value;
}

/** The `/` menu's entries for the running servers' prompts. */
export async function mcpSlashCommands(hub: McpHub | undefined): Promise<SlashCommandInfo[]> {
  const prompts = hub === undefined ? [] : await hub.listPrompts();
  return prompts.filter(typeableMcpPrompt).map((p) => ({
    name: mcpCommandName(p),
    description: p.description ?? p.title ?? '',
    source: `MCP server ${quotedName(p.server)}`,
    ...(p.arguments.length > 0 ? { argumentHint: mcpArgumentHint(p) } : {}),
  }));
}

export type McpPromptResult = { kind: 'prompt'; text: string; images: ImagePart[] } | { kind: 'refused' };

async function askArguments(prompt: McpPromptInfo, typed: string, hub: McpHub, ui: ServerPromptUi): Promise<Record<string, string> | undefined> {
  const first = mcpPromptArguments(prompt, typed);
  const values = { ...first.values };
  // Nothing typed: the whole form; something typed: only what is still required.
  const ask = typed.trim() === '' ? prompt.arguments : first.ok ? [] : prompt.arguments.filter((a) => first.missing.some((m) => m.name === a.name));
  for (const argument of ask) {
    const value = await ui.askArgument({ command: mcpCommandName(prompt), argument, suggest: (v) => hub.completePrompt(prompt, { name: argument.name, value: v }, values) });
    if (value === undefined) return undefined;
    if (value !== '') values[argument.name] = value;
  }
  const checked = mcpPromptArguments(prompt, '', values);
  return checked.ok ? checked.values : undefined;
}

/** `/mcp.SERVER.PROMPT typed`: its arguments asked, the server's prompt fetched; whatever fails is said and nothing is sent. */
export async function runMcpPrompt(host: AgentHost, name: string, typed: string, ui: ServerPromptUi): Promise<McpPromptResult> {
  const hub = await host.ensureServers();
  const server = mcpCommandServer(name);
  const prompts = await hub.listPrompts(server !== undefined && hub.serverNames().includes(server) ? [server] : []);
  const prompt = findMcpPrompt(name, prompts);
  if (prompt === undefined) {
    void vscode.window.showWarningMessage(`Sprout: ${unknownMcpPromptMessage(name, prompts)}`);
    return { kind: 'refused' };
  }
  const values = await askArguments(prompt, typed, hub, ui);
  if (values === undefined) return { kind: 'refused' };
  try {
    const expanded = mcpPromptText(prompt, await hub.getPrompt(prompt, values));
    if (expanded.skipped.length > 0) void vscode.window.showInformationMessage(`Sprout: /${mcpCommandName(prompt)}: left out of the prompt: ${expanded.skipped.join(', ')}.`);
    if (expanded.text === '' && expanded.images.length === 0) throw new Error(`/${mcpCommandName(prompt)}: the server's prompt has no text or image to send.`);
    return { kind: 'prompt', text: expanded.text, images: expanded.images };
  } catch (error) {
    void vscode.window.showWarningMessage(`Sprout: ${(error as Error).message}`);
    return { kind: 'refused' };
  }
}

/** Calls `refresh` when the set of running servers changes or one of them says its prompts changed. */
export class ServerPromptMenu {
  private seen = '';
  private hub: McpHub | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly host: AgentHost,
    private readonly refresh: () => void,
  ) {
    host.onServers(() => this.serversChanged());
  }

  private serversChanged(): void {
    const hub = this.host.currentHub;
    if (hub !== this.hub) {
      this.unsubscribe?.();
      this.hub = hub;
      this.unsubscribe = hub?.onPromptsChanged(() => this.refresh());
    }
    const running = (hub?.status() ?? []).filter((s) => s.state === 'ready').map((s) => s.name).join('\n');
    if (running === this.seen) return;
    this.seen = running;
    this.refresh();
  }
}
