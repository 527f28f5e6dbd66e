/**
 * `sprout-agent hooks install|uninstall --agent X`: writes (or takes back out) the bridge's command
 * hooks in that agent's config file for this workspace (`--user`: the user's). It starts the servers
 * the bridge would, to see which Sprout hooks the allowlisted servers have, and installs the agent's
 * events for exactly those (plus the tool event that lets `_Stop` tell work from a decline, and the
 * session's end, which lets the hook host exit with the agent). It shows the change before writing,
 * keeps every hook of the user's, and writes nothing when the file already says the same.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { HookName } from '../../agent/events';
import { isHookServerAllowed, type HookSettings } from '../../agent/settings';
import type { ToolInfo } from '../../agent/messages';
import { bridgeEvents, type AgentFormat, type AgentId } from '../../agentHooks/agentFormat';
import { agentFormat } from '../../agentHooks/agentFormats';
import { BRIDGE_AGENT_TIMEOUT_MS, bridgeCommandLine, isBridgeCommand, planInstall, planUninstall, readHookEntries, shellQuote, type BridgeEntry, type ConfigPlan } from '../../agentHooks/hookConfig';
import { createHub } from '../../runtime/compose';
import { writeInWorkspace } from '../../servers/common/confinedFs';
import { OutsideWorkspaceError, realRoot, resolveInWorkspace } from '../../servers/common/safePath';
import { resolveWorkspace } from '../cliSession';
import type { CliIo } from '../cliIo';
import { EXIT_ERROR, EXIT_OK, UsageError } from '../exitCodes';
import { parseInstallArgs, serverOptionWords, type InstallArgs } from './bridgeArgs';
import { bridgeSetup } from './bridgeServers';
import { quotedName } from '../../agent/nameText';
import { RULES_OPTION } from './bridgeCommandRules';
import { commandRulesFrom } from '../cliCommandRules';

export const INSTALL_USAGE = `Usage: sprout-agent hooks install --agent AGENT [options]
       sprout-agent hooks uninstall --agent AGENT [--user] [--yes]

Writes the command hooks that let AGENT (claude, codex, gemini, copilot, cursor, kiro) be gated by
this workspace's MCP hook servers, with Sprout's timeouts, kills and budgets, into the agent's own
config file; uninstall takes them out again. The change is shown first; your own hooks are kept.

Options:
  --user                  the user's config file instead of this workspace's
  --yes, -y               write without asking (needed when stdin is not a terminal)
  --dry-run               show the change, write nothing
  --events LIST           the agent events to install (default: those the servers' hooks need)
  --command CMD           the program the hooks start (default: this sprout-agent, by absolute path)
  --cwd DIR, --mcp-config FILE, --trust-workspace, --allow-secret-env NAME, --builtin-servers LIST,
  --hook-servers LIST
                          the servers, as for a run; written into the hook command
  --command-rules JSON    also install a command policy: the agent's shell calls that these rules
                          deny (as sprout.tools.commandRules, e.g. '[{"deny":"rm"}]'; the workspace's
                          .vscode/settings.json deny rules too) are denied by its PreToolUse hook,
                          naming the rule. Hook servers are then optional. Check it with
                          hooks check --command CMD
`;

/** `--user --trust-workspace`: the user's hook runs in every folder the agent opens, so it trusts each of them. */
export const USER_TRUST_WARNING =
  'with --user and --trust-workspace the installed hook trusts every folder: in any folder the agent opens, it starts ' +
  'the servers that folder\'s .vscode/mcp.json defines, so a repository you clone runs its own commands. Install it ' +
  'per workspace instead (without --user), or name the servers you trust with --mcp-config FILE and no --trust-workspace.';

/** The Sprout hooks the allowlisted servers have, found by starting them as the bridge would. */
async function servedHooks(args: InstallArgs, workspaceFolder: string, io: CliIo): Promise<Set<HookName>> {
  const setup = bridgeSetup(args, workspaceFolder, io.env, io.distDir, io.cwd);
  for (const notice of setup.notices) io.stderr.write(`sprout-agent: ${notice}\n`);
  const allowlist = setup.settings.hooks.allowlist;
  if (allowlist.kind === 'names' && allowlist.names.length === 0) {
    throw new UsageError('name the servers whose hooks should gate the agent: --hook-servers todo,tests (or set MCP_HOOK_SERVERS).');
  }
  const hub = createHub(setup.servers, { parentEnv: { ...io.env }, clientVersion: io.version });
  try {
    // No short wait here: installing is worth waiting for every server's list (each bounded by its connect timeout).
    const tools = await hub.listTools(io.interrupt);
    const failed = hub.status().filter((s) => s.state === 'failed' && isHookServerAllowed(allowlist, s.name));
    if (failed.length > 0) throw new UsageError(failed.map((s) => `MCP server ${quotedName(s.name)} did not start: ${s.error ?? 'no reason given'}`).join('; '));
    return new Set(tools.filter((t) => t.isHook && isHookServerAllowed(allowlist, t.server)).map((t) => t.bareName as HookName));
  } finally {
    await hub.close();
  }
}

