/**
 * Which MCP servers a CLI run starts, and the checks that make a misconfiguration an error instead of
 * a silently missing hook. The bundled servers (`workspace`, `todo` by default) always start unless
 * --builtin-servers / SPROUT_AGENT_BUILTIN_SERVERS says otherwise; the user's servers add to them, and
 * a name both use is an error naming both. A repository is attacker-written: `<cwd>/.vscode/mcp.json`
 * starts only when the user opts in (--trust-workspace / SPROUT_AGENT_TRUST_WORKSPACE=1, or naming the
 * file with --mcp-config); otherwise its servers are only listed, with how to enable them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, parseBoolean } from '../agent/settings';
import type { HookAllowlist } from '../agent/settings';
import { loadMcpConfigFile, stripJsonComments, type McpServerConfig } from '../mcp/config';
import {
  BUNDLED_SERVER_NAMES,
  DEFAULT_BUNDLED_SERVERS,
  isBundledServerName,
  type BundledServerName,
} from '../runtime/bundledServers';
import type { Env } from './cliSettings';
import { UsageError } from './exitCodes';

export interface ServerSelection {
  /** From the MCP config file, in file order; the bundled servers go after them. */
  configured: McpServerConfig[];
  /** The MCP config file in use, if any. */
  configFile: string | undefined;
  bundled: BundledServerName[];
  /** `<cwd>/.vscode/mcp.json` exists but was not opted into: nothing in it starts. */
  untrusted: { file: string; names: string[] } | undefined;
}

export interface ServerSelectionInput {
  workspaceFolder: string;
  mcpConfig: string | undefined;
  builtinServers: string | undefined;
  /** --trust-workspace was given. */
  trustWorkspace: boolean;
  env: Env;
}

const TRUST_HOW = 'pass --trust-workspace (or set SPROUT_AGENT_TRUST_WORKSPACE=1)';

export function parseBuiltinServers(value: string, source: string): BundledServerName[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  const unknown = names.filter((n) => !isBundledServerName(n));
  if (unknown.length > 0) {
    throw new ConfigError(
      source,
      `${source}: unknown bundled server ${unknown.map((n) => `"${n}"`).join(', ')}. ` +
        `Use a comma list of ${BUNDLED_SERVER_NAMES.join(', ')}, or an empty value for none.`,
    );
  }
  return [...new Set(names)].filter(isBundledServerName);
}

/** --trust-workspace, else SPROUT_AGENT_TRUST_WORKSPACE (a bad value is an error naming it). */
export function trustsWorkspace(flag: boolean, env: Env): boolean {
  if (flag) return true;
  const value = env.SPROUT_AGENT_TRUST_WORKSPACE;
  return value === undefined || value.trim() === '' ? false : parseBoolean(value, 'SPROUT_AGENT_TRUST_WORKSPACE');
}

/**
 * The server names a workspace file declares, read as plain data (nothing is expanded or started), so
 * the user can be told what they would be opting into. Unreadable or malformed: no names.
 */
export function declaredServerNames(file: string): string[] {
  try {
    const json = JSON.parse(stripJsonComments(readFileSync(file, 'utf8'))) as Record<string, unknown>;
    return ['servers', 'mcpServers'].flatMap((key) => {
      const servers = json[key];
      return servers !== null && typeof servers === 'object' && !Array.isArray(servers) ? Object.keys(servers) : [];
    });
  } catch {
    return [];
  }
}

function explicitConfigFile(mcpConfig: string): string {
  const path = resolve(mcpConfig);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new UsageError(`--mcp-config: ${path} does not exist or is not a file.`);
  }
  return path;
}

function bundledSelection(input: ServerSelectionInput): BundledServerName[] {
  if (input.builtinServers !== undefined) return parseBuiltinServers(input.builtinServers, '--builtin-servers');
  const fromEnv = input.env.SPROUT_AGENT_BUILTIN_SERVERS;
  if (fromEnv !== undefined) return parseBuiltinServers(fromEnv, 'SPROUT_AGENT_BUILTIN_SERVERS');
  return [...DEFAULT_BUNDLED_SERVERS];
}

