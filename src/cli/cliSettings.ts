/**
 * Turns the environment and the command line into the core's settings and the model connection,
 * using the core's own parsers so the CLI and the extension accept exactly the same values. A bad
 * value is a ConfigError naming the variable; the caller exits 2 with it.
 */
import { ConfigError, DEFAULT_BASE_URL, DEFAULT_SETTINGS, parseBoolean, parseBudgetScope, parseHookAllowlist, parseInteger } from '../agent/settings';
import type { AgentSettings } from '../agent/settings';
import { ProtectedPatternError, protectedRule } from '../servers/common/protectedPaths';
import type { CliArgs } from './cliArgs';
import { parseCompatibility, type Compatibility } from '../model/dialect';
import { join } from 'node:path';
import { parseProtocolSetting, type EraStore, type ProtocolSetting } from '../mcp/protocolEra';
import { fileEraStore } from '../runtime/eraFileStore';
import { stateHome } from '../platform/privateState';


export type Env = Readonly<Record<string, string | undefined>>;

export interface ModelConnection {
  baseUrl: string;
  apiKey: string | undefined;
  /** SPROUT_AGENT_MODEL_COMPAT: which server family's request rules to follow (default auto). */
  compatibility: Compatibility;
}

/** An env var counts as set only when it has a non-blank value (`VAR=` is how many shells unset). */
function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function hookSettings(env: Env): AgentSettings['hooks'] {
  const d = DEFAULT_SETTINGS.hooks;
  const servers = envValue(env, 'MCP_HOOK_SERVERS');
  const timeout = envValue(env, 'SPROUT_AGENT_HOOK_TIMEOUT_MS');
  const maxRejections = envValue(env, 'SPROUT_AGENT_STOP_MAX_REJECTIONS');
  const scope = envValue(env, 'SPROUT_AGENT_STOP_BUDGET_SCOPE');
  const repeated = envValue(env, 'SPROUT_AGENT_REPEATED_END_TURN_STOPS');
  const maxDenials = envValue(env, 'SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS');
  return {
    allowlist: servers === undefined ? d.allowlist : parseHookAllowlist(servers, 'MCP_HOOK_SERVERS'),
    timeoutMs: timeout === undefined ? d.timeoutMs : parseInteger(timeout, 'SPROUT_AGENT_HOOK_TIMEOUT_MS', 1),
    stopMaxRejections: maxRejections === undefined ? d.stopMaxRejections : parseInteger(maxRejections, 'SPROUT_AGENT_STOP_MAX_REJECTIONS', 0),
    stopBudgetScope: scope === undefined ? d.stopBudgetScope : parseBudgetScope(scope.trim(), 'SPROUT_AGENT_STOP_BUDGET_SCOPE'),
    repeatedEndTurnStops: repeated === undefined ? d.repeatedEndTurnStops : parseBoolean(repeated, 'SPROUT_AGENT_REPEATED_END_TURN_STOPS'),
    preToolUseMaxDenials: maxDenials === undefined ? d.preToolUseMaxDenials : parseInteger(maxDenials, 'SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS', 0),
  };
}

/** Tool and server waits: env name -> settings key, each a whole number of milliseconds >= 1. */
const WAIT_VARS = [
  ['SPROUT_AGENT_TOOL_TIMEOUT_MS', 'toolTimeoutMs'],
  ['SPROUT_AGENT_TOOL_MAX_TOTAL_MS', 'toolMaxTotalMs'],
  ['SPROUT_AGENT_SERVER_READY_GRACE_MS', 'serverReadyGraceMs'],
  ['SPROUT_AGENT_SERVER_STARTUP_WAIT_MS', 'firstPromptServerWaitMs'],
] as const;

function waitSettings(env: Env): Pick<AgentSettings, (typeof WAIT_VARS)[number][1]> {
  const out = { toolTimeoutMs: 0, toolMaxTotalMs: 0, serverReadyGraceMs: 0, firstPromptServerWaitMs: 0 };
  for (const [name, key] of WAIT_VARS) {
    const value = envValue(env, name);
    out[key] = value === undefined ? DEFAULT_SETTINGS[key] : parseInteger(value, name, 1);
  }
  return out;
}

/** The settings of a host that calls hooks but never a model (the hook bridge): defaults, waits and hooks from the environment. */
export function hookOnlySettings(env: Env): AgentSettings {
  return { ...DEFAULT_SETTINGS, ...waitSettings(env), hooks: hookSettings(env) };
}

