/**
 * Turns raw `sprout.*` configuration values into the core's settings object and the extension's own
 * options. Pure and vscode-free: the configuration reader passes a getter, this validates every value
 * with the core's parsers and collects ConfigErrors (a `*` mixed with names, say) to show the user,
 * falling back to the default for a bad value instead of refusing to run.
 */
import type { CommandRule } from '../../agent/commandRules';
import { readCommandRules } from '../approvals/commandRuleSettings';
import { z } from 'zod';
import { ConfigError, DEFAULT_BASE_URL, DEFAULT_SETTINGS, parseBoolean, parseBudgetScope, parseHookAllowlist, parseInteger } from '../../agent/settings';
import type { AgentSettings, HookSettings } from '../../agent/settings';
import { MODEL_PROVIDERS, type ModelProvider } from '../modelSources/modelSource';
import { parseCompatibility, type Compatibility } from '../../model/dialect';
import { INSTRUCTION_SOURCES, type InstructionSource, parseInstructionSources } from '../../customizations/instructionSources';
import { ProtectedPatternError, validateProtectedPattern } from '../../servers/common/protectedPaths';
import { parseProtocolSetting, type ProtocolSetting } from '../../mcp/protocolEra';
import { SOURCE_FORMAT_IDS } from '../../agentHooks/hookSources';
import type { SourceFormatId } from '../../agentHooks/hookFiles';

export const DEFAULT_BUILTIN_SERVERS = { workspace: true, todo: true, tests: false } as const;
export type BuiltinServers = { workspace: boolean; todo: boolean; tests: boolean };

/** Every contributed setting with its code default; package.json must agree (checked by a unit test). */
export const SETTING_DEFAULTS = {
  'sprout.model.provider': 'auto' as ModelProvider,
  'sprout.model.baseUrl': DEFAULT_BASE_URL,
  'sprout.model.name': DEFAULT_SETTINGS.model,
  'sprout.model.contextWindowTokens': DEFAULT_SETTINGS.contextWindowTokens,
  'sprout.model.compatibility': 'auto' as Compatibility,
  'sprout.agent.maxRounds': DEFAULT_SETTINGS.maxRounds,
  'sprout.subagents.enabled': DEFAULT_SETTINGS.subagents.enabled,
  'sprout.hooks.servers': [] as string[],
  'sprout.hooks.timeoutMs': DEFAULT_SETTINGS.hooks.timeoutMs,
  'sprout.hooks.stopMaxRejections': DEFAULT_SETTINGS.hooks.stopMaxRejections,
  'sprout.hooks.stopBudgetScope': DEFAULT_SETTINGS.hooks.stopBudgetScope,
  'sprout.hooks.repeatedEndTurnStops': DEFAULT_SETTINGS.hooks.repeatedEndTurnStops,
  'sprout.hooks.preToolUseMaxDenials': DEFAULT_SETTINGS.hooks.preToolUseMaxDenials,
  'sprout.mcp.servers': {} as Record<string, unknown>,
  'sprout.mcp.builtinServers': { ...DEFAULT_BUILTIN_SERVERS } as BuiltinServers,
  'sprout.tools.autoApprove': [] as string[],
  'sprout.tools.commandRules': [] as unknown[],
  'sprout.tools.timeoutMs': DEFAULT_SETTINGS.toolTimeoutMs,
  'sprout.tools.maxTotalMs': DEFAULT_SETTINGS.toolMaxTotalMs,
  'sprout.tools.searchThreshold': DEFAULT_SETTINGS.toolSearchThreshold,
  'sprout.mcp.readyGraceMs': DEFAULT_SETTINGS.serverReadyGraceMs,
  'sprout.mcp.startupWaitMs': DEFAULT_SETTINGS.firstPromptServerWaitMs,
  'sprout.mcp.protocol': 'auto' as ProtocolSetting,
  'sprout.tools.protectedPaths': [] as string[],
  'sprout.tools.runInTerminal': true,
  'sprout.agentHooks.formats': [...SOURCE_FORMAT_IDS] as SourceFormatId[],
  'sprout.instructions.sources': [...INSTRUCTION_SOURCES] as InstructionSource[],
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

export interface ExtensionSettings {
  agent: AgentSettings;
  /** Which model source serves the chats; `auto` is resolved by modelSource.ts. */
  provider: ModelProvider;
  baseUrl: string;
  /** `sprout.model.baseUrl` has a value of its own (in a scope that applies), not just the default. */
  baseUrlConfigured: boolean;
  /** Which server family's request rules the model client follows. */
  compatibility: Compatibility;
  mcpServers: Record<string, unknown>;
  builtinServers: BuiltinServers;
  /** Which MCP protocol era to speak (`sprout.mcp.protocol`). */
  mcpProtocol: ProtocolSetting;
  /** User scope only: the reader never takes it from workspace settings. */
  autoApprove: string[];
  /** `sprout.tools.commandRules`: the user's allow and deny rules, and the workspace's deny rules only. */
  commandRules: CommandRule[];
  /** Patterns protected on top of the defaults (user and workspace values together: additions only). */
  protectedPaths: string[];
  /** `sprout.tools.runInTerminal`: the workspace server's `run_command` runs in a "Sprout" terminal the user can watch. */
  runInTerminal: boolean;
  /** Whose hook files are looked for (`sprout.agentHooks.formats`); a workspace's run only after consent. */
  agentHookFormats: SourceFormatId[];
  /** Which instruction formats are read (`sprout.instructions.sources`); the workspace's only in a trusted window. */
  instructionSources: InstructionSource[];
  errors: ConfigError[];
}

export type SettingGetter = (key: SettingKey) => unknown;
/** Whether the user gave the setting a value (in any scope that applies), default or not. */
export type SettingProbe = (key: SettingKey) => boolean;

const builtinSchema = z.object({ workspace: z.boolean().optional(), todo: z.boolean().optional(), tests: z.boolean().optional() }).strict();

function attempt<T>(errors: ConfigError[], fallback: T, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ConfigError) errors.push(error);
    else throw error;
    return fallback;
  }
}

