/**
 * Finding and reading the prompt files other agents turn into slash commands, for both hosts:
 * Copilot's `.github/prompts/*.prompt.md` and Claude Code's `.claude/commands/**.md` in the workspace,
 * and the user's `~/.claude/commands/**.md`. The expansion is the core's (src/agent/promptCommands.ts);
 * this file only reads. A file that cannot be used (malformed front matter, binary, over 1 MB) is a note
 * naming it and its line, and the others still work. An untrusted workspace's files are not read (a
 * prompt-injection surface), said once; the user's own still are.
 */
import { BUILTIN_COMMANDS, type PromptCommand } from '../agent/promptCommands';
import { isMode, type Mode } from '../agent/modes';
import { FrontMatterError, listField, readFrontMatter, stringField } from './frontMatter';
import { readFoundFiles, trustedFiles, type CustomizationRoots } from './instructionFiles';
import type { InstructionFileSystem } from './instructionSources';

/** `home`: for `~/.claude/commands`. */
export type ReadPromptFilesOptions = CustomizationRoots;

export interface PromptCommandSet {
  commands: PromptCommand[];
  notes: string[];
}

export const UNTRUSTED_PROMPTS_NOTE =
  'The workspace is not trusted, so none of its prompt files (.github/prompts, .claude/commands) were read; your own ~/.claude/commands still apply. ' +
  'Trust the folder (VS Code: Manage Workspace Trust; CLI: --trust-workspace) to use them.';

/** Folders deeper than this under `.claude/commands` are not walked. */
const MAX_DEPTH = 4;
/** Commands read in all, per location. */
const MAX_FILES = 500;

const COPILOT_FIELDS = new Set(['description', 'argument-hint', 'tools', 'model', 'agent', 'mode', 'name']);
const CLAUDE_FIELDS = new Set(['description', 'argument-hint', 'allowed-tools', 'model', 'disable-model-invocation']);

interface Found {
  absolute: string;
  shown: string;
  name: string;
  scope: 'workspace' | 'user';
  format: 'copilot' | 'claude';
}

function join(folder: string, relative: string): string {
  return `${folder.replace(/\/+$/, '')}/${relative}`;
}

function copilotFiles(fs: InstructionFileSystem, root: string): Found[] {
  return fs
    .list(join(root, '.github/prompts'))
    .filter((e) => e.kind === 'file' && e.name.endsWith('.prompt.md') && e.name.length > '.prompt.md'.length)
    .map((e) => ({ absolute: join(root, `.github/prompts/${e.name}`), shown: `.github/prompts/${e.name}`, name: e.name.slice(0, -'.prompt.md'.length), scope: 'workspace' as const, format: 'copilot' as const }))
    .slice(0, MAX_FILES);
}

/** `.claude/commands/**.md`: a subfolder's name goes before the file's (`frontend/component.md` is `frontend:component`). */
function claudeFiles(fs: InstructionFileSystem, base: string, shownBase: string, scope: 'workspace' | 'user'): Found[] {
  const found: Found[] = [];
  const walk = (folder: string, prefix: string[], depth: number): void => {
    for (const entry of [...fs.list(join(base, folder))].sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_FILES || entry.name.startsWith('.')) continue;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.kind === 'dir' && depth < MAX_DEPTH) walk(relative, [...prefix, entry.name], depth + 1);
      else if (entry.kind === 'file' && entry.name.endsWith('.md') && entry.name.length > 3) {
        found.push({ absolute: join(base, relative), shown: `${shownBase}/${relative}`, name: [...prefix, entry.name.slice(0, -3)].join(':'), scope, format: 'claude' });
      }
    }
  };
  walk('', [], 0);
  return found;
}

/** Copilot's `agent`/`mode` as a Sprout mode: `ask` and `plan` narrow the tools, `agent` and `edit` do not. */
function modeOf(value: string | undefined): Mode | 'unknown' | undefined {
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === 'edit') return 'agent';
  return isMode(lower) ? lower : 'unknown';
}

