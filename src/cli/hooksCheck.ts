/**
 * `sprout-agent hooks check`: a hook author's one command. It starts the servers a run would start,
 * lists each server's hooks and whether the allowlist enables them, calls the chosen hooks once with
 * sample `_meta` (`dryRun: true`) through the same HookCaller a run uses (timeout, fail open, kill on
 * the second consecutive timeout), and reports each answer, its latency and the timeout verdict.
 * Exit 0 when every call answered within the timeout, 1 when one did not (or nothing could be
 * called, or a server failed to start), 2 on bad usage, 130 when interrupted.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { HOOK_NAMES, type AgentEvent, type HookName } from '../agent/events';
import { HookCaller } from '../agent/hookCaller';
import { isHookServerAllowed, type HookSettings } from '../agent/settings';
import type { ToolInfo } from '../agent/messages';
import { splitQualifiedName } from '../agent/toolNames';
import { errorMessage } from '../agent/errorMessage';
import { AGENT_IDS, isAgentId, type AgentId } from '../agentHooks/agentFormat';
import { agentReport } from './bridge/hooksInstall';
import type { McpHub } from '../mcp/mcpHub';
import { eraText } from '../mcp/protocolEra';
import type { ToolHost } from '../agent/ports';
import type { CommandHookSource } from '../agentHooks/commandHookHost';
import { WithCommandHooks } from '../agentHooks/withCommandHooks';
import { cliAgentHooks, commandHookHost } from './agentHookSources';
import { allowSources } from '../agentHooks/hookFiles';
import { createHub } from '../runtime/compose';
import { bundledServerConfigs } from '../runtime/bundledServers';
import { nodeClock } from '../platform/nodeClock';
import { explainArgsError } from '../platform/argsErrors';
import type { StreamLogger } from '../runtime/streamLogger';
import { terminalSafeJson } from '../platform/terminalText';
import { selectAndAnnounce } from './cliServers';
import { resolveWorkspace, stateDirFor } from './cliSession';
import { hookSettings, mcpProtocolOptions } from './cliSettings';
import { DEFAULT_SAMPLE_CALL, formatReport, sampleFields, type CheckReport, type CheckedCall, type SampleCall, type ServerReport } from './hooksCheckReport';
import { EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, UsageError } from './exitCodes';
import { CLI_ENVIRONMENT, secretEnvNames } from './cliArgs';
import { runCommandPolicyCheck } from './commandPolicyCheck';
import type { CliIo } from './cliIo';

const HOOKS_USAGE = `Usage: sprout-agent hooks check [options]
       sprout-agent hooks install|uninstall --agent AGENT [options]   (see hooks install --help)
       sprout-agent hooks run --agent AGENT EVENT [options]          (the command an agent runs)

Starts the MCP servers a run would start, lists each server's hooks and whether MCP_HOOK_SERVERS
enables them, calls each hook once with sample _meta (marked "dryRun": true) and prints what it
answered, how long it took and whether that was within the hook timeout.

Options:
  --cwd DIR                workspace folder (default: the current directory)
  --mcp-config FILE        MCP servers in the .vscode/mcp.json format (as for a run)
  --trust-workspace        also start the servers of <cwd>/.vscode/mcp.json (as for a run)
  --allow-secret-env NAME  let them receive the secret variable NAME (as for a run)
  --builtin-servers LIST   bundled servers to start (as for a run)
  --agent-hooks LIST       also check the command hooks of these agents' files (as for a run)
  --event NAME             call only this hook (${HOOK_NAMES.join(', ')})
  --tool NAME              the qualified tool name _PreToolUse/_PostToolUse are told about
                           (default: ${DEFAULT_SAMPLE_CALL.tool})
  --args JSON              that call's arguments, a JSON object (default: ${JSON.stringify(DEFAULT_SAMPLE_CALL.arguments)})
  --agent AGENT            also say what AGENT (claude, codex, gemini, copilot, cursor, kiro) would get
                           through hooks install, and what its config file has of Sprout's now
  --command CMD            run the command policy (SPROUT_AGENT_COMMAND_RULES, the workspace's deny
                           rules) against CMD instead, and print its verdict; repeatable, no server starts
  --json                   print the report as one JSON object
  -h, --help               show this help

Exit status: 0 every call answered within the timeout, 1 a call did not (or no hook was found, or a
             server failed to start), 2 bad usage or configuration, 130 interrupted.
`;

export interface HooksCheckArgs {
  help: boolean;
  cwd?: string;
  mcpConfig?: string;
  trustWorkspace: boolean;
  allowSecretEnv: string[];
  builtinServers?: string;
  agentHooks?: string;
  event?: HookName;
  call: SampleCall;
  json: boolean;
  agent?: AgentId;
  /** `--command`: judge these with the command policy instead of calling hooks. */
  commands: string[];
}

