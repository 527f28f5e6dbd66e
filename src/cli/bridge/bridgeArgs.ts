/**
 * The command lines of `sprout-agent hooks run|install|uninstall --agent X`: which agent, which event,
 * and which servers (the same `--mcp-config`, `--trust-workspace`, `--allow-secret-env`, `--builtin-servers` a run takes,
 * plus `--hook-servers`, the allowlist, which otherwise comes from MCP_HOOK_SERVERS). `install` copies
 * the server options into the command it writes, so the agent runs exactly what was installed.
 */
import { parseArgs } from 'node:util';
import { AGENT_IDS, isAgentId, type AgentId } from '../../agentHooks/agentFormat';
import { explainArgsError } from '../../platform/argsErrors';
import { CLI_ENVIRONMENT, secretEnvNames } from '../cliArgs';
import { UsageError } from '../exitCodes';

/** Where the bridge's servers come from: a run's server options, and the hook allowlist. */
export interface ServerOptions {
  cwd?: string;
  mcpConfig?: string;
  trustWorkspace: boolean;
  /** Secret variables the workspace's own servers may receive (--allow-secret-env, as for a run). */
  allowSecretEnv?: string[];
  builtinServers?: string;
  hookServers?: string;
  /** `--command-rules JSON`: the command policy `_PreToolUse` applies to the agent's shell calls. */
  commandRules?: string;
}

export interface RunArgs extends ServerOptions {
  agent: AgentId;
  event: string;
}

export interface InstallArgs extends ServerOptions {
  agent: AgentId;
  user: boolean;
  yes: boolean;
  dryRun: boolean;
  events?: string;
  /** The program the hook command starts (default: this CLI by absolute path). */
  command?: string;
}

const SERVER_OPTIONS = {
  cwd: { type: 'string' },
  'mcp-config': { type: 'string' },
  'trust-workspace': { type: 'boolean' },
  'allow-secret-env': { type: 'string', multiple: true },
  'builtin-servers': { type: 'string' },
  'hook-servers': { type: 'string' },
  'command-rules': { type: 'string' },
  agent: { type: 'string' },
} as const;

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];
type Values = Record<string, string | boolean | string[] | undefined>;

function parse(argv: readonly string[], options: Options, usage: string): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(`${explainArgsError(error, options ?? {}, CLI_ENVIRONMENT)}\n\n${usage}`);
  }
}

function agentOf(value: Values[string], usage: string): AgentId {
  if (typeof value !== 'string') throw new UsageError(`--agent is required: one of ${AGENT_IDS.join(', ')}.\n\n${usage}`);
  if (!isAgentId(value)) throw new UsageError(`--agent: "${value}" is no agent Sprout knows; use one of ${AGENT_IDS.join(', ')}.`);
  return value;
}

function serverOptions(v: Values): ServerOptions {
  const str = (key: string): string | undefined => (typeof v[key] === 'string' ? (v[key] as string) : undefined);
  return {
    ...(str('cwd') !== undefined ? { cwd: str('cwd') } : {}),
    ...(str('mcp-config') !== undefined ? { mcpConfig: str('mcp-config') } : {}),
    trustWorkspace: v['trust-workspace'] === true,
    ...(Array.isArray(v['allow-secret-env']) ? { allowSecretEnv: secretEnvNames(v['allow-secret-env']) } : {}),
    ...(str('builtin-servers') !== undefined ? { builtinServers: str('builtin-servers') } : {}),
    ...(str('hook-servers') !== undefined ? { hookServers: str('hook-servers') } : {}),
    ...(str('command-rules') !== undefined ? { commandRules: str('command-rules') } : {}),
  };
}

export function parseRunArgs(argv: readonly string[], usage: string): RunArgs {
  const { values, positionals } = parse(argv, SERVER_OPTIONS, usage);
  const agent = agentOf(values.agent, usage);
  if (positionals.length !== 1 || positionals[0] === undefined) throw new UsageError(`hooks run: name exactly one ${agent} event, e.g. \`hooks run --agent ${agent} Stop\`.\n\n${usage}`);
  return { agent, event: positionals[0], ...serverOptions(values) };
}

export function parseInstallArgs(argv: readonly string[], usage: string): InstallArgs {
  const { values, positionals } = parse(
    argv,
    { ...SERVER_OPTIONS, user: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' }, 'dry-run': { type: 'boolean' }, events: { type: 'string' }, command: { type: 'string' } },
    usage,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".\n\n${usage}`);
  return {
    agent: agentOf(values.agent, usage),
    ...serverOptions(values),
    user: values.user === true,
    yes: values.yes === true,
    dryRun: values['dry-run'] === true,
    ...(typeof values.events === 'string' ? { events: values.events } : {}),
    ...(typeof values.command === 'string' ? { command: values.command } : {}),
  };
}

/** The server options as command-line words (what `install` writes after `hooks run --agent X EVENT`). */
export function serverOptionWords(o: ServerOptions): string[] {
  return [
    ...(o.mcpConfig !== undefined ? ['--mcp-config', o.mcpConfig] : []),
    ...(o.trustWorkspace ? ['--trust-workspace'] : []),
    ...(o.allowSecretEnv ?? []).flatMap((name) => ['--allow-secret-env', name]),
    ...(o.builtinServers !== undefined ? ['--builtin-servers', o.builtinServers] : []),
    ...(o.hookServers !== undefined ? ['--hook-servers', o.hookServers] : []),
    ...(o.commandRules !== undefined ? ['--command-rules', o.commandRules] : []),
  ];
}
