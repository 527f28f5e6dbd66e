/**
 * Finding and reading instruction files in every format agents keep them (AGENTS.md, CLAUDE.md,
 * GEMINI.md, Copilot's, Cursor's and Cline's rules) and the user-level ones, for both hosts. The file
 * system comes in as a port (node:fs in the CLI and the extension); which files apply is the core's
 * decision (src/agent/instructions.ts), this file only reads. A file that cannot be used (malformed
 * header, binary, over 1 MB) is a note naming it and its line; the others still apply. An untrusted
 * workspace's files are not read at all (a prompt-injection surface): user-level files still are.
 */
import type { GlobCompiler, ImportedText, InstructionFile, InstructionSet } from '../agent/instructions';
import { IMPORT_MAX_DEPTH, importTargets } from '../agent/instructionImports';
import { type ParsedRule, parseRule } from './instructionRules';
import { type FoundFile, findInstructionFiles } from './instructionWalk';
import type { InstructionFileSystem, InstructionSource } from './instructionSources';

export { INSTRUCTION_SOURCES, type InstructionFileSystem, type InstructionSource } from './instructionSources';

/** Where each format's files are read from (instructions, prompt files, custom agents). */
export interface CustomizationRoots {
  /** The workspace folder (absolute, `/`). */
  root: string;
  /** The user's home folder, for the user's own files; none read when undefined. */
  home?: string;
  /** False: none of the workspace's files are read (Restricted Mode, the CLI without --trust-workspace). */
  trusted: boolean;
}

export interface ReadInstructionsOptions extends CustomizationRoots {
  sources: readonly InstructionSource[];
  compileGlob: GlobCompiler;
  /** Workspace-relative folders holding Copilot's `*.instructions.md` files (VS Code's `chat.instructionsFilesLocations`); `.github/instructions` when absent. */
  copilotFolders?: readonly string[];
}

/** A file bigger than this is not instructions anyone wrote by hand. */
export const INSTRUCTION_FILE_MAX_BYTES = 1024 * 1024;
/** Files imports may pull in, in all. */
const MAX_IMPORTED_FILES = 64;

/** Where each agent keeps its user-level file, under the home folder. */
export const USER_FILES: readonly { path: string; format: InstructionFile['format'] }[] = [
  { path: '.claude/CLAUDE.md', format: 'claude' },
  // Codex reads ~/.codex/AGENTS.override.md instead of AGENTS.md when there is one (userFiles keeps the first).
  { path: '.codex/AGENTS.override.md', format: 'agents' },
  { path: '.codex/AGENTS.md', format: 'agents' },
  { path: '.gemini/GEMINI.md', format: 'gemini' },
];

export const UNTRUSTED_NOTE =
  'The workspace is not trusted, so none of its instruction files (AGENTS.md, CLAUDE.md, rules) were read; user-level files still apply. ' +
  'Trust the folder (VS Code: Manage Workspace Trust; CLI: --trust-workspace) to use them.';

function join(folder: string, relative: string): string {
  return `${folder.replace(/\/+$/, '')}/${relative}`;
}

/** True when the file's real path (links resolved) is not inside `realRoot` (the real workspace root, or a skill's folder): a link out of it is not read. */
export function linkedOut(fs: InstructionFileSystem, realRoot: string, absolute: string): boolean {
  const real = fs.realPath(absolute);
  return real === undefined || (real !== realRoot && !real.startsWith(`${realRoot.replace(/\/+$/, '')}/`));
}

/** The workspace's files when trusted; when not, none, and `untrustedNote` once when it has any. */
export function trustedFiles<F>(workspace: readonly F[], trusted: boolean, untrustedNote: string, notes: string[]): F[] {
  if (!trusted && workspace.length > 0) notes.push(untrustedNote);
  return trusted ? [...workspace] : [];
}

/** Each file's text, in order; a workspace file that links out of the workspace, or one `readText` refuses, is a note instead. */
export function readFoundFiles<F extends { absolute: string; shown: string; scope: 'workspace' | 'user' }>(
  fs: InstructionFileSystem,
  root: string,
  files: readonly F[],
  notes: string[],
): { file: F; text: string; sha256: string }[] {
  const realRoot = fs.realPath(root) ?? root;
  const read: { file: F; text: string; sha256: string }[] = [];
  for (const file of files) {
    if (file.scope === 'workspace' && linkedOut(fs, realRoot, file.absolute)) {
      notes.push(`${file.shown}: not read, it links to a file outside the workspace.`);
      continue;
    }
    const one = readText(fs, file.absolute, file.shown);
    if ('note' in one) notes.push(one.note);
    else read.push({ file, ...one });
  }
  return read;
}

