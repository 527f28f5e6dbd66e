/**
 * One CLI run, start to finish: parse arguments and environment, pick the servers, compose the runtime,
 * run the prompt, print events, end the session (`_SessionEnd`) and always dispose the runtime (which
 * kills every server's process group) before returning the exit code. Signals arrive as `interrupt`: the run is cancelled, the
 * session file flushed and the servers closed, then 130.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, type HookAllowlist } from '../agent/settings';
import type { AgentEvent, Outcome } from '../agent/events';
import type { PromptOptions } from '../agent/promptAttachments';
import { McpConfigError } from '../mcp/config';
import { adaptationFilePath, fileAdaptationMemory } from '../runtime/adaptationFile';
import { createAgentRuntime, type AgentRuntime, type AgentRuntimeOptions } from '../runtime/createAgentRuntime';
import { StreamLogger, type LogLevel } from '../runtime/streamLogger';
import { terminalWriter } from '../platform/terminalText';
import { UnsafeStateDirError } from '../platform/privateState';
import { parseCliArgs, USAGE, type CliArgs } from './cliArgs';
import { readCliImages } from './cliImages';
import { checkPlanArgs, plannedRun, promptFromStdin } from './cliPlan';
import type { CliIo } from './cliIo';
import { checkHookAllowlist, selectAndAnnounce, type ServerSelection } from './cliServers';
import { readPrompt, resolveWorkspace, sessionFileFor, sessionIdFor, stateDirFor } from './cliSession';
import { mcpProtocolOptions, modelConnectionFromEnv, protectedPathsFromEnv, settingsFromEnv, type Env } from './cliSettings';
import { elicitationPolicy, urlElicitation } from './cliElicitation';
import { samplingPolicy } from './cliSampling';
import type { ElicitationHandling, SamplingPermission } from '../mcp/clientFeatures';
import { cliOAuthHost } from './cliOAuth';
import { jsonEventPrinter, textEventPrinter } from './eventPrinters';
import { runHooksCommand } from './hooksCheck';
import { cliAgentHooks, commandHookHost } from './agentHookSources';
import { HookConfigError } from '../agentHooks/hookConfig';
import { allowSources } from '../agentHooks/hookFiles';
import { WithCommandHooks } from '../agentHooks/withCommandHooks';
import { runBridgeProcess } from './bridge/bridgeProcess';
import { runHookHostCommand } from './bridge/hookHost';
import { runHooksInstall } from './bridge/hooksInstall';
import { describeFailures, runVerdict } from './serverFailures';
import { runInstructionsCommand, verboseInstructions } from './cliInstructions';
import { trustsWorkspace } from './cliServers';
import { cliCustomizations, runSkillsCommand } from './cliSkills';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { cliRunAgent, runAgentsCommand } from './cliAgents';
import { cliPromptCommands, expandCliPrompt, parseInputs, runPromptsCommand } from './cliPrompts';
import { cliMcpPrompt, type PendingMcpPrompt } from './cliMcpPrompts';
import { cliCommandRules, CommandRulesToolHost } from './cliCommandRules';
import { cliToolSelection } from './cliTools';
import { checkpointing, printRewound, rewindCliSession } from './cliRewind';
import type { ToolHost } from '../agent/ports';
import { withCliResources } from './cliResources';
import type { CommandRule } from '../agent/commandRules';
import { EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, exitCodeForOutcome, UsageError } from './exitCodes';

/** How long a cancelled run may take to wind down before the servers are closed under it. */
const CANCEL_GRACE_MS = 5000;

class Interrupted extends Error {}

function raceInterrupt<T>(work: Promise<T>, interrupt: AbortSignal): Promise<T> {
  if (interrupt.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Interrupted());
    interrupt.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => interrupt.removeEventListener('abort', onAbort));
  });
}

function logLevel(env: Env): LogLevel {
  const level = env.SPROUT_AGENT_LOG_LEVEL?.trim();
  return level === 'debug' || level === 'info' || level === 'warn' || level === 'error' ? level : 'warn';
}

async function runPrompt(runtime: AgentRuntime, prompt: string, io: CliIo, options: PromptOptions): Promise<Outcome | undefined> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  io.interrupt.addEventListener('abort', cancel, { once: true });
  if (io.interrupt.aborted) cancel();
  try {
    const run = runtime.session.run(prompt, controller.signal, options);
    // A cancelled run should finish quickly; if something wedges, stop waiting so the servers still die.
    const grace = new Promise<undefined>((resolve) => {
      const arm = (): void => void setTimeout(() => resolve(undefined), CANCEL_GRACE_MS).unref();
      if (controller.signal.aborted) arm();
      else controller.signal.addEventListener('abort', arm, { once: true });
    });
    return await Promise.race([run, grace]);
  } finally {
    io.interrupt.removeEventListener('abort', cancel);
  }
}

