/**
 * MCP resources as the model meets them: two tools the core answers itself (like the tool search and
 * `sprout__read_skill`), offered only while some connected server says it has resources.
 * `sprout__list_resources` lists every such server's resources and templates; `sprout__read_resource`
 * reads one by server and URI. A resource read is a read (no side effect by the MCP spec), so neither
 * asks for approval or passes `_PreToolUse`; every mode may use them. What comes back is a server's
 * text, untrusted like any tool result: text goes as text, a blob is named with its type and size,
 * never inlined. The host (src/mcp/mcpResources.ts) does the I/O behind the `ResourceHost` port.
 */
import type { ToolCallResult } from './messages';
import { parseToolArguments } from './toolArguments';
import { errorMessage } from './errorMessage';
import { quotedName } from './nameText';
import { CANCELLED_TOOL_RESULT } from './historyValidity';

/** A tool as offered (ports.ts's ToolSpec, named here structurally: ports.ts names this file's host). */
interface ResourceToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export const LIST_RESOURCES_TOOL_NAME = 'sprout__list_resources';
export const READ_RESOURCE_TOOL_NAME = 'sprout__read_resource';
/** At most this many resources per server in a listing (the rest are counted, not named). */
export const LISTED_RESOURCES_PER_SERVER = 200;

/** A resource by its server and URI (an attached one: resourceWatch.ts). */
export interface ResourceRef {
  server: string;
  uri: string;
}

export interface ResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplateInfo {
  server: string;
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceListing {
  resources: ResourceInfo[];
  templates: ResourceTemplateInfo[];
  /** Servers whose listing failed, each with the reason. */
  errors: { server: string; message: string }[];
}

/** One content of a `resources/read` answer: text, or a blob named by its type and size. */
export type ResourceContent = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blobBytes: number; blob?: string };

/** What the host offers for resources (McpHub implements it). */
export interface ResourceHost {
  /** Servers connected now whose capabilities include resources; no I/O. */
  servers(): string[];
  list(signal: AbortSignal): Promise<ResourceListing>;
  /** Rejects with a message naming the server and the URI. */
  read(server: string, uri: string, signal: AbortSignal): Promise<ResourceContent[]>;
  /** Asks the server to say when the resource changes: `unsupported` when it offers no subscriptions; rejects naming the server. */
  subscribe?(server: string, uri: string, signal: AbortSignal): Promise<'subscribed' | 'unsupported'>;
  /** Lets go of one `subscribed` answer: the server is told once nothing else holds the resource; never rejects. */
  unsubscribe?(server: string, uri: string): Promise<void>;
  /** Calls the listener when a server says a subscribed resource changed; returns the way to stop. */
  onUpdated?(listener: (server: string, uri: string) => void): () => void;
}

export function resourceToolSpecs(servers: readonly string[]): ResourceToolSpec[] {
  if (servers.length === 0) return [];
  const which = servers.map(quotedName).join(', ');
  return [
    {
      name: LIST_RESOURCES_TOOL_NAME,
      description: `Lists the resources (documents, data, files a server exposes by URI) and resource templates of the MCP servers that have them: ${which}.`,
      parameters: { type: 'object', properties: { server: { type: 'string', description: 'Only this server (optional).' } } },
    },
    {
      name: READ_RESOURCE_TOOL_NAME,
      description: 'Reads one resource of an MCP server by its URI (from the listing, or a template filled in). Text is returned; binary contents are named, not shown.',
      parameters: {
        type: 'object',
        properties: { server: { type: 'string', description: 'The server, as in the listing.' }, uri: { type: 'string', description: 'The resource URI.' } },
        required: ['server', 'uri'],
      },
    },
  ];
}

function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function resourceLine(r: ResourceInfo): string {
  const extra = [r.mimeType, r.size === undefined ? undefined : `${r.size} bytes`].filter((x) => x !== undefined).join(', ');
  const about = oneLine(r.description);
  return `- ${r.uri} (${oneLine(r.title ?? r.name)}${extra === '' ? '' : `; ${extra}`})${about === '' ? '' : `: ${about}`}`;
}

/** The listing as the model reads it: per server its resources (capped) and templates, and the failures. */
export function listingText(listing: ResourceListing, servers: readonly string[]): string {
  const parts: string[] = [];
  for (const server of servers) {
    const resources = listing.resources.filter((r) => r.server === server);
    const templates = listing.templates.filter((t) => t.server === server);
    const error = listing.errors.find((e) => e.server === server);
    const lines = [`Server ${quotedName(server)}:`];
    if (error !== undefined) lines.push(`  (could not be listed: ${error.message})`);
    lines.push(...resources.slice(0, LISTED_RESOURCES_PER_SERVER).map(resourceLine));
    if (resources.length > LISTED_RESOURCES_PER_SERVER) lines.push(`  [${resources.length - LISTED_RESOURCES_PER_SERVER} more resources not listed]`);
    for (const t of templates) lines.push(`- template ${t.uriTemplate} (${oneLine(t.name)}${t.mimeType ? `; ${t.mimeType}` : ''})${t.description ? `: ${oneLine(t.description)}` : ''}`);
    if (resources.length === 0 && templates.length === 0 && error === undefined) lines.push('  (no resources)');
    parts.push(lines.join('\n'));
  }
  return parts.join('\n\n');
}

/** One read's contents as text: each text content whole (the tool result cap applies), each blob named. */
export function contentsText(server: string, uri: string, contents: readonly ResourceContent[]): string {
  if (contents.length === 0) return `Resource ${uri} of server ${quotedName(server)} is empty.`;
  return contents
    .map((c) => {
      const type = c.mimeType === undefined ? '' : ` (${c.mimeType})`;
      if ('text' in c) return `Resource ${c.uri}${type} of server ${quotedName(server)}:\n${c.text}`;
      return `Resource ${c.uri}${type} of server ${quotedName(server)}: binary, ${c.blobBytes} bytes, not shown.`;
    })
    .join('\n\n');
}

function stringArg(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The answer to a resource tool call, or undefined for any other call (or when no server has resources). */
export async function answerResourceCall(call: { name: string; arguments: string }, host: ResourceHost | undefined, signal: AbortSignal): Promise<ToolCallResult | undefined> {
  if (call.name !== LIST_RESOURCES_TOOL_NAME && call.name !== READ_RESOURCE_TOOL_NAME) return undefined;
  const servers = host?.servers() ?? [];
  if (host === undefined || servers.length === 0) return undefined;
  const parsed = parseToolArguments(call.arguments);
  const args = parsed.ok ? parsed.value : {};
  const server = stringArg(args, 'server');
  if (server !== undefined && !servers.includes(server)) return { isError: true, text: `${call.name}: no server ${quotedName(server)} with resources. Servers with resources: ${servers.map(quotedName).join(', ')}.` };
  try {
    if (call.name === LIST_RESOURCES_TOOL_NAME) return { isError: false, text: listingText(await host.list(signal), server === undefined ? servers : [server]) };
    const uri = stringArg(args, 'uri');
    if (server === undefined || uri === undefined) return { isError: true, text: `${READ_RESOURCE_TOOL_NAME}: give "server" and "uri" (list them with ${LIST_RESOURCES_TOOL_NAME}).` };
    return { isError: false, text: contentsText(server, uri, await host.read(server, uri, signal)) };
  } catch (error) {
    if (signal.aborted) return { isError: true, text: CANCELLED_TOOL_RESULT };
    return { isError: true, text: `${call.name}: ${errorMessage(error)}` };
  }
}
