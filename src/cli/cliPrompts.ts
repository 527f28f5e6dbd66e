/**
 * Slash commands in the CLI (docs: README.md#prompt-files-and-slash-commands): `sprout-agent "/fix-tests
 * src/a.ts"` runs the prompt file of that name, expanded by the core (src/agent/promptCommands.ts), with
 * `${input:x}` given as `--input x=value`; `sprout-agent prompts [--json]` lists them with the MCP
 * servers' prompts (src/cli/cliMcpPrompts.ts). The workspace's
 * files are read only with --trust-workspace; the user's ~/.claude/commands always.
 */
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { BUILTIN_COMMANDS, expandCommand, parseSlash, unknownCommandMessage, type PromptCommand } from '../agent/promptCommands';
import type { Mode } from '../agent/modes';
import { isMcpCommand } from '../agent/mcpPrompts';
import { listCliMcpPrompts, mcpPromptJson, mcpPromptLine, type PendingMcpPrompt } from './cliMcpPrompts';
import type { Logger } from '../agent/ports';
import { secretEnvNames } from './cliArgs';
import type { PromptAttachment } from '../agent/promptAttachments';
import { readText } from '../customizations/instructionFiles';
import { readPromptFiles, type PromptCommandSet } from '../customizations/promptFiles';
import { nodeInstructionFs } from '../platform/instructionFs';
import { neutralizeTerminalText } from '../platform/terminalText';
import type { CliIo } from './cliIo';
import type { Env } from './cliSettings';
import { trustsWorkspace } from './cliServers';
import { EXIT_OK, UsageError } from './exitCodes';

function posix(path: string): string {
  return path.split(sep).join('/');
}

function home(env: Env): string | undefined {
  const value = env.HOME ?? env.USERPROFILE;
  return value !== undefined && value !== '' ? value : homedir();
}

/** The commands a run can use. */
export function cliPromptCommands(workspaceFolder: string, trusted: boolean, env: Env): PromptCommandSet {
  return readPromptFiles(nodeInstructionFs(), { root: posix(workspaceFolder), home: home(env), trusted });
}

/** `--input a=1 --input b=2` as { a: '1', b: '2' }; a word without `=` is a usage error. */
export function parseInputs(values: readonly string[]): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input ${JSON.stringify(value)} is not NAME=VALUE (for \${input:NAME} in a prompt file: --input NAME=value).`);
    inputs[value.slice(0, eq).trim()] = value.slice(eq + 1);
  }
  return inputs;
}

export interface ExpandedPrompt {
  prompt: string;
  /** The mode the prompt file asks for, when it asks. */
  mode?: Mode;
  /** `#file:` references the prompt file makes, read from the workspace. */
  attachments: PromptAttachment[];
  /** The command that ran, for the run's notes. */
  command?: PromptCommand;
  /** An MCP prompt (`/mcp.SERVER.PROMPT`), asked of its server once the run's servers are up. */
  mcp?: PendingMcpPrompt;
}

/**
 * The prompt as typed, or the command it names expanded. An unknown command, one of the editor's own,
 * or a missing `${input:}` is a UsageError (exit 2) saying what to do; nothing has started yet.
 */
