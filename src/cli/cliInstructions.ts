/**
 * The CLI's instructions: read with node:fs for one run (none of the workspace's files without
 * --trust-workspace, docs: README.md#instructions), printed with --verbose, and the
 * `sprout-agent instructions [folder] [--agent NAME] [--json]` listing of what applies and why.
 */
import { homedir } from 'node:os';
import { relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { type InstructionSet, decideInstructions } from '../agent/instructions';
import type { AgentEvent } from '../agent/events';
import { INSTRUCTION_SOURCES, type InstructionSource, parseInstructionSources } from '../customizations/instructionSources';
import { readInstructions } from '../customizations/instructionFiles';
import { nodeInstructionFs } from '../platform/instructionFs';
import { neutralizeTerminalText } from '../platform/terminalText';
import { globMatcher } from '../servers/common/glob';
import type { CliIo } from './cliIo';
import { trustsWorkspace } from './cliServers';
import type { Env } from './cliSettings';
import { EXIT_OK, UsageError } from './exitCodes';

/** SPROUT_AGENT_INSTRUCTIONS_SOURCES (or --instructions-sources): which formats are read; all by default. */
export function instructionSources(flag: string | undefined, env: Env): InstructionSource[] {
  if (flag !== undefined) return parseInstructionSources(flag, '--instructions-sources');
  const raw = env.SPROUT_AGENT_INSTRUCTIONS_SOURCES;
  return raw === undefined ? [...INSTRUCTION_SOURCES] : parseInstructionSources(raw, 'SPROUT_AGENT_INSTRUCTIONS_SOURCES');
}

function home(env: Env): string | undefined {
  const value = env.HOME ?? env.USERPROFILE;
  return value !== undefined && value !== '' ? value : homedir();
}

function posix(path: string): string {
  return path.split(sep).join('/');
}

/** The files a run reads (the core decides which apply, round by round). */
export function cliInstructions(workspaceFolder: string, trusted: boolean, sources: readonly InstructionSource[], env: Env): InstructionSet {
  return readInstructions(nodeInstructionFs(), { root: posix(workspaceFolder), home: home(env), trusted, sources, compileGlob: globMatcher });
}

/** --verbose: the files that apply, on stderr, each time that changes. */
export function verboseInstructions(event: AgentEvent): string | undefined {
  if (event.type !== 'instructions') return undefined;
  if (event.applied.length === 0) return 'sprout-agent: no instruction files apply';
  const lines = event.applied.map((a) => `  ${neutralizeTerminalText(a.path)} (${neutralizeTerminalText(a.why)})`);
  return `sprout-agent: ${event.applied.length} instruction file${event.applied.length === 1 ? '' : 's'} apply:\n${lines.join('\n')}`;
}

/** The files each agent reads itself, as sources (user-level files filtered to its own). */
const AGENT_SOURCES: Readonly<Record<string, { sources: InstructionSource[]; user: string }>> = {
  claude: { sources: ['claude'], user: '~/.claude/' },
  codex: { sources: ['agents'], user: '~/.codex/' },
  gemini: { sources: ['gemini'], user: '~/.gemini/' },
  copilot: { sources: ['copilot', 'agents'], user: '~/.copilot/' },
};

export const INSTRUCTIONS_USAGE = `Usage: sprout-agent instructions [folder] [--agent claude|codex|gemini|copilot] [--json]

Lists the instruction files of the workspace (--cwd, default the current directory) and of your home
folder, which of them apply to work in FOLDER and why, and which apply only once work touches their
folder or a matching file. --agent shows the files that agent reads itself, to compare with Sprout.
A run reads the workspace's files only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1).
`;

export function runInstructionsCommand(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: { agent: { type: 'string' }, json: { type: 'boolean' }, cwd: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help === true) {
    io.stdout.write(INSTRUCTIONS_USAGE);
    return EXIT_OK;
  }
  const root = resolve(io.cwd, values.cwd ?? '.');
  const folder = posix(relative(root, resolve(io.cwd, positionals[0] ?? '.')));
  if (folder.startsWith('..')) throw new UsageError(`sprout-agent instructions: ${positionals[0] ?? ''} is outside the workspace ${root}.\n\n${INSTRUCTIONS_USAGE}`);
  const agent = values.agent === undefined ? undefined : AGENT_SOURCES[values.agent];
  if (values.agent !== undefined && agent === undefined) throw new UsageError(`sprout-agent instructions: unknown agent "${values.agent}"; use claude, codex, gemini or copilot.`);
  const set = cliInstructions(root, true, agent?.sources ?? instructionSources(undefined, io.env), io.env);
  const files = agent === undefined ? set.files : set.files.filter((f) => f.scope === 'workspace' || f.path.startsWith(agent.user));
  const decision = decideInstructions({ ...set, files }, folder === '' ? [] : [`${folder}/`]);
  const waiting = files.filter((f) => !decision.applied.some((a) => a.path === f.path)).map((f) => ({ path: f.path, when: f.globs !== undefined && f.globs.length > 0 ? `when a file matching ${f.globs.join(', ')} is touched` : 'when work touches its folder' }));
  const trusted = trustsWorkspace(false, io.env);
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ folder: folder === '' ? '.' : folder, agent: values.agent ?? 'sprout', applied: decision.applied, notApplied: waiting, notes: decision.notes })}\n`);
    return EXIT_OK;
  }
  const out: string[] = [`Instructions for ${folder === '' ? 'the workspace root' : folder}${values.agent === undefined ? '' : ` as ${values.agent} reads them`}:`];
  if (decision.applied.length === 0) out.push('  none apply');
  for (const a of decision.applied) out.push(`  ${a.path}  (${a.why})`);
  if (waiting.length > 0) out.push('Not applied yet:', ...waiting.map((w) => `  ${w.path}  (${w.when})`));
  for (const note of decision.notes) out.push(`note: ${note}`);
  if (!trusted) out.push('A run reads the workspace\'s files only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1); your own files always.');
  io.stdout.write(`${out.map((l) => neutralizeTerminalText(l)).join('\n')}\n`);
  return EXIT_OK;
}