function rejectNameClash(configured: readonly McpServerConfig[], bundled: readonly BundledServerName[], file: string | undefined): void {
  const clash = configured.map((s) => s.name).filter((name): name is BundledServerName => isBundledServerName(name) && bundled.includes(name));
  if (clash.length === 0) return;
  const rest = bundled.filter((name) => !clash.includes(name));
  const names = clash.map((n) => `"${n}"`).join(', ');
  throw new UsageError(
    `MCP server ${names} in ${file ?? 'the MCP config'} has the same name as the bundled server ${names}; two servers cannot share a name. ` +
      `Rename it in ${file ?? 'the file'}, or turn the bundled one off: --builtin-servers "${rest.join(',')}" (or SPROUT_AGENT_BUILTIN_SERVERS).`,
  );
}

export function selectServers(input: ServerSelectionInput): ServerSelection {
  const workspaceFile = join(input.workspaceFolder, '.vscode', 'mcp.json');
  const trusted = trustsWorkspace(input.trustWorkspace, input.env);
  const bundled = bundledSelection(input);
  let configFile: string | undefined;
  let untrusted: ServerSelection['untrusted'];
  if (input.mcpConfig !== undefined) configFile = explicitConfigFile(input.mcpConfig);
  else if (existsSync(workspaceFile)) {
    if (trusted) configFile = workspaceFile;
    else untrusted = { file: workspaceFile, names: declaredServerNames(workspaceFile) };
  }
  const configured =
    configFile === undefined
      ? []
      : loadMcpConfigFile(configFile, { workspaceFolder: input.workspaceFolder, userHome: homedir(), env: { ...input.env } });
  rejectNameClash(configured, bundled, configFile);
  return { configured, configFile, bundled, untrusted };
}

/** What the CLI says on stderr when a workspace's own servers were left unstarted. */
export function untrustedNotice(selection: ServerSelection): string | undefined {
  const found = selection.untrusted;
  if (found === undefined) return undefined;
  const names = found.names.length > 0 ? `servers ${found.names.join(', ')}` : 'MCP servers';
  const running = selection.bundled.length > 0 ? `the bundled servers (${selection.bundled.join(', ')})` : 'no MCP servers';
  return (
    `${found.file} defines ${names}, which did not start: the CLI runs a workspace's own servers only when you opt in. ` +
    `To start them, ${TRUST_HOW}, or pass --mcp-config ${found.file}. Running with ${running}.`
  );
}

function missingServerHint(name: string): string {
  if (isBundledServerName(name)) return `"${name}" is a bundled server that is off: add it to --builtin-servers (or SPROUT_AGENT_BUILTIN_SERVERS)`;
  return 'fix the name, or add the server with --mcp-config FILE';
}

/**
 * An allowlist entry that names no server of this run would silently disable a hook: a configuration
 * error (exit 2), worded after why the server is missing.
 */
export function checkHookAllowlist(allowlist: HookAllowlist, selection: ServerSelection): void {
  if (allowlist.kind === 'all') return;
  const known = new Set<string>([...selection.configured.map((s) => s.name), ...selection.bundled]);
  const missing = allowlist.names.filter((name) => !known.has(name));
  if (missing.length === 0) return;
  const untrusted = selection.untrusted;
  const gated = untrusted === undefined ? [] : missing.filter((name) => untrusted.names.includes(name));
  if (untrusted !== undefined && gated.length > 0) {
    throw new UsageError(
      `MCP_HOOK_SERVERS names ${gated.join(', ')}, defined in ${untrusted.file}, which does not start unless you opt in: ` +
        `${TRUST_HOW}, or pass --mcp-config ${untrusted.file}.`,
    );
  }
  const servers = [...known].join(', ') || 'none';
  const hints = missing.map(missingServerHint).filter((h, i, all) => all.indexOf(h) === i);
  throw new UsageError(`MCP_HOOK_SERVERS names ${missing.join(', ')}, which is no server of this run (servers: ${servers}): ${hints.join('; ')}.`);
}