function chosenEvents(format: AgentFormat, list: string): string[] {
  const events = list.split(',').map((e) => e.trim()).filter(Boolean);
  const unknown = events.filter((e) => format.events[e] === undefined);
  if (unknown.length > 0) throw new UsageError(`--events: ${unknown.join(', ')} is no ${format.displayName} event Sprout serves; use ${Object.keys(format.events).join(', ')}.`);
  return events;
}

function bridgeCommand(args: InstallArgs, event: string, io: CliIo, workspaceFolder: string): string {
  const program = args.command ?? `${shellQuote(process.execPath)} ${shellQuote(join(io.distDir, 'cli.js'))}`;
  const options = { ...args, ...(args.mcpConfig !== undefined ? { mcpConfig: resolve(io.cwd, args.mcpConfig) } : {}) };
  // Installed for a workspace: the workspace, wherever in it the agent runs. For the user: the agent's folder.
  const cwd = args.user ? [] : ['--cwd', workspaceFolder];
  return bridgeCommandLine(program, args.agent, event, [...cwd, ...serverOptionWords(options)]);
}

/** Where the config file is written: the user's, or the workspace's real file (inside it, never through a link out of it). */
interface ConfigTarget {
  /** The file as named (what the user reads). */
  file: string;
  /** The real path written and read; for the workspace, resolved inside it. */
  real: string;
  /** The workspace's real root when the file is the workspace's. */
  rootReal?: string;
}

/**
 * A repository can ship `.claude/settings.json` (or `.claude` itself) as a link into the user's home;
 * writing through it would change the user's own agent configuration while saying it wrote the
 * workspace's. So the workspace's file is resolved inside the workspace first, and a link out of it,
 * or one to nothing (which a write would create wherever it points), is refused by name.
 */
function configFile(format: AgentFormat, args: Pick<InstallArgs, 'user'>, workspaceFolder: string): ConfigTarget {
  if (args.user) {
    const file = join(homedir(), format.config.userFiles[0] ?? '');
    return { file, real: file };
  }
  const relativeFile = format.config.workspaceFiles[0] ?? '';
  const file = join(workspaceFolder, relativeFile);
  const rootReal = realRoot(workspaceFolder);
  const refuse = (why: string): never => {
    throw new UsageError(`refused: ${relativeFile} ${why}; hooks install writes only inside the workspace. Remove the link (or replace it with a file), or install for yourself with --user.`);
  };
  let real: string;
  try {
    real = resolveInWorkspace(rootReal, relativeFile);
  } catch (error) {
    if (error instanceof OutsideWorkspaceError) return refuse('is a link (or lies under one) that leads outside the workspace');
    throw error;
  }
  if (lstatSync(real, { throwIfNoEntry: false })?.isSymbolicLink() === true) refuse('is a link to a file that does not exist');
  return { file, real, rootReal };
}

function describe(plan: ConfigPlan, file: string, io: CliIo): void {
  io.stdout.write(`${file}:\n`);
  for (const line of plan.removed) io.stdout.write(`  - ${line}\n`);
  for (const line of plan.added) io.stdout.write(`  + ${line}\n`);
}

async function confirmed(args: Pick<InstallArgs, 'yes' | 'dryRun'>, io: CliIo): Promise<boolean> {
  if (args.dryRun) return false;
  if (args.yes) return true;
  if (io.stdin.isTTY !== true) throw new UsageError('not writing without --yes (stdin is not a terminal to ask on).');
  io.stdout.write('Write this change? [y/N] ');
  for await (const chunk of io.stdin) return /^\s*y(es)?\s*$/i.test(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  return false;
}

async function apply(plan: ConfigPlan, target: ConfigTarget, args: Pick<InstallArgs, 'yes' | 'dryRun'>, io: CliIo): Promise<boolean> {
  const { file } = target;
  if (!plan.changed) {
    io.stdout.write(`${file} already says this; nothing to change.\n`);
    return false;
  }
  describe(plan, file, io);
  if (!(await confirmed(args, io))) {
    io.stdout.write(args.dryRun ? 'Dry run: nothing written.\n' : 'Nothing written.\n');
    return false;
  }
  if (target.rootReal !== undefined) {
    writeInWorkspace(target.rootReal, target.real, plan.text);
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, plan.text);
  }
  io.stdout.write(`Wrote ${file}.\n`);
  return true;
}