/** What the CLI offers MCP servers: answers by policy, the workspace as the root, sign-in by a printed URL, sampling by --allow-sampling. */
function mcpClientOptions(
  args: CliArgs,
  io: CliIo,
  workspaceFolder: string,
  mcp: AgentRuntimeOptions['mcp'],
  sampling: SamplingPermission,
): Pick<AgentRuntimeOptions, 'mcpFeatures' | 'oauth' | 'mcp' | 'samplingPermission'> {
  const source = args.elicitation !== undefined ? '--elicitation' : 'SPROUT_AGENT_ELICITATION';
  return {
    mcpFeatures: {
      elicitation: withUrlMode(elicitationPolicy(args.elicitation ?? io.env.SPROUT_AGENT_ELICITATION, io.cwd, source), io),
      roots: () => [{ uri: pathToFileURL(workspaceFolder).href, name: basename(workspaceFolder) }],
    },
    oauth: cliOAuthHost(io.env, io.stderr),
    mcp,
    samplingPermission: sampling,
  };
}

/** URL-mode questions are printed, and asked about on a terminal (declined elsewhere). */
function withUrlMode(policy: ElicitationHandling | undefined, io: CliIo): ElicitationHandling | undefined {
  return policy === undefined ? undefined : { ...policy, openUrl: urlElicitation(io.stdin, io.stderr) };
}

type Wrap = ((host: ToolHost) => ToolHost) | undefined;

/** The hub as the session sees it, innermost first: its workspace writes recorded (--session), other agents' command hooks, command rules on the shell tool. */
function wrapTools(wraps: readonly Wrap[]): Pick<AgentRuntimeOptions, 'wrapTools'> {
  const layers = wraps.filter((w) => w !== undefined);
  return layers.length === 0 ? {} : { wrapTools: (hub) => layers.reduce<ToolHost>((host, wrap) => wrap(host), hub) };
}

function rulesLayer(rules: readonly CommandRule[]): Wrap {
  return rules.length > 0 ? (host) => new CommandRulesToolHost(host, rules) : undefined;
}

/** The servers this run starts, with what was said about the configuration and who may sample; a misconfiguration throws. */
function runServers(args: CliArgs, io: CliIo, workspaceFolder: string, allowlist: HookAllowlist): ServerSelection & { sampling: SamplingPermission } {
  const selection = selectAndAnnounce(args, workspaceFolder, io.env, io.stderr);
  checkHookAllowlist(allowlist, selection);
  return { ...selection, sampling: samplingPolicy(args.allowSampling, [...selection.configured.map((s) => s.name), ...selection.bundled]) };
}

/** The prompt: the argument, else stdin (asked for on a terminal); none when approving a plan without one. */
async function runPromptText(args: CliArgs, io: CliIo): Promise<string> {
  if (!promptFromStdin(args)) return '';
  if (args.prompt === undefined && io.stdin.isTTY === true) {
    io.stderr.write('sprout-agent: type the prompt, then Ctrl-D (or pass it as an argument)\n');
  }
  return await raceInterrupt(readPrompt(args.prompt, io.stdin, io.interrupt), io.interrupt);
}

/** The --session file, its id, the workspace server; with --rewind the rewind comes first (`rewoundOnly`: it was all the run does, its exit code). */
async function runSession(args: CliArgs, io: CliIo, folder: string, selection: ServerSelection, logger: StreamLogger) {
  const sessionFile = sessionFileFor(args.session, io.cwd, folder);
  const sessionId = await sessionIdFor(sessionFile, logger);
  const workspace = { server: selection.bundled.includes('workspace') ? 'workspace' : undefined, folder };
  let rewoundOnly: number | undefined;
  if (args.rewind !== undefined) {
    const rewound = await rewindCliSession({ prompt: args.rewind, force: args.force, sessionFile, sessionId, workspaceServer: workspace.server }, io, logger);
    if (args.prompt === undefined) rewoundOnly = printRewound(rewound, args.json, io);
  }
  return { sessionFile, sessionId, workspace, rewoundOnly };
}

function bundledOptions(args: CliArgs, io: CliIo, names: ServerSelection['bundled'], session: { sessionId: string; resumable: boolean }, protectedPaths: string[]): AgentRuntimeOptions['bundledServers'] {
  const stateDir = names.length > 0 ? stateDirFor(session.sessionId, session.resumable, io.env) : '';
  return { names, distDir: io.distDir, stateDir, protectedPaths, allowProtectedWrites: args.allowProtectedWrites };
}

