/**
 * Which MCP servers a CLI run starts: the configured ones (--mcp-config, else <cwd>/.vscode/mcp.json if
 * present), then the bundled ones. Bundled `workspace` and `todo` start by default only when no MCP
 * config file is in use; --builtin-servers / SPROUT_AGENT_BUILTIN_SERVERS override in both cases.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../agent/settings';
import type { HookAllowlist } from '../agent/settings';
import { inputEnvName, loadMcpConfigFile, type McpServerConfig } from '../mcp/config';
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
  /** Said once on stderr: which config shape was read, keys that are ignored, disabled servers. */
  notices: string[];
}

export interface ServerSelectionInput {
  workspaceFolder: string;
  mcpConfig: string | undefined;
  builtinServers: string | undefined;
  env: Env;
}

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

function configFileInUse(workspaceFolder: string, mcpConfig: string | undefined): string | undefined {
  if (mcpConfig !== undefined) {
    const path = resolve(mcpConfig);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new UsageError(`--mcp-config: ${path} does not exist or is not a file.`);
    }
    return path;
  }
  const fallback = join(workspaceFolder, '.vscode', 'mcp.json');
  return existsSync(fallback) ? fallback : undefined;
}

function bundledSelection(input: ServerSelectionInput, configFile: string | undefined): BundledServerName[] {
  if (input.builtinServers !== undefined) return parseBuiltinServers(input.builtinServers, '--builtin-servers');
  const fromEnv = input.env.SPROUT_AGENT_BUILTIN_SERVERS;
  if (fromEnv !== undefined) return parseBuiltinServers(fromEnv, 'SPROUT_AGENT_BUILTIN_SERVERS');
  return configFile === undefined ? [...DEFAULT_BUNDLED_SERVERS] : [];
}

export function selectServers(input: ServerSelectionInput): ServerSelection {
  const configFile = configFileInUse(input.workspaceFolder, input.mcpConfig);
  const bundled = bundledSelection(input, configFile);
  const notices: string[] = [];
  const env = { ...input.env };
  const configured =
    configFile === undefined
      ? []
      : loadMcpConfigFile(configFile, { workspaceFolder: input.workspaceFolder, userHome: homedir(), env, inputs: (id) => env[inputEnvName(id)], notices });
  const taken = new Set(configured.map((s) => s.name));
  const clash = bundled.filter((name) => taken.has(name));
  if (clash.length > 0) {
    throw new UsageError(
      `${configFile} already defines a server named ${clash.map((n) => `"${n}"`).join(', ')}, which is also a bundled server. ` +
        'Rename it there, or leave it out of --builtin-servers / SPROUT_AGENT_BUILTIN_SERVERS.',
    );
  }
  return { configured, configFile, bundled, notices };
}

/** Allowlisted names that match no server of this run: a typo here silently disables a hook. */
export function unknownHookServers(allowlist: HookAllowlist, selection: ServerSelection): string[] {
  if (allowlist.kind === 'all') return [];
  const known = new Set<string>([...selection.configured.map((s) => s.name), ...selection.bundled]);
  return allowlist.names.filter((name) => !known.has(name));
}