/** The hooks to install for: the servers' (when any are named), and `_PreToolUse` for a command policy. */
async function installedHooks(args: InstallArgs, workspaceFolder: string, io: CliIo): Promise<Set<HookName>> {
  if (args.commandRules === undefined) return servedHooks(args, workspaceFolder, io);
  const { rules, problems } = commandRulesFrom(args.commandRules, RULES_OPTION, workspaceFolder);
  // The rules given here must all be valid; the workspace's ignored ones are only said (they are its own).
  const own = problems.filter((problem) => problem.startsWith(`${RULES_OPTION}[`) || problem.startsWith(`${RULES_OPTION}:`));
  if (own.length > 0) throw new UsageError(`${own.join('; ')}. Fix these rules, then install again.`);
  for (const problem of problems.filter((p) => !own.includes(p))) io.stderr.write(`sprout-agent: command rule ignored: ${problem}\n`);
  if (!rules.some((rule) => rule.kind === 'deny')) io.stderr.write('sprout-agent: note: a hook can only deny, and these rules deny nothing: the policy will let every command through to the agent\'s own permissions.\n');
  const named = (args.hookServers ?? io.env.MCP_HOOK_SERVERS ?? '').trim() !== '';
  return new Set<HookName>([...(named ? await servedHooks(args, workspaceFolder, io) : []), '_PreToolUse']);
}

export async function runHooksInstall(argv: readonly string[], io: CliIo, uninstall: boolean): Promise<number> {
  const args = parseInstallArgs(argv, INSTALL_USAGE);
  const format = agentFormat(args.agent);
  const workspaceFolder = resolveWorkspace(args.cwd, io.cwd);
  const target = configFile(format, args, workspaceFolder);
  const { file } = target;
  const text = existsSync(target.real) ? readFileSync(target.real, 'utf8') : undefined;
  // A file Sprout cannot read exactly is a configuration error (exit 2, naming it), found before any server starts.
  readHookEntries(format, text, file);
  if (uninstall) {
    await apply(planUninstall(format, text, file), target, args, io);
    return EXIT_OK;
  }
  const events = args.events !== undefined ? chosenEvents(format, args.events) : bridgeEvents(format, await installedHooks(args, workspaceFolder, io));
  if (events.length === 0) {
    io.stderr.write(`sprout-agent: no allowlisted server has a hook ${format.displayName} can run (${Object.values(format.events).join(', ')}); nothing to install.\n`);
    return EXIT_ERROR;
  }
  if (args.user && args.trustWorkspace) io.stderr.write(`sprout-agent: warning: ${USER_TRUST_WARNING}\n`);
  const hookServers = args.hookServers ?? io.env.MCP_HOOK_SERVERS?.trim();
  const withServers = { ...args, ...(hookServers ? { hookServers } : {}) };
  const entries: BridgeEntry[] = events.map((event) => ({ event, command: bridgeCommand(withServers, event, io, workspaceFolder), timeoutMs: BRIDGE_AGENT_TIMEOUT_MS }));
  await apply(planInstall(format, text, file, entries), target, args, io);
  io.stdout.write(`${format.displayName} gets: ${events.map((e) => `${e} -> ${format.events[e]}`).join(', ')}\n`);
  for (const note of format.setupNotes) io.stdout.write(`Note: ${note}\n`);
  return EXIT_OK;
}

/**
 * `hooks check --agent X`: what X would get from these servers through `hooks install`, and what its
 * config files hold of Sprout's entries now.
 */
export function agentReport(agent: AgentId, tools: readonly ToolInfo[], hooks: HookSettings, workspaceFolder: string): string {
  const format = agentFormat(agent);
  const served = new Set(tools.filter((t) => t.isHook && isHookServerAllowed(hooks.allowlist, t.server)).map((t) => t.bareName as HookName));
  const events = bridgeEvents(format, served);
  const lines = [``, `${format.displayName}: hooks install would give it ${events.length > 0 ? events.map((e) => `${e} -> ${format.events[e]}`).join(', ') : 'nothing (no allowlisted server has a hook it can run)'}`];
  for (const file of [...format.config.workspaceFiles.map((f) => join(workspaceFolder, f)), ...format.config.userFiles.map((f) => join(homedir(), f))]) {
    if (!existsSync(file)) continue;
    try {
      const ours = readHookEntries(format, readFileSync(file, 'utf8'), file).filter((h) => isBridgeCommand(h.command));
      lines.push(`  ${file}: ${ours.length > 0 ? ours.map((h) => h.event).join(', ') : 'no Sprout hooks'}`);
    } catch (error) {
      lines.push(`  ${file}: ${(error as Error).message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