async function execute(args: CliArgs, io: CliIo, logger: StreamLogger): Promise<number> {
  const workspaceFolder = resolveWorkspace(args.cwd, io.cwd);
  const settings = settingsFromEnv(io.env, args);
  const connection = modelConnectionFromEnv(io.env);
  const mcp = mcpProtocolOptions(io.env);
  checkPlanArgs(args);
  const selection = runServers(args, io, workspaceFolder, settings.hooks.allowlist);
  const hookFiles = cliAgentHooks(args.agentHooks, args.trustWorkspace, io, workspaceFolder, selection);
  const images = readCliImages(args.images, io.cwd);
  // --agent's own model where the endpoint lists it (cliAgents.ts); the configured one otherwise.
  const agentRun = await cliRunAgent(args, workspaceFolder, io.env, settings.model, () => new OpenAiModelClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, compatibility: connection.compatibility }).listModels());
  const customizations = { ...cliCustomizations(workspaceFolder, trustsWorkspace(args.trustWorkspace, io.env), args.instructionsSources, io.env), ...agentRun.options };
  const commandRules = cliCommandRules(io.env, workspaceFolder);
  for (const problem of commandRules.problems) io.stderr.write(`sprout-agent: command rule ignored: ${problem}\n`);
  const { sessionFile, sessionId, workspace, rewoundOnly } = await runSession(args, io, workspaceFolder, selection, logger);
  if (rewoundOnly !== undefined) return rewoundOnly;
  const { prompt, runArgs, attachments, mcp: mcpPrompt } = slashCommand(await runPromptText(args, io), args, io, workspaceFolder);
  const secretLogger = new StreamLogger(io.stderr, { level: logLevel(io.env), secrets: connection.apiKey ? [connection.apiKey] : [] });
  const print = args.json ? jsonEventPrinter(io.stdout) : textEventPrinter(io.stdout, io.stderr, { live: io.stdoutIsTerminal === true });
  const runtime = await createAgentRuntime({
    workspaceFolder,
    servers: selection.configured,
    bundledServers: bundledOptions(args, io, selection.bundled, { sessionId, resumable: sessionFile !== undefined }, protectedPathsFromEnv(io.env)),
    settings: { ...settings, model: agentRun.model, hooks: { ...settings.hooks, allowlist: allowSources(settings.hooks.allowlist, hookFiles) } },
    ...wrapTools([
      checkpointing(sessionFile, sessionId, io.env, workspace),
      hookFiles.length > 0 ? (host) => new WithCommandHooks(host, commandHookHost(hookFiles, workspaceFolder, io.env)) : undefined,
      rulesLayer(commandRules.rules),
    ]),
    model: {
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      compatibility: connection.compatibility,
      memory: fileAdaptationMemory(adaptationFilePath(io.env), (message) => secretLogger.warn(message)),
    },
    sessionId,
    transcript: sessionFile,
    logger: secretLogger,
    parentEnv: { ...io.env },
    clientVersion: io.version,
    onServerStderr: (server, text) => secretLogger.debug(`[${server} stderr] ${text.slice(0, 4000)}`),
    ...mcpClientOptions(args, io, workspaceFolder, mcp, selection.sampling),
  });
  io.onRuntime?.(runtime);
  for (const event of runtime.startupEvents) print(event);
  // One decision: the outcome as printed (with the failed servers the run needed) is what the exit code comes from.
  const verdict = runVerdict(() => runtime.hub.status(), settings.hooks.allowlist);
  const unsubscribe = runtime.session.subscribe(printing(args, io, (event) => print(verdict.see(event))));
  try {
    const asked = mcpPrompt === undefined ? { prompt, images: [] } : await cliMcpPrompt(runtime.hub, mcpPrompt, parseInputs(args.inputs), io);
    const planned = await plannedRun(runtime, runArgs, asked.prompt, { images: [...images, ...asked.images], agents: [], ...customizations, ...(await withCliResources(attachments, args.resources, runtime.hub.resources, io.interrupt)), ...cliToolSelection(args.tools, workspaceFolder, trustsWorkspace(args.trustWorkspace, io.env), io.stderr, io.env) }, io.interrupt);
    const finished = await runPrompt(runtime, planned.prompt, io, planned.options);
    const outcome = verdict.outcome;
    // No outcome: a cancel that wedged past its grace (or a host bug); the servers are closed regardless.
    if (finished === undefined || outcome === undefined) return io.interrupt.aborted ? EXIT_INTERRUPTED : EXIT_ERROR;
    // stderr in both modes: a --json consumer reads stdout, a person watching the terminal reads this.
    if (outcome.reason === 'error' && outcome.message) io.stderr.write(`sprout-agent: ${outcome.message}\n`);
    io.stderr.write(describeFailures(outcome.failedServers ?? []));
    return exitCodeForOutcome(outcome);
  } finally {
    await endRun(runtime, io, unsubscribe);
  }
}

