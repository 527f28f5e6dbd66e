/**
 * The `#` menu's completions (src/webview/mentionMenu.ts): `#file:` and `#folder:` from the
 * workspace's files, `#symbol:` from the workspace symbol providers, `#resource:` from the connected
 * MCP servers' resources. Each list is short (the menu shows a screenful); a failure lists nothing.
 */
import * as vscode from 'vscode';
import type { ResourceHost } from '../../agent/resources';
import type { CompletedMention } from '../../shared/mentions';
import type { MentionItem } from '../../shared/protocol';
import { searchWorkspaceSymbols, symbolName, symbolQuery } from '../editorServer/workspaceSymbols';

const MAX_ITEMS = 50;

async function paths(query: string, folders: boolean): Promise<MentionItem[]> {
  const uris = await vscode.workspace.findFiles(`**/*${query.replace(/[[\]{}*?]/g, '')}*`, '**/{node_modules,.git}/**', 2000);
  const relative = uris.map((u) => vscode.workspace.asRelativePath(u, false));
  const names = folders ? [...new Set(relative.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))))] : relative;
  const lower = query.toLowerCase();
  return names
    .filter((p) => p.toLowerCase().includes(lower))
    .sort((a, b) => Number(!a.toLowerCase().startsWith(lower)) - Number(!b.toLowerCase().startsWith(lower)) || a.length - b.length || a.localeCompare(b))
    .slice(0, MAX_ITEMS)
    .map((p) => ({ insert: `#${folders ? 'folder' : 'file'}:${p}`, description: folders ? 'folder' : 'file' }));
}

/** Completions answer while the user types: a shorter bound than a sent mention's. */
const COMPLETION_BOUND_MS = 8_000;

async function symbols(query: string): Promise<MentionItem[]> {
  if (symbolQuery(query) === '') return [];
  const search = await searchWorkspaceSymbols(query, { boundMs: COMPLETION_BOUND_MS, enough: (found) => found.length > 0 });
  // One row per name, kind and file (overloads and declaration merging repeat a name in one file).
  const items = new Map<string, MentionItem>();
  for (const s of search.symbols) {
    const item = { insert: `#symbol:${symbolName(s)}`, description: `${vscode.SymbolKind[s.kind]} in ${vscode.workspace.asRelativePath(s.location.uri, false)}` };
    items.set(`${item.insert} ${item.description}`, item);
  }
  return [...items.values()].slice(0, MAX_ITEMS);
}

async function resources(host: ResourceHost | undefined): Promise<MentionItem[]> {
  if (host === undefined || host.servers().length === 0) return [];
  const listing = await host.list(AbortSignal.timeout(30_000));
  return listing.resources.slice(0, 500).map((r) => ({ insert: `#resource:${r.server}:${r.uri}`, description: `${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType})` : ''}, server ${r.server}` }));
}

export async function mentionCompletions(kind: CompletedMention, query: string, host: ResourceHost | undefined): Promise<MentionItem[]> {
  try {
    if (kind === 'symbol') return await symbols(query);
    if (kind === 'resource') return await resources(host);
    return await paths(query, kind === 'folder');
  } catch {
    return [];
  }
}