/** The text of a file, or a note saying why it cannot be used. */
export function readText(fs: InstructionFileSystem, absolute: string, shown: string): { text: string; sha256: string } | { note: string } {
  const size = fs.size(absolute);
  if (size === undefined) return { note: `${shown}: cannot be read (not a regular file).` };
  if (size > INSTRUCTION_FILE_MAX_BYTES) return { note: `${shown}: skipped, it is ${Math.round(size / 1024)} KB (instruction files are read up to 1 MB).` };
  let bytes: Uint8Array;
  try {
    bytes = fs.read(absolute);
  } catch (error) {
    return { note: `${shown}: cannot be read (${(error as Error).message}).` };
  }
  const nul = bytes.subarray(0, 8192).indexOf(0);
  if (nul >= 0) return { note: `${shown}: skipped, it is a binary file (a NUL byte on line ${lineAt(bytes, nul)}).` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { note: `${shown}: skipped, it is not UTF-8 text.` };
  }
  return { text, sha256: fs.sha256(bytes) };
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 10) line++;
  return line;
}

function toFile(found: FoundFile, rule: ParsedRule, sha256: string): InstructionFile {
  return {
    path: found.shown,
    scope: found.scope,
    format: found.format,
    text: rule.body,
    sha256,
    ...(rule.globs === undefined ? {} : { globs: rule.globs }),
    ...(rule.alwaysApply === undefined ? {} : { alwaysApply: rule.alwaysApply }),
    ...(rule.globsLine === undefined ? {} : { globsLine: rule.globsLine }),
  };
}

function userFiles(home: string | undefined, fs: InstructionFileSystem): FoundFile[] {
  if (home === undefined) return [];
  return USER_FILES.filter((f) => fs.size(join(home, f.path)) !== undefined)
    .filter((f, _, all) => f.path !== '.codex/AGENTS.md' || !all.some((o) => o.path === '.codex/AGENTS.override.md'))
    .map((f) => ({ absolute: join(home, f.path), shown: `~/${f.path}`, scope: 'user' as const, format: f.format }));
}

/** Reads the files `@path` imports reach, inside the workspace, breadth first and bounded. */
function readImports(fs: InstructionFileSystem, root: string, files: readonly InstructionFile[], notes: string[]): Map<string, ImportedText> {
  const imports = new Map<string, ImportedText>();
  const realRoot = fs.realPath(root) ?? root;
  let level = files.filter((f) => f.scope === 'workspace' && (f.format === 'claude' || f.format === 'gemini')).map((f) => ({ path: f.path, text: f.text }));
  for (let depth = 1; depth <= IMPORT_MAX_DEPTH && level.length > 0; depth++) {
    const next: { path: string; text: string }[] = [];
    for (const from of level) {
      for (const target of importTargets(from.path, from.text)) {
        if (imports.has(target) || imports.size >= MAX_IMPORTED_FILES || fs.size(join(root, target)) === undefined) continue;
        if (linkedOut(fs, realRoot, join(root, target))) {
          notes.push(`${target}: not read, it links to a file outside the workspace.`);
          continue;
        }
        const read = readText(fs, join(root, target), target);
        if ('note' in read) {
          notes.push(read.note);
          continue;
        }
        imports.set(target, read);
        next.push({ path: target, text: read.text });
      }
    }
    level = next;
  }
  return imports;
}

/** Every instruction file the enabled sources name, read; the core decides which apply. */
export function readInstructions(fs: InstructionFileSystem, options: ReadInstructionsOptions): InstructionSet {
  const notes: string[] = [];
  const found: FoundFile[] = options.sources.includes('user') ? userFiles(options.home, fs).filter((f) => options.sources.includes(sourceOf(f.format))) : [];
  // Untrusted: the walk only lists names (to say so when there is something to say), nothing is read.
  const workspace = findInstructionFiles(fs, options.root, options.sources, notes, options.copilotFolders);
  found.push(...trustedFiles(workspace, options.trusted, UNTRUSTED_NOTE, notes));
  const files: InstructionFile[] = [];
  for (const { file, text, sha256 } of readFoundFiles(fs, options.root, found, notes)) {
    const rule = parseRule(file, text);
    if (rule.note !== undefined) notes.push(rule.note);
    if (rule.usable) files.push(toFile(file, rule, sha256));
  }
  const imports = options.trusted ? readImports(fs, options.root, files, notes) : new Map<string, ImportedText>();
  return { files, imports, notes, compileGlob: options.compileGlob, root: options.root };
}

/** The source a format belongs to (a user-level file also needs its agent's source on). */
export function sourceOf(format: InstructionFile['format']): InstructionSource {
  return format === 'copilot-scoped' ? 'copilot' : format === 'claude-rule' ? 'claude' : format;
}