/** A typed "/name args" expanded from its prompt file (its mode too, unless --mode was given); other text as typed. */
function slashCommand(typed: string, args: CliArgs, io: CliIo, workspaceFolder: string): { prompt: string; runArgs: CliArgs; attachments: Pick<PromptOptions, 'attachments'>; mcp?: PendingMcpPrompt } {
  if (!typed.trimStart().startsWith('/')) return { prompt: typed, runArgs: args, attachments: {} };
  const commands = cliPromptCommands(workspaceFolder, trustsWorkspace(args.trustWorkspace, io.env), io.env);
  const expanded = expandCliPrompt(typed, commands, parseInputs(args.inputs), workspaceFolder);
  return {
    prompt: expanded.prompt,
    runArgs: !args.modeGiven && expanded.mode !== undefined ? { ...args, mode: expanded.mode } : args,
    attachments: expanded.attachments.length > 0 ? { attachments: expanded.attachments } : {},
    ...(expanded.mcp === undefined ? {} : { mcp: expanded.mcp }),
  };
}

/** Each event printed, and with --verbose (text mode) the instruction files that apply. */
function printing(args: CliArgs, io: CliIo, print: (event: AgentEvent) => void): (event: AgentEvent) => void {
  return (event) => {
    print(event);
    const verbose = args.verbose && !args.json ? verboseInstructions(event) : undefined;
    if (verbose !== undefined) io.stderr.write(`${verbose}\n`);
  };
}

/** Every way out: `_SessionEnd` within the hook timeout while the printer still shows its calls, then every server closes. */
async function endRun(runtime: AgentRuntime, io: CliIo, unsubscribe: () => void): Promise<void> {
  try {
    await runtime.session.end(io.interrupt.aborted ? 'interrupted' : 'exit');
  } finally {
    unsubscribe();
    await runtime.dispose();
  }
}

export async function runCli(given: CliIo): Promise<number> {
  // Whatever the CLI prints may carry text from outside (server names, endpoint errors, hook and tool
  // text): both streams neutralise every write, so no message has to remember to.
  const io: CliIo = { ...given, stdout: terminalWriter(given.stdout), stderr: terminalWriter(given.stderr) };
  const logger = new StreamLogger(io.stderr, { level: logLevel(io.env) });
  if (io.argv[0] === 'hooks') return runHooks(io, logger);
  if (io.argv[0] === 'skills') return withExitCodes(io, () => Promise.resolve(runSkillsCommand(io.argv.slice(1), io)));
  if (io.argv[0] === 'agents') return withExitCodes(io, () => Promise.resolve(runAgentsCommand(io.argv.slice(1), io)));
  if (io.argv[0] === 'prompts') return withExitCodes(io, () => runPromptsCommand(io.argv.slice(1), io, logger));
  if (io.argv[0] === 'instructions') return withExitCodes(io, () => Promise.resolve(runInstructionsCommand(io.argv.slice(1), io)));
  let args: CliArgs;
  try {
    args = parseCliArgs(io.argv);
  } catch (error) {
    io.stderr.write(`sprout-agent: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  if (args.help) {
    io.stdout.write(USAGE);
    return EXIT_OK;
  }
  if (args.version) {
    io.stdout.write(`${io.version}\n`);
    return EXIT_OK;
  }
  return withExitCodes(io, () => execute(args, io, logger));
}

/**
 * `sprout-agent hooks ...`. `run` is what agents start for each hook event: it never exits 2 (most
 * agents read 2 as "block") and reports its own failures; `host` is what `run` starts.
 */
function runHooks(io: CliIo, logger: StreamLogger): Promise<number> {
  const [command, ...rest] = io.argv.slice(1);
  if (command === 'run') return runBridgeProcess(rest, io);
  if (command === 'host') return withExitCodes(io, () => runHookHostCommand(io));
  if (command === 'install' || command === 'uninstall') return withExitCodes(io, () => runHooksInstall(rest, io, command === 'uninstall'));
  return withExitCodes(io, () => runHooksCommand(io.argv.slice(1), io, logger));
}

/** Bad usage or configuration exits 2 with its message; an interrupt 130; anything else 1. */
async function withExitCodes(io: CliIo, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Interrupted) return EXIT_INTERRUPTED;
    // Configuration, and private state Sprout refuses to use (a symlinked state folder or transcript): one line, exit 2.
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof HookConfigError || error instanceof McpConfigError || error instanceof UnsafeStateDirError) {
      io.stderr.write(`sprout-agent: ${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`sprout-agent: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT_ERROR;
  }
}

export function defaultDistDir(here: string): string {
  return existsSync(join(here, 'servers')) ? here : join(here, '..', '..', 'dist');
}
