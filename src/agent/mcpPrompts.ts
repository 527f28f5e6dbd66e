/**
 * MCP prompts as slash commands (docs: README.md#mcp-prompts-as-slash-commands): each connected
 * server's `prompts/list` entry is `/mcp.SERVER.PROMPT`, VS Code's form (Claude Code's
 * `/mcp__SERVER__PROMPT` is read too). Pure: the name, which prompt a typed command means, its
 * arguments from the text typed after it (positional in declared order, or `name=value`), and the
 * prompt a `prompts/get` answer becomes. The hosts list the prompts, ask for missing arguments and
 * call the server (src/mcp/mcpPrompts.ts). What a server says is untrusted: its words are shown
 * escaped, under its name.
 */
import { argumentWords, type CommandInput } from './promptCommands';
import { quotedName, visibleName } from './nameText';
import type { ImagePart } from './messages';

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  server: string;
  /** The prompt's name as the server lists it (`prompts/get` takes it). */
  name: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

const PREFIX = 'mcp.';
/** What a slash command's name may hold (src/agent/promptCommands.ts reads `/name` the same way). */
const COMMAND_PART = /^[A-Za-z0-9][\w:-]*$/;

/** `/mcp.SERVER.PROMPT` without its slash. */
export function mcpCommandName(prompt: Pick<McpPromptInfo, 'server' | 'name'>): string {
  return `${PREFIX}${prompt.server}.${prompt.name}`;
}

/** The arguments as a hint after the command: `<required> [optional]`, in declared order. */
export function mcpArgumentHint(prompt: Pick<McpPromptInfo, 'arguments'>): string {
  return prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
}

/** Whether a server's prompt can be typed as a command (a name with spaces or dots cannot). */
export function typeableMcpPrompt(prompt: Pick<McpPromptInfo, 'server' | 'name'>): boolean {
  return COMMAND_PART.test(prompt.server) && COMMAND_PART.test(prompt.name);
}

/** Whether a typed command names an MCP prompt (`mcp.x.y`, or Claude Code's `mcp__x__y`). */
export function isMcpCommand(name: string): boolean {
  return /^mcp(\.[^.]+\.|__.+__)./.test(name);
}

/** The prompt a typed command names, or undefined. */
export function findMcpPrompt(name: string, prompts: readonly McpPromptInfo[]): McpPromptInfo | undefined {
  return prompts.find((p) => typeableMcpPrompt(p) && (mcpCommandName(p) === name || `mcp__${p.server}__${p.name}` === name));
}

/** The server a typed `mcp.SERVER.PROMPT` (or `mcp__SERVER__PROMPT`) names. */
export function mcpCommandServer(name: string): string | undefined {
  if (!isMcpCommand(name)) return undefined;
  const m = /^mcp(?:\.([^.]+)\.|__(.+?)__)/.exec(name);
  return m?.[1] ?? m?.[2];
}

export type McpArguments = { ok: true; values: Record<string, string> } | { ok: false; missing: CommandInput[]; values: Record<string, string> };

/**
 * The arguments of a prompt from what was typed after it and the inputs given by name (`--input`, the
 * editor's boxes): a `name=value` word for a declared argument is that argument; the other words fill
 * the arguments in declared order, the last one taking the rest ("/mcp.x.review fix the login" gives
 * one declared argument the whole text). A required argument nothing gave is missing.
 */
export function mcpPromptArguments(prompt: McpPromptInfo, typed: string, inputs: Readonly<Record<string, string>> = {}): McpArguments {
  const declared = new Set(prompt.arguments.map((a) => a.name));
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of argumentWords(typed)) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/.exec(word);
    if (m !== null && declared.has(m[1]!)) values[m[1]!] = m[2]!;
    else positional.push(word);
  }
  const open = prompt.arguments.filter((a) => values[a.name] === undefined && inputs[a.name] === undefined);
  open.forEach((argument, i) => {
    const words = i === open.length - 1 ? positional.slice(i) : positional.slice(i, i + 1);
    if (words.length > 0) values[argument.name] = words.join(' ');
  });
  Object.assign(values, Object.fromEntries(Object.entries(inputs).filter(([name]) => declared.has(name))));
  const missing = prompt.arguments.filter((a) => a.required && (values[a.name] === undefined || values[a.name] === ''));
  if (missing.length > 0) return { ok: false, missing: missing.map((a) => ({ name: a.name, ...(a.description ? { placeholder: a.description } : {}) })), values };
  return { ok: true, values };
}

