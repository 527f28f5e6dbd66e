/**
 * Which MCP servers this window runs: user-level `sprout.mcp.servers`, then workspace-defined ones
 * (`sprout.mcp.servers` in workspace settings and `.vscode/mcp.json`), then the bundled servers, which
 * stay on beside them (a configured server with an enabled bundled server's name does not start).
 * Workspace-defined servers start only in a trusted workspace and with the user's consent for their
 * exact command, and never under a bundled server's name (tool approvals are by qualified name), and
 * get a secret variable only with the user's consent for it (secretConsent.ts); every server left out is
 * reported with the reason so the UI can say why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseMcpConfig, readMcpConfigJson, type McpConfigVars, type McpServerConfig } from '../../mcp/config';
import { referencedInputs, type McpInputSpec } from '../../mcp/configInputs';
import type { SecretPolicy, SecretUse } from '../../mcp/secretVariables';
import { bundledServerConfigs, isBundledServerName, type BundledServerName } from '../../runtime/bundledServers';
import type { ConsentStore } from './consentStore';
import type { BuiltinServers } from './settingsMapping';
import { quotedName } from '../../agent/nameText';

export interface ServerSources {
  workspaceFolder: string;
  trusted: boolean;
  userServers: Record<string, unknown>;
  workspaceServers: Record<string, unknown>;
  builtins: BuiltinServers;
  distDir: string;
  stateDir: string;
  /** Values for the `${input:id}` placeholders of `.vscode/mcp.json` (SecretStorage, asked once). */
  inputs?: (source: string, specs: readonly McpInputSpec[], signal?: AbortSignal) => Promise<Map<string, string>>;
  /** Protected-path patterns added by the settings, for the bundled workspace server. */
  protectedPaths?: readonly string[];
  /** Secret values the host knows (the API key): a variable holding one is a secret whatever its name. */
  knownSecrets?: readonly string[];
  /** Whether a workspace-defined server may have a secret variable (asked once per server, variable and destination); absent: never. */
  secretConsent?: (use: SecretUse) => Promise<boolean>;
  /** The resolving build's: once it aborts (superseded, or the window closing) nothing more is asked of the user. */
  signal?: AbortSignal;
}

