/**
 * One server's prompts over its SDK client: `prompts/list` read into the core's shape (an entry the
 * schema does not describe is skipped), `prompts/get` with its failure named and escaped
 * (src/agent/mcpPrompts.ts), and `completion/complete` for an argument when the server offers it.
 * McpHub calls these with the connection that is up; the slash commands are the core's.
 */
import type { Client } from '@modelcontextprotocol/client';
import { errorMessage } from '../agent/errorMessage';
import { mcpPromptFailure, type McpPromptInfo, type McpPromptMessage } from '../agent/mcpPrompts';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The server's prompts; none when it does not offer prompts. */
export async function listServerPrompts(client: Client, server: string, timeoutMs: number): Promise<McpPromptInfo[]> {
  if (client.getServerCapabilities()?.prompts === undefined) return [];
  const { prompts } = await client.listPrompts(undefined, { timeout: timeoutMs, cacheMode: 'refresh' });
  const infos: McpPromptInfo[] = [];
  for (const raw of prompts as unknown[]) {
    const p = raw as { name?: unknown; title?: unknown; description?: unknown; arguments?: unknown };
    if (typeof p.name !== 'string' || p.name === '') continue;
    const args = Array.isArray(p.arguments) ? (p.arguments as { name?: unknown; description?: unknown; required?: unknown }[]) : [];
    const title = text(p.title);
    const description = text(p.description);
    infos.push({
      server,
      name: p.name,
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      arguments: args.filter((a) => typeof a.name === 'string' && a.name !== '').map((a) => ({ name: a.name as string, ...(text(a.description) !== undefined ? { description: a.description as string } : {}), required: a.required === true })),
    });
  }
  return infos;
}

/** The prompt's messages; a refusal or failure is an Error whose message names the server and escapes its words. */
export async function getServerPrompt(client: Client, prompt: Pick<McpPromptInfo, 'server' | 'name'>, args: Record<string, string>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<McpPromptMessage[]> {
  try {
    const result = await client.getPrompt({ name: prompt.name, arguments: args }, { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    return Array.isArray(result.messages) ? (result.messages as McpPromptMessage[]) : [];
  } catch (error) {
    options.signal?.throwIfAborted();
    throw new Error(mcpPromptFailure(prompt, errorMessage(error)), { cause: error });
  }
}

/** Values the server suggests for an argument (`completion/complete`); none when it offers no completions or fails. */
export async function completePromptArgument(client: Client, prompt: Pick<McpPromptInfo, 'name'>, argument: { name: string; value: string }, given: Record<string, string>, timeoutMs: number): Promise<string[]> {
  if (client.getServerCapabilities()?.completions === undefined) return [];
  try {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: prompt.name }, argument, context: { arguments: given } }, { timeout: timeoutMs });
    return result.completion.values.filter((v): v is string => typeof v === 'string').slice(0, 100);
  } catch {
    // Suggestions are a convenience: a server that fails them leaves the box free to type in.
    return [];
  }
}