/** One message of a `prompts/get` answer as the wire has it (the content is read defensively). */
export interface McpPromptMessage {
  role: string;
  content: unknown;
}

export interface McpPromptText {
  text: string;
  images: ImagePart[];
  /** What was left out (audio, a binary resource), said to the user. */
  skipped: string[];
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function partText(content: unknown, images: ImagePart[], skipped: string[], label: string): string | undefined {
  const type = field(content, 'type');
  const text = field(content, 'text');
  if (type === 'text' && typeof text === 'string') return text;
  const data = field(content, 'data');
  const mimeType = field(content, 'mimeType');
  if (type === 'image' && typeof data === 'string' && typeof mimeType === 'string' && IMAGE_TYPES.has(mimeType)) {
    images.push({ mimeType, data, name: `image ${images.length + 1} from ${label}` });
    return undefined;
  }
  const resource = field(content, 'resource');
  const resourceText = field(resource, 'text');
  const uri = field(resource, 'uri');
  if (type === 'resource' && typeof resourceText === 'string') return `${typeof uri === 'string' ? `Resource ${uri}:\n` : ''}${resourceText}`;
  skipped.push(type === 'resource' && typeof uri === 'string' ? `the binary resource ${visibleName(uri)}` : `a part of type ${visibleName(String(type))}`);
  return undefined;
}

/**
 * The prompt a `prompts/get` answer becomes: the messages' text in order (an assistant message marked
 * as such, since the whole is sent as one user prompt), an embedded resource's text, images as image
 * parts; anything else is left out and said.
 */
export function mcpPromptText(prompt: Pick<McpPromptInfo, 'server' | 'name'>, messages: readonly McpPromptMessage[]): McpPromptText {
  const images: ImagePart[] = [];
  const skipped: string[] = [];
  const label = `/${mcpCommandName(prompt)}`;
  const parts: string[] = [];
  for (const message of messages) {
    const contents = Array.isArray(message.content) ? (message.content as unknown[]) : [message.content];
    for (const content of contents) {
      const text = partText(content, images, skipped, label);
      if (text === undefined || text.trim() === '') continue;
      parts.push(message.role === 'assistant' ? `(assistant) ${text}` : text);
    }
  }
  return { text: parts.join('\n\n').trim(), images, skipped };
}

/** What a server's refusal or failure says to the user: the command, the server by name, its words escaped and capped. */
export function mcpPromptFailure(prompt: Pick<McpPromptInfo, 'server' | 'name'>, words: string): string {
  const capped = words.length > 500 ? `${words.slice(0, 500)}...` : words;
  return `/${visibleName(mcpCommandName(prompt))}: MCP server ${quotedName(prompt.server)} answered prompts/get with an error: ${visibleName(capped.replace(/\s+/g, ' '))}`;
}

/** The error for a `/mcp.x.y` no connected server lists, naming the close ones. */
export function unknownMcpPromptMessage(name: string, prompts: readonly McpPromptInfo[]): string {
  const names = prompts.filter(typeableMcpPrompt).map(mcpCommandName);
  const serverName = mcpCommandServer(name) ?? '';
  const ofServer = names.filter((n) => n.startsWith(`${PREFIX}${serverName}.`));
  const hint = ofServer.length > 0 ? ` MCP server ${quotedName(serverName)} lists: ${ofServer.map((n) => `/${visibleName(n)}`).join(', ')}.` : names.length > 0 ? ` The servers list: ${names.slice(0, 10).map((n) => `/${visibleName(n)}`).join(', ')}${names.length > 10 ? ', ...' : ''}.` : ' No connected MCP server lists prompts.';
  return `/${visibleName(name)} is not a prompt of a connected MCP server.${hint}`;
}