function parseEvent(value: string | undefined): HookName | undefined {
  if (value === undefined) return undefined;
  const name = value.startsWith('_') ? value : `_${value}`;
  const hook = HOOK_NAMES.find((h) => h === name);
  if (hook === undefined) throw new UsageError(`--event: "${value}" is no hook; use one of ${HOOK_NAMES.join(', ')}.`);
  return hook;
}

function agentIdOf(value: string): AgentId {
  if (!isAgentId(value)) throw new UsageError(`--agent: "${value}" is no agent Sprout knows; use one of ${AGENT_IDS.join(', ')}.`);
  return value;
}

function parseSampleCall(tool: string | undefined, args: string | undefined): SampleCall {
  const parts = splitQualifiedName(tool ?? DEFAULT_SAMPLE_CALL.tool);
  if (parts === undefined) throw new UsageError(`--tool: "${tool}" is not a qualified tool name; use <server>__<tool>, e.g. ${DEFAULT_SAMPLE_CALL.tool}.`);
  let value: unknown = DEFAULT_SAMPLE_CALL.arguments;
  if (args !== undefined) {
    try {
      value = JSON.parse(args);
    } catch (error) {
      throw new UsageError(`--args: not valid JSON (${errorMessage(error)}); pass a JSON object such as '{"command":"ls"}'.`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('--args: expected a JSON object, such as \'{"command":"ls"}\'.');
  return { tool: `${parts.server}__${parts.bareName}`, server: parts.server, toolName: parts.bareName, arguments: value as Record<string, unknown> };
}

const HOOKS_CHECK_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  cwd: { type: 'string' },
  'mcp-config': { type: 'string' },
  'trust-workspace': { type: 'boolean' },
  'allow-secret-env': { type: 'string', multiple: true },
  'builtin-servers': { type: 'string' },
  'agent-hooks': { type: 'string' },
  event: { type: 'string' },
  tool: { type: 'string' },
  args: { type: 'string' },
  json: { type: 'boolean' },
  agent: { type: 'string' },
  command: { type: 'string', multiple: true },
} as const;

function parseHooksCheckArgs(argv: readonly string[]): HooksCheckArgs {
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === undefined) return { help: true, trustWorkspace: false, allowSecretEnv: [], call: DEFAULT_SAMPLE_CALL, json: false, commands: [] };
  if (command !== 'check') throw new UsageError(`unknown hooks command "${command}"; the commands are check, run, install and uninstall.\n\n${HOOKS_USAGE}`);
  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], strict: true, allowPositionals: false, options: HOOKS_CHECK_OPTIONS });
  } catch (error) {
    throw new UsageError(`${explainArgsError(error, HOOKS_CHECK_OPTIONS, CLI_ENVIRONMENT)}\n\n${HOOKS_USAGE}`);
  }
  const v = parsed.values;
  return {
    help: v.help === true,
    cwd: v.cwd,
    mcpConfig: v['mcp-config'],
    trustWorkspace: v['trust-workspace'] === true,
    allowSecretEnv: secretEnvNames(v['allow-secret-env']),
    builtinServers: v['builtin-servers'],
    agentHooks: v['agent-hooks'],
    event: parseEvent(v.event),
    call: parseSampleCall(v.tool, v.args),
    json: v.json === true,
    commands: v.command ?? [],
    ...(v.agent === undefined ? {} : { agent: agentIdOf(v.agent) }),
  };
}

interface CheckDeps {
  hub: McpHub;
  /** The hub, with other agents' hook files beside it when --agent-hooks names any. */
  host: ToolHost;
  sources: readonly CommandHookSource[];
  tools: readonly ToolInfo[];
  hooks: HookSettings;
  args: HooksCheckArgs;
  signal: AbortSignal;
}