export function expandCliPrompt(prompt: string, set: PromptCommandSet, inputs: Readonly<Record<string, string>>, workspaceFolder: string): ExpandedPrompt {
  const slash = parseSlash(prompt);
  if (slash === undefined) return { prompt, attachments: [] };
  if (BUILTIN_COMMANDS.some((b) => b.name === slash.name)) throw new UsageError(`/${slash.name} is a chat command of the editor; a CLI run is one prompt (use --session FILE to continue a chat).`);
  const command = set.commands.find((c) => c.name === slash.name);
  if (command === undefined && isMcpCommand(slash.name)) return { prompt, attachments: [], mcp: { name: slash.name, args: slash.args } };
  if (command === undefined) {
    const notes = set.notes.length > 0 ? `\n${set.notes.map((n) => `note: ${n}`).join('\n')}` : '';
    throw new UsageError(`${unknownCommandMessage(slash.name, set.commands.map((c) => c.name))} List them with: sprout-agent prompts. (To send text that starts with "/", put a space before it.)${notes}`);
  }
  const expansion = expandCommand(command, slash.args, inputs);
  if (!expansion.ok) {
    const names = expansion.missing.map((m) => `${m.name}${m.placeholder ? ` (${m.placeholder})` : ''}`).join(', ');
    const example = expansion.missing.map((m) => `--input ${m.name}=...`).join(' ');
    throw new UsageError(`/${command.name} (${command.path}) needs the input${expansion.missing.length === 1 ? '' : 's'} ${names}: pass ${example}.`);
  }
  const attachments: PromptAttachment[] = [];
  const fs = nodeInstructionFs();
  const root = posix(workspaceFolder).replace(/\/+$/, '');
  const realRoot = fs.realPath(root) ?? root;
  for (const file of expansion.files) {
    const real = fs.realPath(`${root}/${file}`);
    // A reference that is missing or links out of the workspace is left as text in the prompt.
    if (real === undefined || !real.startsWith(`${realRoot}/`)) continue;
    const read = readText(fs, `${root}/${file}`, file);
    if ('text' in read) attachments.push({ label: file, content: read.text });
  }
  return { prompt: expansion.prompt, attachments, command, ...(expansion.mode === undefined ? {} : { mode: expansion.mode }) };
}

export const PROMPTS_USAGE = `Usage: sprout-agent prompts [--cwd DIR] [--mcp-config FILE] [--trust-workspace] [--json]

Lists the slash commands a run can use: the workspace's prompt files (.github/prompts/*.prompt.md,
.claude/commands/**/*.md), your own ~/.claude/commands/**/*.md, and the prompts of the MCP servers a
run would start (--mcp-config FILE, and <cwd>/.vscode/mcp.json with --trust-workspace), which start
for the listing and stop after it. Run one with sprout-agent "/NAME arguments" (and --input
NAME=VALUE for each \${input:NAME} it asks for); an MCP prompt with sprout-agent
"/mcp.SERVER.PROMPT arguments" (its arguments in declared order, or --input NAME=VALUE).
A run reads the workspace's files only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1).
`;

const PROMPTS_OPTIONS = {
  json: { type: 'boolean' },
  cwd: { type: 'string' },
  'mcp-config': { type: 'string' },
  'trust-workspace': { type: 'boolean' },
  'allow-secret-env': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

function commandJson(c: PromptCommand): Record<string, unknown> {
  return { name: c.name, source: c.path, scope: c.scope, format: c.format, description: c.description ?? '', argumentHint: c.argumentHint ?? '', ...(c.mode === undefined ? {} : { mode: c.mode }) };
}

export async function runPromptsCommand(argv: readonly string[], io: CliIo, logger: Logger): Promise<number> {
  const { values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: PROMPTS_OPTIONS });
  if (values.help === true) {
    io.stdout.write(PROMPTS_USAGE);
    return EXIT_OK;
  }
  const root = resolve(io.cwd, values.cwd ?? '.');
  // Listing reads the workspace's files to show them; a run uses them only when trusted.
  const set = cliPromptCommands(root, true, io.env);
  const trusted = trustsWorkspace(false, io.env);
  const servers = { mcpConfig: values['mcp-config'], trustWorkspace: values['trust-workspace'] === true, allowSecretEnv: secretEnvNames(values['allow-secret-env']) };
  const mcp = await listCliMcpPrompts(servers, root, io, logger);
  const notes = [...set.notes, ...mcp.notes];
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ commands: set.commands.map(commandJson), mcpPrompts: mcp.prompts.map(mcpPromptJson), builtin: BUILTIN_COMMANDS, notes })}\n`);
    return EXIT_OK;
  }
  const out: string[] = set.commands.length === 0 ? ['No prompt files or commands found.'] : ['Commands:'];
  for (const c of set.commands) out.push(`  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${c.description ?? ''}  (${c.path})`);
  if (mcp.prompts.length > 0) out.push('MCP prompts:', ...mcp.prompts.map(mcpPromptLine));
  for (const note of notes) out.push(`note: ${note}`);
  if (!trusted && set.commands.some((c) => c.scope === 'workspace')) out.push('A run uses the workspace\'s files only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1); your own always.');
  io.stdout.write(`${out.map((l) => neutralizeTerminalText(l)).join('\n')}\n`);
  return EXIT_OK;
}
