/**
 * Which MCP servers and which hook settings one bridged agent event gets: exactly what a CLI run in
 * that folder would start (the same --mcp-config, --trust-workspace, --allow-secret-env and --builtin-servers rules and
 * checks), with the allowlist from --hook-servers or MCP_HOOK_SERVERS and the budgets and timeouts
 * from the same environment variables. The bundled servers default to the ones the allowlist names
 * (a gate has no use for the workspace server), and keep their state per workspace folder.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { parseHookAllowlist, type AgentSettings, type HookAllowlist } from '../../agent/settings';
import type { McpServerConfig } from '../../mcp/config';
import { BUNDLED_SERVER_NAMES, bundledServerConfigs } from '../../runtime/bundledServers';
import { ensurePrivateDir, stateHome } from '../../platform/privateState';
import { checkHookAllowlist, selectServers } from '../cliServers';
import { hookOnlySettings, type Env } from '../cliSettings';
import type { ServerOptions } from './bridgeArgs';

export interface BridgeSetup {
  workspaceFolder: string;
  servers: McpServerConfig[];
  settings: AgentSettings;
  notices: string[];
  /** The bundled servers' state folder ('' when none runs), for a setup used again to check once more. */
  stateDir: string;
}

function allowlistOf(options: ServerOptions, env: Env): HookAllowlist {
  if (options.hookServers !== undefined) return parseHookAllowlist(options.hookServers, '--hook-servers');
  const fromEnv = env.MCP_HOOK_SERVERS;
  return fromEnv === undefined || fromEnv.trim() === '' ? { kind: 'names', names: [] } : parseHookAllowlist(fromEnv, 'MCP_HOOK_SERVERS');
}

function defaultBundled(allowlist: HookAllowlist): string {
  return allowlist.kind === 'all' ? '' : BUNDLED_SERVER_NAMES.filter((name) => allowlist.names.includes(name)).join(',');
}

/** A private folder per workspace for the bundled servers' state (a todo list lives as long as the folder's sessions). */
export function bundledStateDir(env: Env, workspaceFolder: string): string {
  const key = createHash('sha256').update(workspaceFolder).digest('hex').slice(0, 16);
  return ensurePrivateDir(join(stateHome(env), 'bridge', 'servers', key));
}

export function bridgeSetup(options: ServerOptions, workspaceFolder: string, env: Env, distDir: string, baseDir: string): BridgeSetup {
  const allowlist = allowlistOf(options, env);
  const mcpConfig = options.mcpConfig === undefined || isAbsolute(options.mcpConfig) ? options.mcpConfig : resolve(baseDir, options.mcpConfig);
  const builtinServers = options.builtinServers ?? (env.SPROUT_AGENT_BUILTIN_SERVERS === undefined ? defaultBundled(allowlist) : undefined);
  const selection = selectServers({ workspaceFolder, mcpConfig, builtinServers, trustWorkspace: options.trustWorkspace, allowSecretEnv: options.allowSecretEnv, env });
  checkHookAllowlist(allowlist, selection);
  const stateDir = selection.bundled.length > 0 ? bundledStateDir(env, workspaceFolder) : '';
  const bundled = bundledServerConfigs(selection.bundled, { distDir, workspaceFolder, stateDir });
  const settings = hookOnlySettings(env);
  return {
    workspaceFolder,
    servers: [...selection.configured, ...bundled],
    settings: { ...settings, hooks: { ...settings.hooks, allowlist } },
    notices: selection.notices,
    stateDir,
  };
}