function asString(value: unknown, key: string): string {
  if (typeof value === 'string') return value;
  throw new ConfigError(key, `${key}: expected a string, got ${JSON.stringify(value)}.`);
}

function asStringArray(value: unknown, key: string): string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new ConfigError(key, `${key}: expected an array of strings, got ${JSON.stringify(value)}.`);
}

function asNumberOrString(value: unknown, key: string): number | string {
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new ConfigError(key, `${key}: expected a whole number, got ${JSON.stringify(value)}.`);
}

function asBoolOrString(value: unknown, key: string): boolean | string {
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  throw new ConfigError(key, `${key}: expected true or false, got ${JSON.stringify(value)}.`);
}

function readHooks(get: SettingGetter, errors: ConfigError[]): HookSettings {
  const d = DEFAULT_SETTINGS.hooks;
  return {
    allowlist: attempt(errors, d.allowlist, () => parseHookAllowlist(asStringArray(get('sprout.hooks.servers'), 'sprout.hooks.servers'))),
    timeoutMs: attempt(errors, d.timeoutMs, () => parseInteger(asNumberOrString(get('sprout.hooks.timeoutMs'), 'sprout.hooks.timeoutMs'), 'sprout.hooks.timeoutMs', 1)),
    stopMaxRejections: attempt(errors, d.stopMaxRejections, () =>
      parseInteger(asNumberOrString(get('sprout.hooks.stopMaxRejections'), 'sprout.hooks.stopMaxRejections'), 'sprout.hooks.stopMaxRejections', 0),
    ),
    stopBudgetScope: attempt(errors, d.stopBudgetScope, () => parseBudgetScope(asString(get('sprout.hooks.stopBudgetScope'), 'sprout.hooks.stopBudgetScope'))),
    repeatedEndTurnStops: attempt(errors, d.repeatedEndTurnStops, () =>
      parseBoolean(asBoolOrString(get('sprout.hooks.repeatedEndTurnStops'), 'sprout.hooks.repeatedEndTurnStops'), 'sprout.hooks.repeatedEndTurnStops'),
    ),
    preToolUseMaxDenials: attempt(errors, d.preToolUseMaxDenials, () =>
      parseInteger(asNumberOrString(get('sprout.hooks.preToolUseMaxDenials'), 'sprout.hooks.preToolUseMaxDenials'), 'sprout.hooks.preToolUseMaxDenials', 0),
    ),
  };
}

