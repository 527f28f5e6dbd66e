/**
 * MCP prompts in the CLI (docs: README.md#mcp-prompts-as-slash-commands): `sprout-agent
 * "/mcp.SERVER.PROMPT a b"` asks the server for the prompt once the run's servers are configured, its
 * arguments positional in declared order or `--input NAME=VALUE`. A missing required argument, an
 * unknown prompt or the server's refusal is a UsageError (exit 2) before the model is asked anything.
 */
import { findMcpPrompt, mcpCommandName, mcpCommandServer, mcpPromptArguments, mcpPromptText, unknownMcpPromptMessage } from '../agent/mcpPrompts';
import type { ImagePart } from '../agent/messages';
import type { McpHub } from '../mcp/mcpHub';
import type { CliIo } from './cliIo';
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
