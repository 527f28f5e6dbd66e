/**
 * Tool search: when the servers list more tools than one request may carry (toolLimit.ts), the model
 * is offered `sprout__search_tools` and the tools it has loaded in this conversation instead of a cut
 * of them. A search ranks every tool (hooks never) over its name, its server and its description; the
 * tools it finds are loaded (a `tools_loaded` event, kept in the transcript, so a resumed conversation
 * has them too) and join the next round. A call of a tool that exists but is not loaded is answered
 * with how to load it, not run and not an error. Pure, but for the answer's event.
 */
import type { ToolSpec } from './ports';
import type { ToolCallResult, ToolInfo } from './messages';
import { parseToolArguments } from './toolArguments';
import { MAX_TOOLS_PER_REQUEST, fitToolLimit, type ToolsLimited } from './toolLimit';

export const SEARCH_TOOL_NAME = 'sprout__search_tools';
/** The most tools one search loads. */
export const SEARCH_RESULTS = 8;

export function searchToolSpec(total: number, servers: readonly string[]): ToolSpec {
  return {
    name: SEARCH_TOOL_NAME,
    description:
      `Finds tools by what they do. ${total} tools of the MCP servers ${servers.join(', ')} are available but not loaded; ` +
      `this returns the best matches for a query (at most ${SEARCH_RESULTS}) and loads them, so they can be called from the next step on.`,
    parameters: { type: 'object', properties: { query: { type: 'string', description: 'Words for what the tool should do, or part of its name or its server.' } }, required: ['query'] },
  };
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
}

/** The tools that best match `query`: a word in the name counts 3, in the server 2, in the description 1. */
export function rankTools(query: string, tools: readonly ToolInfo[], max = SEARCH_RESULTS): ToolInfo[] {
  const wanted = words(query);
  if (wanted.length === 0) return [];
  const scored = tools
    .filter((t) => !t.isHook)
    .map((tool, order) => {
      const name = words(tool.bareName);
      const server = words(tool.server);
      const description = words(tool.description);
      const score = wanted.reduce((sum, w) => sum + (name.some((n) => n.includes(w)) ? 3 : 0) + (server.includes(w) ? 2 : 0) + (description.includes(w) ? 1 : 0), 0);
      return { tool, score, order };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, max).map((s) => s.tool);
}

/** Whether a round uses the search: only when the tools do not all fit one request. */
export function usesSearch(tools: readonly ToolInfo[], limit = MAX_TOOLS_PER_REQUEST): boolean {
  return tools.filter((t) => !t.isHook).length > limit;
}

/**
 * What a round offers: every tool when they fit. Else the servers whose tools fit their share of the
 * room (toolLimit.ts) stay whole, the tools of the others (the ones the fair share would cut) are
 * offered once a search loaded them, and the search tool takes one place. `limited` names the servers
 * behind the search, with how many of their tools are loaded.
 */
export function offeredTools(tools: readonly ToolInfo[], loaded: readonly string[], limit = MAX_TOOLS_PER_REQUEST): { tools: ToolInfo[]; search?: ToolSpec; limited?: ToolsLimited } {
  const visible = tools.filter((t) => !t.isHook);
  if (visible.length <= limit) return { tools: visible };
  const cut = new Set((fitToolLimit(visible, limit - 1).limited?.servers ?? []).map((s) => s.server));
  const names = new Set(loaded);
  const fit = fitToolLimit(
    visible.filter((t) => !cut.has(t.server) || names.has(t.qualifiedName)),
    limit - 1,
  );
  const kept = new Set(fit.tools);
  const deferred = visible.filter((t) => cut.has(t.server));
  const servers = [...cut].map((server) => ({ server, listed: deferred.filter((t) => t.server === server).length, offered: fit.tools.filter((t) => t.server === server).length }));
  return {
    tools: visible.filter((t) => kept.has(t)),
    search: searchToolSpec(deferred.length, [...cut]),
    limited: { limit, listed: visible.length, servers },
  };
}

/** The search's answer to the model: each tool found, with its description's first line. */
export function searchAnswer(query: string, found: readonly ToolInfo[]): string {
  if (found.length === 0) return `No tool matches "${query}". Try other words: what the tool does, or its server's name.`;
  const lines = found.map((t) => `- ${t.qualifiedName}: ${(t.description.split('\n')[0] ?? '').slice(0, 200)}`);
  return [`Loaded ${found.length} ${found.length === 1 ? 'tool' : 'tools'}; call ${found.length === 1 ? 'it' : 'them'} from the next step on:`, ...lines].join('\n');
}

/** The answer to a call of a tool that exists but is not loaded. */
export function notLoadedAnswer(name: string): string {
  return `The tool ${name} is not loaded yet. Call ${SEARCH_TOOL_NAME} with words for what it does (or its name) to load it, then call it.`;
}

/**
 * The answer to a call while the search is in use, or undefined for a call that runs as usual (a tool
 * this round offers, or a name no server lists). `load` records what a search found (`tools_loaded`).
 */
export function answerSearchCall(
  call: { name: string; arguments: string },
  tools: readonly ToolInfo[],
  loaded: readonly string[],
  load: (query: string, names: string[]) => void,
  limit = MAX_TOOLS_PER_REQUEST,
): ToolCallResult | undefined {
  const offered = new Set(offeredTools(tools, loaded, limit).tools.map((t) => t.qualifiedName));
  const waiting = tools.filter((t) => !t.isHook && !offered.has(t.qualifiedName));
  if (call.name === SEARCH_TOOL_NAME) {
    const args = parseToolArguments(call.arguments);
    const query = args.ok && typeof args.value.query === 'string' ? args.value.query : '';
    if (query.trim() === '') return { isError: true, text: `${SEARCH_TOOL_NAME} needs a "query": words for what the tool should do.` };
    const found = rankTools(query, waiting);
    if (found.length > 0) load(query, found.map((t) => t.qualifiedName));
    return { isError: false, text: searchAnswer(query, found) };
  }
  return waiting.some((t) => t.qualifiedName === call.name) ? { isError: false, text: notLoadedAnswer(call.name) } : undefined;
}