export interface ResolvedServers {
  servers: McpServerConfig[];
  /** Names of the bundled servers among them. */
  bundled: BundledServerName[];
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

/** Parses with every secret let through, and notes each one, so the user can be asked about it. */
function collecting(sources: ServerSources, uses: SecretUse[]): SecretPolicy {
  return { knownSecrets: sources.knownSecrets, allow: (use) => (uses.push(use), true), howToAllow: () => '' };
}

/** `.vscode/mcp.json`, its inputs resolved first (only those its servers use). */
async function serversFromFile(file: string, sources: ServerSources, notices: string[], uses: SecretUse[]): Promise<McpServerConfig[]> {
  let json: unknown;
  try {
    json = readMcpConfigJson(file);
  } catch (error) {
    notices.push((error as Error).message);
    return [];
  }
  const { specs } = referencedInputs(json);
  const values = specs.length > 0 && sources.inputs !== undefined ? await sources.inputs(file, specs, sources.signal) : new Map<string, string>();
  const vars: McpConfigVars = { workspaceFolder: sources.workspaceFolder, inputs: (id) => values.get(id), notices, secrets: collecting(sources, uses) };
  return parseSafely(() => parseMcpConfig(json, file, vars), notices);
}

/** The workspace's own servers, with the secrets each would receive (`uses`, filled in). */
export async function workspaceDefinedServers(sources: ServerSources, notices: string[], uses: SecretUse[] = []): Promise<McpServerConfig[]> {
  const vars: McpConfigVars = { workspaceFolder: sources.workspaceFolder, notices, secrets: collecting(sources, uses) };
  const fromSettings = parseSafely(() => parseMcpConfig({ servers: sources.workspaceServers }, 'workspace setting sprout.mcp.servers', vars), notices);
  const file = join(sources.workspaceFolder, '.vscode', 'mcp.json');
  const fromFile = existsSync(file) ? await serversFromFile(file, sources, notices, uses) : [];
  const names = new Set(fromSettings.map((s) => s.name));
  return [...fromSettings, ...fromFile.filter((s) => !names.has(s.name))];
}

/** The first secret of `server` the user does not let it have, or undefined when it may have them all. */
async function refusedSecret(server: McpServerConfig, uses: readonly SecretUse[], sources: ServerSources): Promise<SecretUse | undefined> {
  for (const use of uses.filter((u) => u.server === server.name)) {
    if (!(await sources.secretConsent?.(use))) return use;
  }
  return undefined;
}

/** The names a workspace defines, read without parsing (nothing is expanded or asked for). */
function untrustedServerNames(sources: ServerSources): string[] {
  const names = Object.keys(sources.workspaceServers);
  const file = join(sources.workspaceFolder, '.vscode', 'mcp.json');
  if (!existsSync(file)) return names;
  try {
    const json = readMcpConfigJson(file) as { servers?: Record<string, unknown>; mcpServers?: Record<string, unknown> };
    for (const name of [...Object.keys(json.servers ?? {}), ...Object.keys(json.mcpServers ?? {})]) if (!names.includes(name)) names.push(name);
  } catch {
    // An unreadable file starts nothing either; the names are only for the notice.
  }
  return names;
}

/**
 * The bundled servers stay on beside the user's; a user-defined server may not take an enabled bundled
 * server's name (a hook allowlist entry "todo" must mean one server). The user's one is left out with
 * a notice naming both; the bundled one starts. (Workspace-defined servers may take no bundled name.)
 */
function withoutBundledNames(servers: McpServerConfig[], builtins: BuiltinServers, source: string, notices: string[]): McpServerConfig[] {
  const enabled = (Object.keys(builtins) as BundledServerName[]).filter((name) => builtins[name]);
  return servers.filter((server) => {
    if (!(enabled as string[]).includes(server.name)) return true;
    notices.push(
      `MCP server ${quotedName(server.name)} from ${source} has the same name as the bundled server ${quotedName(server.name)}, so it did not start: ` +
        `two servers cannot share a name. Rename it, or turn the bundled one off in sprout.mcp.builtinServers.`,
    );
    return false;
  });
}

export async function resolveServers(sources: ServerSources, consent: ConsentStore): Promise<ResolvedServers> {
  const notices: string[] = [];
  const vars: McpConfigVars = { workspaceFolder: sources.workspaceFolder, notices };
  const userSource = 'user setting sprout.mcp.servers';
  const user = withoutBundledNames(parseSafely(() => parseMcpConfig({ servers: sources.userServers }, userSource, vars), notices), sources.builtins, userSource, notices);
  // An untrusted workspace's file is not even read: its inputs would be asked for servers that never start.
  const uses: SecretUse[] = [];
  const workspace = (sources.trusted ? await workspaceDefinedServers(sources, notices, uses) : []).filter((server) => {
    // Approvals are by name: a workspace server named `workspace` would inherit the bundled one's,
    // so no bundled name is free for the workspace, enabled or not.
    if (!isBundledServerName(server.name)) return true;
    notices.push(
      `MCP server ${quotedName(server.name)} from this workspace did not start: ${quotedName(server.name)} is the name of a bundled server, and approvals given to its tools must not pass to another server. Rename it in .vscode/mcp.json or in the workspace's sprout.mcp.servers.`,
    );
    return false;
  });
  const allowed: McpServerConfig[] = [];
  const blocked = sources.trusted ? [] : untrustedServerNames(sources);
  if (blocked.length > 0) {
    notices.push(`This workspace is not trusted, so its MCP servers (${blocked.join(', ')}) and hooks do not start. Trust the workspace to use them.`);
  } else {
    for (const server of workspace) {
      if (!(await consent.ensure(server, sources.signal))) {
        notices.push(`MCP server ${quotedName(server.name)} from this workspace did not start: you declined it. It asks again when its command changes.`);
        continue;
      }
      const refused = await refusedSecret(server, uses, sources);
      if (refused === undefined) allowed.push(server);
      else notices.push(`MCP server ${quotedName(server.name)} from this workspace did not start: you did not allow it your secret \${env:${refused.variable}} (it would go to ${refused.destination}). It asks again if that changes.`);
    }
  }
  const names = (Object.keys(sources.builtins) as BundledServerName[]).filter((name) => sources.builtins[name]);
  const safeNames = sources.trusted ? names : names.filter((name) => name !== 'tests');
  if (safeNames.length < names.length) notices.push('The bundled test runner does not start in an untrusted workspace: it would run the workspace\'s test command.');
  const bundled = bundledServerConfigs(safeNames, {
    distDir: sources.distDir,
    stateDir: sources.stateDir,
    workspaceFolder: sources.workspaceFolder,
    protectedPaths: sources.protectedPaths,
  });
  return { servers: [...user, ...allowed, ...bundled], bundled: safeNames, notices };
}
