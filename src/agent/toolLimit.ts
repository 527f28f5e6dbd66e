/**
 * The most tools one request carries. OpenAI, Azure and most gateways refuse a request with more than
 * 128 ("array too long", https://github.com/zed-industries/zed/issues/32946), and VS Code's models
 * take no more either. Rather than end the run with the provider's refusal, a round offers what fits.
 *
 * Which servers fit: every server gets an equal share of the room; a server that lists fewer leaves the
 * rest to the others, so a small server is never cut because a big one (10,000 tools) is there. The
 * servers that do not fit their share are the ones whose tools the model finds through the tool search
 * (toolSearch.ts), said once with their names and counts (`tools_limited`); where a cut is needed
 * among loaded tools, a server's tools are taken in the order it lists them. Servers keep the order of
 * the configuration. Pure.
 */
import type { ToolInfo } from './messages';
import { splitQualifiedName } from './toolNames';

export const MAX_TOOLS_PER_REQUEST = 128;

export interface ServerToolCount {
  server: string;
  /** The tools it lists (hooks not counted: they never reach the model). */
  listed: number;
  /** Those this request offers (behind the tool search: those loaded). */
  offered: number;
}

export interface ToolsLimited {
  limit: number;
  listed: number;
  /** The servers that did not fit (behind the tool search), in configuration order. */
  servers: ServerToolCount[];
}

/** Each server's share of `limit` (water-filling over the servers' counts), in the counts' order. */
export function fairShares(counts: readonly number[], limit: number): number[] {
  const shares = counts.map(() => 0);
  let room = limit;
  let open = counts.map((_, i) => i).filter((i) => (counts[i] ?? 0) > 0);
  while (room > 0 && open.length > 0) {
    const each = Math.max(1, Math.floor(room / open.length));
    for (const i of open) {
      if (room === 0) break;
      const take = Math.min(each, (counts[i] ?? 0) - (shares[i] ?? 0), room);
      shares[i] = (shares[i] ?? 0) + take;
      room -= take;
    }
    open = open.filter((i) => (shares[i] ?? 0) < (counts[i] ?? 0));
  }
  return shares;
}

function serverOf(tool: ToolInfo): string {
  return tool.server || (splitQualifiedName(tool.qualifiedName)?.server ?? '');
}

/** The tools that fit the limit (all of them when they do), and which servers were cut. */
export function fitToolLimit<T extends ToolInfo>(tools: readonly T[], limit = MAX_TOOLS_PER_REQUEST): { tools: T[]; limited?: ToolsLimited } {
  if (tools.length <= limit) return { tools: [...tools] };
  const byServer = new Map<string, T[]>();
  for (const tool of tools) {
    const server = serverOf(tool);
    const list = byServer.get(server);
    if (list === undefined) byServer.set(server, [tool]);
    else list.push(tool);
  }
  const servers = [...byServer.keys()];
  const shares = fairShares(
    servers.map((s) => byServer.get(s)?.length ?? 0),
    limit,
  );
  const kept = new Set<T>();
  const cut: ServerToolCount[] = [];
  servers.forEach((server, i) => {
    const list = byServer.get(server) ?? [];
    const share = shares[i] ?? 0;
    for (const tool of list.slice(0, share)) kept.add(tool);
    if (share < list.length) cut.push({ server, listed: list.length, offered: share });
  });
  return { tools: tools.filter((t) => kept.has(t)), limited: { limit, listed: tools.length, servers: cut } };
}

/** One line naming the servers behind the tool search: `big (10000 tools), wide (40 tools, 2 loaded)`. */
export function limitedServersText(servers: readonly ServerToolCount[]): string {
  return servers.map((s) => `${s.server} (${s.listed} tools${s.offered > 0 ? `, ${s.offered} loaded` : ''})`).join(', ');
}
