/**
 * MCP prompts in the CLI (docs: README.md#mcp-prompts-as-slash-commands): `sprout-agent
 * "/mcp.SERVER.PROMPT a b"` asks the server for the prompt once the run's servers are configured, its
 * arguments positional in declared order or `--input NAME=VALUE`. A missing required argument, an
 * unknown prompt or the server's refusal is a UsageError (exit 2) before the model is asked anything.
 * `sprout-agent prompts` lists them beside the prompt files, starting the servers a run would start.
 */
import { findMcpPrompt, mcpArgumentHint, mcpCommandName, mcpCommandServer, mcpPromptArguments, mcpPromptText, typeableMcpPrompt, unknownMcpPromptMessage, type McpPromptInfo } from '../agent/mcpPrompts';
import type { ImagePart } from '../agent/messages';
import { quotedName } from '../agent/nameText';
import type { Logger } from '../agent/ports';
import type { McpHub } from '../mcp/mcpHub';
import { createHub } from '../runtime/compose';
import type { CliIo } from './cliIo';
import { selectAndAnnounce, type ServerOptions } from './cliServers';
import { mcpProtocolOptions } from './cliSettings';
import { UsageError } from './exitCodes';

/** A typed `/mcp...` command, kept until the servers can be asked. */
export interface PendingMcpPrompt {
  name: string;
  args: string;
}

/** The prompt the server gives for the command, with its images; what it left out is said on stderr. */
export async function cliMcpPrompt(hub: McpHub, pending: PendingMcpPrompt, inputs: Readonly<Record<string, string>>, io: Pick<CliIo, 'stderr' | 'interrupt'>): Promise<{ prompt: string; images: ImagePart[] }> {
  const signal = io.interrupt;
  const server = mcpCommandServer(pending.name);
  const named = server !== undefined && hub.serverNames().includes(server);
  const prompts = named ? await hub.listPrompts([server]) : [];
  const prompt = findMcpPrompt(pending.name, prompts);
  if (prompt === undefined) {
    const configured = named ? '' : ` (the run's servers: ${hub.serverNames().join(', ') || 'none'})`;
    throw new UsageError(`${unknownMcpPromptMessage(pending.name, prompts)}${configured}`);
  }
  const args = mcpPromptArguments(prompt, pending.args, inputs);
  if (!args.ok) {
    const names = args.missing.map((m) => `${m.name}${m.placeholder ? ` (${m.placeholder})` : ''}`).join(', ');
    const order = prompt.arguments.map((a) => a.name).join(' ');
    throw new UsageError(`/${mcpCommandName(prompt)} needs the argument${args.missing.length === 1 ? '' : 's'} ${names}: give them after the command in this order (${order}) or pass ${args.missing.map((m) => `--input ${m.name}=...`).join(' ')}.`);
  }
  let messages;
  try {
    messages = await hub.getPrompt(prompt, args.values, signal);
  } catch (error) {
    signal.throwIfAborted();
    throw new UsageError((error as Error).message);
  }
  const expanded = mcpPromptText(prompt, messages);
  if (expanded.text === '' && expanded.images.length === 0) throw new UsageError(`/${mcpCommandName(prompt)}: the server's prompt has no text or image to send.`);
  if (expanded.skipped.length > 0) io.stderr.write(`sprout-agent: /${mcpCommandName(prompt)}: left out of the prompt: ${expanded.skipped.join(', ')}.\n`);
  return { prompt: expanded.text, images: expanded.images };
}

/** The MCP prompts `sprout-agent prompts` lists, and what kept a server's from the list. */
export interface McpPromptListing {
  prompts: McpPromptInfo[];
  /** One per server that failed to start or to list its prompts, naming it and why. */
  notes: string[];
}

/**
 * The prompts of the servers a run would configure (--mcp-config, the trusted workspace's
 * .vscode/mcp.json), each started for the listing and stopped after it. The bundled servers offer no
 * prompts, so they do not start.
 */
export async function listCliMcpPrompts(options: ServerOptions, workspaceFolder: string, io: CliIo, logger: Logger): Promise<McpPromptListing> {
  const selection = selectAndAnnounce({ ...options, builtinServers: '' }, workspaceFolder, io.env, io.stderr);
  if (selection.configured.length === 0) return { prompts: [], notes: [] };
  const hub = createHub(selection.configured, { clientVersion: io.version, logger, parentEnv: { ...io.env }, ...mcpProtocolOptions(io.env) });
  const failures = new Map<string, string>();
  const unsubscribe = hub.subscribe((event) => {
    if (event.type === 'server_error' && !failures.has(event.server)) failures.set(event.server, event.message);
  });
  try {
    const prompts = await hub.listPrompts(hub.serverNames());
    for (const status of hub.status()) {
      if (status.state === 'failed' && !failures.has(status.name)) failures.set(status.name, status.error ?? 'it failed to start');
    }
    const notes = [...failures].map(([server, why]) => `MCP server ${quotedName(server)}: its prompts are not listed: ${why}`);
    return { prompts: prompts.filter(typeableMcpPrompt), notes };
  } finally {
    unsubscribe();
    await hub.close();
  }
}

/** One listed prompt as `--json` gives it. */
export function mcpPromptJson(p: McpPromptInfo): Record<string, unknown> {
  return { server: p.server, name: p.name, command: `/${mcpCommandName(p)}`, ...(p.title === undefined ? {} : { title: p.title }), description: p.description ?? '', arguments: p.arguments };
}

/** One listed prompt as a line of the text listing. */
export function mcpPromptLine(p: McpPromptInfo): string {
  const hint = mcpArgumentHint(p);
  return `  /${mcpCommandName(p)}${hint === '' ? '' : ` ${hint}`}  ${p.description ?? p.title ?? ''}  (MCP server ${quotedName(p.server)})`;
}