function readBaseUrl(value: unknown): string {
  const url = asString(value, 'sprout.model.baseUrl').trim();
  if (url === '') return DEFAULT_BASE_URL;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ConfigError('sprout.model.baseUrl', `sprout.model.baseUrl: "${url}" is not an http(s) URL.`);
  }
  return url;
}

function readProvider(value: unknown): ModelProvider {
  if (typeof value === 'string' && (MODEL_PROVIDERS as readonly string[]).includes(value)) return value as ModelProvider;
  throw new ConfigError('sprout.model.provider', `sprout.model.provider: expected ${MODEL_PROVIDERS.map((p) => `"${p}"`).join(', ')}, got ${JSON.stringify(value)}.`);
}

function readObject(value: unknown, key: string): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ConfigError(key, `${key}: expected an object, got ${JSON.stringify(value)}.`);
}

function readBuiltins(value: unknown): BuiltinServers {
  const parsed = builtinSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError('sprout.mcp.builtinServers', 'sprout.mcp.builtinServers: expected {"workspace": bool, "todo": bool, "tests": bool}.');
  }
  return { ...DEFAULT_BUILTIN_SERVERS, ...parsed.data };
}

/** Tool and server waits in milliseconds: setting -> core field, lower bound. */
const WAITS = [
  ['sprout.tools.timeoutMs', 'toolTimeoutMs', 1],
  ['sprout.tools.maxTotalMs', 'toolMaxTotalMs', 1],
  ['sprout.mcp.readyGraceMs', 'serverReadyGraceMs', 0],
  ['sprout.mcp.startupWaitMs', 'firstPromptServerWaitMs', 0],
] as const;

function readWaits(get: SettingGetter, errors: ConfigError[]): Pick<AgentSettings, (typeof WAITS)[number][1]> {
  const out = { toolTimeoutMs: 0, toolMaxTotalMs: 0, serverReadyGraceMs: 0, firstPromptServerWaitMs: 0 };
  for (const [key, field, min] of WAITS) out[field] = attempt(errors, DEFAULT_SETTINGS[field], () => parseInteger(asNumberOrString(get(key), key), key, min));
  return out;
}

/** The valid patterns; each bad one is reported and dropped, the others and the defaults still apply. */
function readProtectedPaths(value: unknown, errors: ConfigError[]): string[] {
  const key = 'sprout.tools.protectedPaths';
  const patterns = attempt(errors, [], () => asStringArray(value, key));
  return patterns.flatMap((pattern) => {
    try {
      return [validateProtectedPattern(pattern)];
    } catch (error) {
      if (!(error instanceof ProtectedPatternError)) throw error;
      errors.push(new ConfigError(key, `${key}: ${error.message}.`));
      return [];
    }
  });
}

/** The known formats named; an unknown one is reported and left out, the others still apply. */
function readAgentHookFormats(value: unknown, errors: ConfigError[]): SourceFormatId[] {
  const key = 'sprout.agentHooks.formats';
  const names = attempt(errors, [...SOURCE_FORMAT_IDS] as string[], () => asStringArray(value, key));
  const unknown = names.filter((n) => !(SOURCE_FORMAT_IDS as readonly string[]).includes(n));
  if (unknown.length > 0) errors.push(new ConfigError(key, `${key}: unknown agent format ${unknown.map((n) => `"${n}"`).join(', ')}; use ${SOURCE_FORMAT_IDS.map((n) => `"${n}"`).join(', ')}.`));
  return [...new Set(names.filter((n): n is SourceFormatId => (SOURCE_FORMAT_IDS as readonly string[]).includes(n)))];
}

