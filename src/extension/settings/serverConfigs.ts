/**
 * Which MCP servers this window runs: user-level `sprout.mcp.servers`, then workspace-defined ones
 * (`sprout.mcp.servers` in workspace settings and `.vscode/mcp.json`), then the bundled servers, which
 * stay on beside them (a configured server with an enabled bundled server's name does not start).
 * Workspace-defined servers start only in a trusted workspace and with the user's consent for their
 * exact command; every server left out is reported with the reason so the UI can say why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadMcpConfigFile, parseMcpConfig, type McpConfigVars, type McpServerConfig } from '../../mcp/config';
import { bundledServerConfigs, type BundledServerName } from '../../runtime/bundledServers';
import type { ConsentStore } from './consentStore';
import type { BuiltinServers } from './settingsMapping';

export interface ServerSources {
  workspaceFolder: string;
  trusted: boolean;
  userServers: Record<string, unknown>;
  workspaceServers: Record<string, unknown>;
  builtins: BuiltinServers;
  distDir: string;
  stateDir: string;
}

export interface ResolvedServers {
  servers: McpServerConfig[];
  /** Human-readable reasons for servers that were left out or broken. */
  notices: string[];
}

function parseSafely(parse: () => McpServerConfig[], notices: string[]): McpServerConfig[] {
  try {
    return parse();
  } catch (error) {
    notices.push((error as Error).message);
    return [];
  }
}

export function workspaceDefinedServers(sources: ServerSources, notices: string[]): McpServerConfig[] {
  const vars: McpConfigVars = { workspaceFolder: sources.workspaceFolder };
  const fromSettings = parseSafely(() => parseMcpConfig({ servers: sources.workspaceServers }, 'workspace setting sprout.mcp.servers', vars), notices);
  const file = join(sources.workspaceFolder, '.vscode', 'mcp.json');
  const fromFile = existsSync(file) ? parseSafely(() => loadMcpConfigFile(file, vars), notices) : [];
  const names = new Set(fromSettings.map((s) => s.name));
  return [...fromSettings, ...fromFile.filter((s) => !names.has(s.name))];
}

/**
 * The bundled servers stay on beside the user's; a configured server may not take an enabled bundled
 * server's name (a hook allowlist entry "todo" must mean one server). The configured one is left out
 * with a notice naming both; the bundled one starts.
 */
function withoutBundledNames(servers: McpServerConfig[], builtins: BuiltinServers, source: string, notices: string[]): McpServerConfig[] {
  const enabled = (Object.keys(builtins) as BundledServerName[]).filter((name) => builtins[name]);
  return servers.filter((server) => {
    if (!(enabled as string[]).includes(server.name)) return true;
    notices.push(
      `MCP server "${server.name}" from ${source} has the same name as the bundled server "${server.name}", so it did not start: ` +
        `two servers cannot share a name. Rename it, or turn the bundled one off in sprout.mcp.builtinServers.`,
    );
    return false;
  });
}

export async function resolveServers(sources: ServerSources, consent: ConsentStore): Promise<ResolvedServers> {
  const notices: string[] = [];
  const vars: McpConfigVars = { workspaceFolder: sources.workspaceFolder };
  const userSource = 'user setting sprout.mcp.servers';
  const user = withoutBundledNames(parseSafely(() => parseMcpConfig({ servers: sources.userServers }, userSource, vars), notices), sources.builtins, userSource, notices);
  const workspace = withoutBundledNames(workspaceDefinedServers(sources, notices), sources.builtins, "this workspace's sprout.mcp.servers or .vscode/mcp.json", notices);
  const allowed: McpServerConfig[] = [];
  if (!sources.trusted && workspace.length > 0) {
    notices.push(`This workspace is not trusted, so its MCP servers (${workspace.map((s) => s.name).join(', ')}) and hooks do not start. Trust the workspace to use them.`);
  } else {
    for (const server of workspace) {
      if (await consent.ensure(server)) allowed.push(server);
      else notices.push(`MCP server "${server.name}" from this workspace did not start: you declined it. It asks again when its command changes.`);
    }
  }
  const names = (Object.keys(sources.builtins) as BundledServerName[]).filter((name) => sources.builtins[name]);
  const safeNames = sources.trusted ? names : names.filter((name) => name !== 'tests');
  if (safeNames.length < names.length) notices.push('The bundled test runner does not start in an untrusted workspace: it would run the workspace\'s test command.');
  const bundled = bundledServerConfigs(safeNames, { distDir: sources.distDir, stateDir: sources.stateDir, workspaceFolder: sources.workspaceFolder });
  return { servers: [...user, ...allowed, ...bundled], notices };
}