function parseCommand(found: Found, text: string, notes: string[]): PromptCommand | undefined {
  let fields: Record<string, unknown>;
  let body: string;
  try {
    ({ fields, body } = readFrontMatter(text));
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    // Claude Code reads `argument-hint: [pr-number] [priority]` (its own docs' example, not valid YAML) line by line.
    const lines = found.format === 'claude' ? headerLines(text) : undefined;
    if (lines === undefined) {
      notes.push(`${found.shown}:${error.line}: not used as a command: ${error.message}.`);
      return undefined;
    }
    ({ fields, body } = lines);
  }
  const known = found.format === 'copilot' ? COPILOT_FIELDS : CLAUDE_FIELDS;
  const unknown = Object.keys(fields).filter((k) => !known.has(k));
  if (unknown.length > 0) notes.push(`${found.shown}: unknown front matter field${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `"${k}"`).join(', ')} ignored (it takes ${[...known].join(', ')}).`);
  const named = found.format === 'copilot' ? stringField(fields, 'name')?.trim() : undefined;
  const name = named !== undefined && /^[A-Za-z0-9][\w.:-]*$/.test(named) ? named : found.name;
  const mode = found.format === 'copilot' ? modeOf(stringField(fields, 'agent') ?? stringField(fields, 'mode')) : undefined;
  if (mode === 'unknown') notes.push(`${found.shown}: agent "${stringField(fields, 'agent') ?? stringField(fields, 'mode') ?? ''}" is not a Sprout mode (agent, ask, plan, edit): the command runs in the current mode.`);
  const description = stringField(fields, 'description')?.trim();
  const argumentHint = argumentHintOf(fields['argument-hint']);
  const tools = listField(fields, found.format === 'copilot' ? 'tools' : 'allowed-tools');
  const model = stringField(fields, 'model')?.trim();
  return {
    name,
    path: found.shown,
    scope: found.scope,
    format: found.format,
    body,
    ...(description ? { description } : {}),
    ...(argumentHint ? { argumentHint } : {}),
    ...(tools !== undefined && tools.length > 0 ? { tools } : {}),
    ...(model ? { model } : {}),
    ...(mode !== undefined && mode !== 'unknown' ? { mode } : {}),
  };
}

/** A header read line by line (`key: value`, the value as written); undefined when there is no closed header. */
function headerLines(text: string): { fields: Record<string, string>; body: string } | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').trim() !== '---') return undefined;
  const close = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (close < 0) return undefined;
  const fields: Record<string, string> = {};
  for (const line of lines.slice(1, close)) {
    const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (match !== null) fields[match[1]!] = match[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return { fields, body: lines.slice(close + 1).join('\n') };
}

/** `argument-hint: [pr-number] [priority]` is YAML for a list of lists; shown as the user wrote it. */
function argumentHintOf(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
  if (!Array.isArray(value)) return undefined;
  return value.map((v) => (Array.isArray(v) ? `[${v.map(String).join(', ')}]` : String(v))).join(' ');
}

/**
 * Every command the workspace (when trusted) and the user define: the workspace's Copilot files, then
 * its Claude commands, then the user's; a later one with a name already taken is shadowed, said in a note.
 */
export function readPromptFiles(fs: InstructionFileSystem, options: ReadPromptFilesOptions): PromptCommandSet {
  const notes: string[] = [];
  const workspace = [...copilotFiles(fs, options.root), ...claudeFiles(fs, join(options.root, '.claude/commands'), '.claude/commands', 'workspace')];
  const found: Found[] = trustedFiles(workspace, options.trusted, UNTRUSTED_PROMPTS_NOTE, notes);
  if (options.home !== undefined) found.push(...claudeFiles(fs, join(options.home, '.claude/commands'), '~/.claude/commands', 'user'));
  const commands: PromptCommand[] = [];
  const taken = new Map<string, string>(BUILTIN_COMMANDS.map((b) => [b.name, 'Sprout\'s own command']));
  for (const { file, text } of readFoundFiles(fs, options.root, found, notes)) {
    const command = parseCommand(file, text, notes);
    if (command === undefined) continue;
    const owner = taken.get(command.name);
    if (owner !== undefined) {
      notes.push(`${file.shown}: /${command.name} is already ${owner}; this file is not used.`);
      continue;
    }
    taken.set(command.name, `defined by ${file.shown}`);
    commands.push(command);
  }
  return { commands, notes };
}