/** The known sources named; an unknown one is reported and left out (a source the user left out stays off). */
function readInstructionSources(value: unknown, errors: ConfigError[]): InstructionSource[] {
  const key = 'sprout.instructions.sources';
  const names = attempt(errors, [...INSTRUCTION_SOURCES] as string[], () => asStringArray(value, key));
  const known = names.filter((n) => (INSTRUCTION_SOURCES as readonly string[]).includes(n));
  if (known.length < names.length) attempt(errors, [], () => parseInstructionSources(names, key));
  return parseInstructionSources(known, key);
}

/** Reads every setting; a missing value (undefined) means the default. */
export function mapSettings(rawGet: SettingGetter, configured: SettingProbe = () => false): ExtensionSettings {
  const get: SettingGetter = (key) => rawGet(key) ?? SETTING_DEFAULTS[key];
  const errors: ConfigError[] = [];
  const d = DEFAULT_SETTINGS;
  const agent: AgentSettings = {
    ...d,
    model: attempt(errors, d.model, () => asString(get('sprout.model.name'), 'sprout.model.name').trim()),
    contextWindowTokens: attempt(errors, d.contextWindowTokens, () =>
      parseInteger(asNumberOrString(get('sprout.model.contextWindowTokens'), 'sprout.model.contextWindowTokens'), 'sprout.model.contextWindowTokens', 1024),
    ),
    maxRounds: attempt(errors, d.maxRounds, () => parseInteger(asNumberOrString(get('sprout.agent.maxRounds'), 'sprout.agent.maxRounds'), 'sprout.agent.maxRounds', 0)),
    hooks: readHooks(get, errors),
    subagents: {
      enabled: attempt(errors, d.subagents.enabled, () => parseBoolean(asBoolOrString(get('sprout.subagents.enabled'), 'sprout.subagents.enabled'), 'sprout.subagents.enabled')),
    },
    ...readWaits(get, errors),
    toolSearchThreshold: attempt(errors, DEFAULT_SETTINGS.toolSearchThreshold, () => parseInteger(asNumberOrString(get('sprout.tools.searchThreshold'), 'sprout.tools.searchThreshold'), 'sprout.tools.searchThreshold', 2)),
  };
  return {
    agent,
    provider: attempt(errors, SETTING_DEFAULTS['sprout.model.provider'], () => readProvider(get('sprout.model.provider'))),
    baseUrl: attempt(errors, DEFAULT_BASE_URL, () => readBaseUrl(get('sprout.model.baseUrl'))),
    baseUrlConfigured: configured('sprout.model.baseUrl'),
    compatibility: attempt(errors, 'auto', () => parseCompatibility(asString(get('sprout.model.compatibility'), 'sprout.model.compatibility'))),
    mcpServers: attempt(errors, {}, () => readObject(get('sprout.mcp.servers'), 'sprout.mcp.servers')),
    builtinServers: attempt(errors, { ...DEFAULT_BUILTIN_SERVERS }, () => readBuiltins(get('sprout.mcp.builtinServers'))),
    mcpProtocol: attempt(errors, 'auto', () => parseProtocolSetting(asString(get('sprout.mcp.protocol'), 'sprout.mcp.protocol'), 'sprout.mcp.protocol')),
    autoApprove: attempt(errors, [], () => asStringArray(get('sprout.tools.autoApprove'), 'sprout.tools.autoApprove')),
    commandRules: readCommandRules(get('sprout.tools.commandRules'), errors),
    protectedPaths: readProtectedPaths(get('sprout.tools.protectedPaths'), errors),
    runInTerminal: attempt(errors, true, () => parseBoolean(asBoolOrString(get('sprout.tools.runInTerminal'), 'sprout.tools.runInTerminal'), 'sprout.tools.runInTerminal')),
    agentHookFormats: readAgentHookFormats(get('sprout.agentHooks.formats'), errors),
    instructionSources: readInstructionSources(get('sprout.instructions.sources'), errors),
    errors,
  };
}