/** Calls the chosen hooks of every server once, one call at a time, in configuration and lifecycle order. */
async function checkServers({ hub, host, sources, tools, hooks, args, signal }: CheckDeps): Promise<CheckReport> {
  let lastFinished: Extract<AgentEvent, { type: 'hook_finished' }> | undefined;
  const killed = new Set<string>();
  const emit = (event: AgentEvent): void => {
    if (event.type === 'hook_finished') lastFinished = event;
    if (event.type === 'server_killed') killed.add(event.server);
  };
  const caller = new HookCaller({ tools: host, clock: nodeClock, emit, timeoutMs: () => hooks.timeoutMs });
  const sessionId = `hooks-check-${Date.now()}`;
  const servers: ServerReport[] = [];
  const statuses = [...hub.status(), ...sources.map((s) => ({ name: s.name, state: 'ready', error: undefined }))];
  for (const status of statuses) {
    const own = tools.filter((t) => t.server === status.name && t.isHook).map((t) => t.bareName);
    const known = HOOK_NAMES.filter((h) => own.includes(h));
    const report: ServerReport = {
      name: status.name,
      allowlisted: isHookServerAllowed(hooks.allowlist, status.name),
      hooks: known,
      otherHookTools: own.filter((name) => !(HOOK_NAMES as readonly string[]).includes(name)),
      ...(status.state === 'failed' && status.error !== undefined ? { error: status.error } : {}),
      killed: false,
      calls: [],
    };
    for (const hook of known.filter((h) => args.event === undefined || h === args.event)) {
      if (signal.aborted) break;
      const context = { sessionId, dryRun: true, ...sampleFields(hook, args.call, hooks) };
      const outcome = await caller.call(status.name, hook, context, signal);
      const call: CheckedCall = { hook, result: outcome.result, text: outcome.text, durationMs: lastFinished?.durationMs ?? 0, answered: outcome.replied };
      report.calls.push(call);
    }
    report.killed = killed.has(status.name);
    const era = hub.status().find((s) => s.name === status.name);
    if (era?.era !== undefined) report.protocol = eraText(era.era, era.protocolVersion);
    servers.push(report);
  }
  const calls = servers.flatMap((s) => s.calls);
  const unknownAllowlisted = hooks.allowlist.kind === 'names' ? hooks.allowlist.names.filter((name) => !servers.some((s) => s.name === name)) : [];
  const ok = calls.length > 0 && calls.every((c) => c.answered) && servers.every((s) => s.error === undefined) && unknownAllowlisted.length === 0;
  return { timeoutMs: hooks.timeoutMs, servers, unknownAllowlisted, ok };
}

function hubFor(args: HooksCheckArgs, io: CliIo, logger: StreamLogger): { hub: McpHub; sources: CommandHookSource[] } {
  const workspaceFolder = resolveWorkspace(args.cwd, io.cwd);
  // As for a run: a workspace's own servers start only on opt-in, and the check says which did not.
  const selection = selectAndAnnounce(args, workspaceFolder, io.env, io.stderr);
  // A throwaway state folder: a check must not read or change any session's state (a todo list, say).
  const stateDir = selection.bundled.length > 0 ? stateDirFor(`hooks-check-${randomUUID()}`, false, io.env) : '';
  const bundled = bundledServerConfigs(selection.bundled, { distDir: io.distDir, stateDir, workspaceFolder });
  const sources = cliAgentHooks(args.agentHooks, args.trustWorkspace, io, workspaceFolder, selection);
  const hub = createHub([...selection.configured, ...bundled], {
    clientVersion: io.version,
    logger,
    parentEnv: { ...io.env },
    onServerStderr: (server, text) => logger.debug(`[${server} stderr] ${text.slice(0, 4000)}`),
    ...mcpProtocolOptions(io.env),
  });
  return { hub, sources };
}

/** `sprout-agent hooks ...`; throws UsageError / ConfigError / McpConfigError for the caller to map to exit 2. */
export async function runHooksCommand(argv: readonly string[], io: CliIo, logger: StreamLogger): Promise<number> {
  const args = parseHooksCheckArgs(argv);
  if (args.help) {
    io.stdout.write(HOOKS_USAGE);
    return EXIT_OK;
  }
  if (args.commands.length > 0) return runCommandPolicyCheck(args.commands, resolveWorkspace(args.cwd, io.cwd), io, args.json);
  const { hub, sources } = hubFor(args, io, logger);
  const env = hookSettings(io.env);
  const hooks = { ...env, allowlist: allowSources(env.allowlist, sources) };
  const host = sources.length > 0 ? new WithCommandHooks(hub, commandHookHost(sources, resolveWorkspace(args.cwd, io.cwd), io.env)) : hub;
  try {
    const tools = await host.listTools(io.interrupt).catch(() => [] as ToolInfo[]);
    const report = await checkServers({ hub, host, sources, tools, hooks, args, signal: io.interrupt });
    if (io.interrupt.aborted) return EXIT_INTERRUPTED;
    const allowlist = io.env.MCP_HOOK_SERVERS?.trim() || '(unset: hooks off)';
    io.stdout.write(args.json ? `${terminalSafeJson(report)}\n` : formatReport(report, allowlist));
    if (args.agent !== undefined && !args.json) io.stdout.write(agentReport(args.agent, tools, hooks, resolveWorkspace(args.cwd, io.cwd)));
    return report.ok ? EXIT_OK : EXIT_ERROR;
  } finally {
    await hub.close();
  }
}
