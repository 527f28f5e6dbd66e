/**
 * Slash commands from prompt files (Copilot's `.github/prompts/*.prompt.md`, Claude Code's
 * `.claude/commands/**.md`): a pure expansion of a command, the text typed after it and named inputs
 * into the prompt the model receives, with the mode the file asks for. The hosts read the files
 * (src/customizations/promptFiles.ts) and ask for missing inputs (the CLI: `--input name=value`, exit 2
 * naming what is missing; the editor: an input box). A `!`command`` in a Claude command is never run
 * here: it becomes an instruction to run it through the shell tool, so the tool's approval still applies.
 */
import type { Mode } from './modes';

export interface PromptCommand {
  /** What follows `/`: the file name without its extension; a Claude subfolder adds `dir:` before it. */
  name: string;
  /** The file as a user reads it: workspace-relative, or `~/...` for a user-level file. */
  path: string;
  scope: 'workspace' | 'user';
  format: 'copilot' | 'claude';
  description?: string;
  argumentHint?: string;
  /** The tools the file names (Copilot's `tools`, Claude's `allowed-tools`), as written; shown, not enforced. */
  tools?: string[];
  model?: string;
  /** The mode the file asks for (Copilot's `agent`/`mode`); absent: the prompt runs in the current mode. */
  mode?: Mode;
  body: string;
}

/** Sprout's own commands; a file of the same name is shadowed (and said so). */
export const BUILTIN_COMMANDS: readonly { name: string; description: string }[] = [
  { name: 'new', description: 'Start a new chat' },
  { name: 'compact', description: 'Summarise the conversation so far to free context' },
  { name: 'hooks', description: 'Show the hook servers and their state' },
];

const SLASH = /^\/([A-Za-z0-9][\w.:-]*)(?:[ \t]+([\s\S]*))?$/;

/** `/name rest of text` as the name and the text after it; undefined when the prompt is not a command (`/usr/bin ...` is not). */
export function parseSlash(prompt: string): { name: string; args: string } | undefined {
  const match = SLASH.exec(prompt.trimStart().replace(/\s+$/, ''));
  if (match === null) return undefined;
  return { name: match[1]!, args: (match[2] ?? '').trim() };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The names close to `name` (a typo, a prefix, the same name in another folder), closest first, at most 5. */
export function closeMatches(name: string, names: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const scored = names.map((n) => {
    const lower = n.toLowerCase();
    const base = lower.slice(lower.lastIndexOf(':') + 1);
    const d = Math.min(distance(wanted, lower), distance(wanted, base));
    const near = lower.startsWith(wanted) || lower.includes(wanted) || wanted.includes(base) ? 0 : d;
    return { n, score: Math.min(near, d) };
  });
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return scored.filter((s) => s.score <= limit).sort((a, b) => a.score - b.score || a.n.localeCompare(b.n)).slice(0, 5).map((s) => s.n);
}

/** The error for a `/name` nothing defines, naming the close ones. */
export function unknownCommandMessage(name: string, names: readonly string[]): string {
  const close = closeMatches(name, names);
  const hint = close.length > 0 ? ` Did you mean ${close.map((n) => `/${n}`).join(', ')}?` : names.length > 0 ? ` Available: ${names.slice(0, 10).map((n) => `/${n}`).join(', ')}${names.length > 10 ? ', ...' : ''}.` : ' No prompt files or commands were found.';
  return `/${name} is not a command.${hint}`;
}

export interface CommandInput {
  name: string;
  placeholder?: string;
}

const INPUT = /\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g;

/** The `${input:name}` / `${input:name:placeholder}` a Copilot prompt file asks for, each once, in order. */
export function commandInputs(command: PromptCommand): CommandInput[] {
  if (command.format !== 'copilot') return [];
  const seen = new Map<string, CommandInput>();
  for (const m of command.body.matchAll(INPUT)) {
    const name = m[1]!;
    const placeholder = m[2]?.trim();
    if (!seen.has(name)) seen.set(name, { name, ...(placeholder ? { placeholder } : {}) });
  }
  return [...seen.values()];
}

export type Expansion =
  | { ok: true; prompt: string; mode?: Mode; files: string[] }
  | { ok: false; missing: CommandInput[] };

/** `key=value` words in the text after a Copilot command (VS Code's `/name: key=value`), as inputs; the rest stays text. */
function inlineInputs(args: string): { inputs: Record<string, string>; rest: string } {
  const inputs: Record<string, string> = {};
  const rest: string[] = [];
  for (const word of args.replace(/^:\s*/, '').split(/\s+/).filter((w) => w !== '')) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/.exec(word);
    if (m !== null) inputs[m[1]!] = m[2]!;
    else rest.push(word);
  }
  return { inputs, rest: rest.join(' ') };
}

/** Words of the argument text as Claude Code splits them for `$1`..`$9`: spaces, with "..." and '...' kept together. */
export function argumentWords(args: string): string[] {
  const words: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

const SHELL_INLINE = /!`([^`\n]+)`/g;

function shellInstruction(command: string): string {
  return `(run \`${command}\` with the shell tool, subject to its approval, and use its output here)`;
}

/** `#file:path` references: paths relative to the prompt file's folder, as workspace paths. */
function fileReferences(command: PromptCommand, text: string): string[] {
  const folder = command.path.includes('/') ? command.path.slice(0, command.path.lastIndexOf('/')) : '';
  const files: string[] = [];
  for (const m of text.matchAll(/#file:([^\s`'")\]]+)/g)) {
    const raw = m[1]!.replace(/[.,;:]+$/, '');
    const parts = (raw.startsWith('/') ? raw.slice(1) : folder === '' ? raw : `${folder}/${raw}`).split('/');
    const out: string[] = [];
    for (const part of parts) {
      if (part === '..') out.pop();
      else if (part !== '.' && part !== '') out.push(part);
    }
    const path = out.join('/');
    if (path !== '' && !files.includes(path)) files.push(path);
  }
  return files;
}

/**
 * The prompt a command becomes. Copilot: `${input:x}` from `inputs` (or `x=value` words typed after the
 * command), anything else typed after it appended; Claude: `$ARGUMENTS`, `$1`..`$9`, and when the file
 * names neither the arguments are appended. A missing input is `{ ok: false }` with what to ask for.
 */
export function expandCommand(command: PromptCommand, args: string, inputs: Readonly<Record<string, string>> = {}): Expansion {
  if (command.format === 'copilot') {
    const inline = inlineInputs(args);
    const given: Record<string, string> = { ...inline.inputs, ...inputs };
    const missing = commandInputs(command).filter((i) => given[i.name] === undefined);
    if (missing.length > 0) return { ok: false, missing };
    let prompt = command.body.replace(INPUT, (_all, name: string) => given[name] ?? '').trim();
    if (inline.rest !== '') prompt = `${prompt}\n\n${inline.rest}`;
    return { ok: true, prompt, files: fileReferences(command, command.body), ...(command.mode === undefined ? {} : { mode: command.mode }) };
  }
  const words = argumentWords(args);
  let usedArguments = false;
  let prompt = command.body.replace(/\$(ARGUMENTS|[1-9])\b/g, (_all, which: string) => {
    usedArguments = true;
    return which === 'ARGUMENTS' ? args : (words[Number(which) - 1] ?? '');
  });
  prompt = prompt.replace(SHELL_INLINE, (_all, cmd: string) => shellInstruction(cmd.trim())).trim();
  if (!usedArguments && args !== '') prompt = `${prompt}\n\nARGUMENTS: ${args}`;
  return { ok: true, prompt, files: [], ...(command.mode === undefined ? {} : { mode: command.mode }) };
}
