/**
 * Which other agents' hook files a CLI run executes (docs/hooks.md#hooks-from-other-agents-files): only
 * the formats `--agent-hooks` names; the user's own files (`~/.claude/settings.json`, ...) always, a
 * workspace's files only with --trust-workspace, since a cloned repository wrote them. Every file is
 * read strictly: one Sprout cannot read stops the run with its name and error (exit 2), never a
 * guard rail silently gone. The commands get Sprout's minimal environment, never the model key.
 */
import { homedir } from 'node:os';
import { agentFormat } from '../agentHooks/agentFormats';
import type { AgentFormat } from '../agentHooks/agentFormat';
import { CommandHookHost, type CommandHookSource } from '../agentHooks/commandHookHost';
import { HookConfigError } from '../agentHooks/hookConfig';
import { HookFileUnreadable, hookFilesOf, projectDirVars, readHookFile, type HookFileScope, type SourceFormatId } from '../agentHooks/hookFiles';
import { SOURCE_FORMAT_IDS } from '../agentHooks/hookSources';
import { ConfigError } from '../agent/settings';
import { minimalEnv } from '../mcp/minimalEnv';
import { runHookCommand } from '../platform/commandRunner';
import { nodeTextFiles } from '../platform/textFiles';
import type { Env } from './cliSettings';
import type { CliIo } from './cliIo';
import { trustsWorkspace, type ServerSelection } from './cliServers';
import { UsageError } from './exitCodes';
import { quotedName } from '../agent/nameText';

export interface AgentHookSelection {
  sources: CommandHookSource[];
  /** Said once on stderr: files read, entries not run, workspace files left out without trust. */
  notices: string[];
}

export interface AgentHookInput {
  /** --agent-hooks: a comma list of formats. */
  formats: string | undefined;
  workspaceFolder: string;
  home: string;
  trustWorkspace: boolean;
}

export function parseAgentHookFormats(value: string | undefined, source: string): SourceFormatId[] {
  const names = (value ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
  const unknown = names.filter((n) => !(SOURCE_FORMAT_IDS as readonly string[]).includes(n));
  if (unknown.length > 0) throw new UsageError(`${source}: unknown agent format ${unknown.map((n) => `"${n}"`).join(', ')}. Use a comma list of ${SOURCE_FORMAT_IDS.join(', ')}.`);
  return [...new Set(names)] as SourceFormatId[];
}

function readSource(format: AgentFormat, root: string, relative: string, scope: HookFileScope, notices: string[]): CommandHookSource | undefined {
  try {
    const read = readHookFile(format, root, relative, scope, nodeTextFiles);
    for (const skipped of read.skipped) notices.push(`${read.file}: not run: ${skipped}`);
    return read.source;
  } catch (error) {
    if (!(error instanceof HookConfigError)) throw error;
    const fix = error instanceof HookFileUnreadable ? ` Fix its permissions, or leave ${format.id} out of --agent-hooks.` : '';
    throw new ConfigError('--agent-hooks', `${error.message}${fix}`);
  }
}

/** The hook files this run executes; throws ConfigError naming a file it cannot read. */
export function selectAgentHookSources(input: AgentHookInput): AgentHookSelection {
  const notices: string[] = [];
  const sources: CommandHookSource[] = [];
  for (const id of parseAgentHookFormats(input.formats, '--agent-hooks')) {
    const format = agentFormat(id);
    for (const relative of hookFilesOf(format, input.home, 'user', nodeTextFiles)) {
      const source = readSource(format, input.home, relative, 'user', notices);
      if (source) sources.push(source);
    }
    const workspaceFiles = hookFilesOf(format, input.workspaceFolder, 'workspace', nodeTextFiles);
    if (!input.trustWorkspace) {
      if (workspaceFiles.length > 0) notices.push(`${workspaceFiles.join(', ')}: ${format.displayName} hooks a repository defines do not run unless you pass --trust-workspace (or set SPROUT_AGENT_TRUST_WORKSPACE=1).`);
      continue;
    }
    for (const relative of workspaceFiles) {
      const source = readSource(format, input.workspaceFolder, relative, 'workspace', notices);
      if (source) sources.push(source);
    }
  }
  for (const source of sources) notices.push(`${source.file}: runs ${source.hooks.length} ${source.format.displayName} hook command${source.hooks.length === 1 ? '' : 's'} as hook server ${quotedName(source.name)}.`);
  return { sources, notices };
}

/** A name both an MCP server and a hook file use is an error naming both. */
export function checkSourceNames(sources: readonly CommandHookSource[], serverNames: readonly string[]): void {
  const taken = new Set(serverNames);
  for (const source of sources) {
    if (taken.has(source.name)) throw new UsageError(`${source.file} runs as hook server ${quotedName(source.name)}, which an MCP server of this run is named too. Rename that server.`);
    taken.add(source.name);
  }
}

/** The MCP tool host with the hook files' commands as more hook servers, run with Sprout's minimal environment. */
export function commandHookHost(sources: readonly CommandHookSource[], workspaceFolder: string, env: Env): CommandHookHost {
  return new CommandHookHost(sources, {
    runner: runHookCommand,
    cwd: workspaceFolder,
    env: (source) => minimalEnv(env, projectDirVars(source.format, workspaceFolder)),
  });
}


/**
 * The hook files of a run (none without --agent-hooks), said on stderr, checked against the servers'
 * names; they act as hooks without MCP_HOOK_SERVERS naming them, since --agent-hooks is the opt-in.
 */
export function cliAgentHooks(formats: string | undefined, trustFlag: boolean, io: CliIo, workspaceFolder: string, selection: ServerSelection): CommandHookSource[] {
  if (formats === undefined) return [];
  const home = io.env.HOME ?? homedir();
  const { sources, notices } = selectAgentHookSources({ formats, workspaceFolder, home, trustWorkspace: trustsWorkspace(trustFlag, io.env) });
  for (const notice of notices) io.stderr.write(`sprout-agent: ${notice}\n`);
  checkSourceNames(sources, [...selection.configured.map((s) => s.name), ...selection.bundled]);
  return sources;
}