export function settingsFromEnv(env: Env, args: Pick<CliArgs, 'model' | 'maxRounds'>): AgentSettings {
  const model = args.model?.trim() || envValue(env, 'SPROUT_AGENT_MODEL')?.trim();
  if (!model) {
    throw new ConfigError(
      'SPROUT_AGENT_MODEL',
      'No model is set. Pass --model NAME or set SPROUT_AGENT_MODEL (for example SPROUT_AGENT_MODEL=gpt-4.1-mini).',
    );
  }
  const maxRoundsEnv = envValue(env, 'SPROUT_AGENT_MAX_ROUNDS');
  const contextTokens = envValue(env, 'SPROUT_AGENT_MAX_CONTEXT_TOKENS');
  const subagentsEnabled = envValue(env, 'SPROUT_AGENT_SUBAGENTS');
  let maxRounds = DEFAULT_SETTINGS.maxRounds;
  if (args.maxRounds !== undefined) maxRounds = parseInteger(args.maxRounds, '--max-rounds', 0);
  else if (maxRoundsEnv !== undefined) maxRounds = parseInteger(maxRoundsEnv, 'SPROUT_AGENT_MAX_ROUNDS', 0);
  return {
    ...DEFAULT_SETTINGS,
    ...waitSettings(env),
    model,
    maxRounds,
    contextWindowTokens:
      contextTokens === undefined ? DEFAULT_SETTINGS.contextWindowTokens : parseInteger(contextTokens, 'SPROUT_AGENT_MAX_CONTEXT_TOKENS', 1),
    hooks: hookSettings(env),
    toolSearchThreshold: toolSearchThreshold(env),
    subagents: { enabled: subagentsEnabled === undefined ? DEFAULT_SETTINGS.subagents.enabled : parseBoolean(subagentsEnabled, 'SPROUT_AGENT_SUBAGENTS') },
  };
}

/** SPROUT_AGENT_TOOL_SEARCH_THRESHOLD: more tools than this and a round offers the tool search (the search takes one place, so >= 2). */
function toolSearchThreshold(env: Env): number {
  const value = envValue(env, 'SPROUT_AGENT_TOOL_SEARCH_THRESHOLD');
  return value === undefined ? DEFAULT_SETTINGS.toolSearchThreshold : parseInteger(value, 'SPROUT_AGENT_TOOL_SEARCH_THRESHOLD', 2);
}

export function modelConnectionFromEnv(env: Env): ModelConnection {
  const baseUrl = envValue(env, 'OPENAI_BASE_URL')?.trim() ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError('OPENAI_BASE_URL', `OPENAI_BASE_URL: "${baseUrl}" is not a URL. Use something like http://127.0.0.1:11434/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('OPENAI_BASE_URL', `OPENAI_BASE_URL: expected an http(s) URL, got "${baseUrl}".`);
  }
  const apiKey = envValue(env, 'OPENAI_API_KEY')?.trim();
  if (apiKey === undefined && url.hostname === 'api.openai.com') {
    throw new ConfigError('OPENAI_API_KEY', 'OPENAI_API_KEY is not set. Export your API key (or point OPENAI_BASE_URL at a local server).');
  }
  const compat = envValue(env, 'SPROUT_AGENT_MODEL_COMPAT');
  const compatibility = compat === undefined ? 'auto' : parseCompatibility(compat, 'SPROUT_AGENT_MODEL_COMPAT');
  return { baseUrl, apiKey, compatibility };
}

/** SPROUT_AGENT_PROTECTED_PATHS: globs protected on top of the defaults (comma list; additions only). */
export function protectedPathsFromEnv(env: Env): string[] {
  const raw = envValue(env, 'SPROUT_AGENT_PROTECTED_PATHS');
  if (raw === undefined) return [];
  const patterns = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
  try {
    protectedRule(patterns);
  } catch (error) {
    if (error instanceof ProtectedPatternError) throw new ConfigError('SPROUT_AGENT_PROTECTED_PATHS', `SPROUT_AGENT_PROTECTED_PATHS: ${error.message}.`);
    throw error;
  }
  return patterns;
}

/**
 * SPROUT_AGENT_MCP_PROTOCOL (auto, legacy, 2026-07-28; default auto), and where each server's era is
 * remembered between runs: `mcp-eras.json` in the user's private state folder.
 */
export function mcpProtocolOptions(env: Env): { protocol: ProtocolSetting; eraStore: EraStore } {
  const value = envValue(env, 'SPROUT_AGENT_MCP_PROTOCOL');
  const protocol = value === undefined ? 'auto' : parseProtocolSetting(value, 'SPROUT_AGENT_MCP_PROTOCOL');
  return { protocol, eraStore: fileEraStore(join(stateHome(env), 'mcp-eras.json')) };
}
