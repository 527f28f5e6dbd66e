/**
 * Which instruction files apply to a conversation, and the system text they make. A pure decision over
 * what a host found (src/customizations/instructionFiles.ts reads them) and the paths the conversation
 * touched, scoped as each file's own agent scopes it: root files and user-level files always; a nested
 * `AGENTS.md`/`CLAUDE.md`/`GEMINI.md` once work touches its folder, ordered root first and the closest
 * last (as Codex concatenates them); an `applyTo`/`globs` rule once a matching file is touched; `@path`
 * imports inlined after their file (instructionImports.ts). The whole is capped, and what is cut is named.
 * The text goes into the system message (roundRequest.ts), so it is re-sent every round and after compaction.
 */
import { IMPORT_MAX_DEPTH, importReferences, resolveImport } from './instructionImports';

/** The file formats, each as its agent names it. */
export type InstructionFormat = 'agents' | 'claude' | 'claude-rule' | 'gemini' | 'copilot' | 'copilot-scoped' | 'cursor' | 'cline';

export interface InstructionFile {
  /** Workspace-relative with `/` (`packages/a/AGENTS.md`), or `~/...` for a user-level file. */
  path: string;
  scope: 'workspace' | 'user';
  format: InstructionFormat;
  /** The body, front matter removed. */
  text: string;
  sha256: string;
  /** `applyTo` (Copilot), `globs` (Cursor) or `paths` (Claude Code's and Cline's rules): the file applies when a touched path matches one. */
  globs?: readonly string[];
  /** Cursor's `alwaysApply`. */
  alwaysApply?: boolean;
  /** 1-based line of the front matter field holding the globs, for a note about a bad one. */
  globsLine?: number;
}

/** A file an import named, read by the host (workspace-relative path). */
export interface ImportedText {
  text: string;
  sha256: string;
}

/** Compiles a glob once; throws with a reason on a bad one (the hosts give servers/common/glob.ts's matcher). */
export type GlobCompiler = (pattern: string) => (path: string) => boolean;

/** What a host found, handed to the core with a prompt (PromptOptions.instructions). */
export interface InstructionSet {
  files: readonly InstructionFile[];
  /** Texts of the files imports name, by workspace-relative path. */
  imports: ReadonlyMap<string, ImportedText>;
  /** Notes from reading (a malformed header, a binary file, an untrusted workspace). */
  notes: readonly string[];
  compileGlob: GlobCompiler;
  /** The workspace root as the tools write absolute paths, to make a touched path relative. */
  root?: string;
}

export interface AppliedInstruction {
  path: string;
  /** Why it applies, in words (`at the workspace root`, `src/a.ts was touched`). */
  why: string;
  sha256: string;
}

export interface InstructionDecision {
  /** The block appended to the system prompt ('' when nothing applies). */
  text: string;
  applied: AppliedInstruction[];
  notes: string[];
}

export interface InstructionLimits {
  totalChars: number;
}

/** Enough for a few pages of conventions; a repository that needs more is better served by skills. */
export const INSTRUCTIONS_MAX_CHARS = 32_000;

/** Formats whose agents follow `@path` imports (Claude Code, Gemini CLI); elsewhere `@name` is just text. */
const IMPORTING: ReadonlySet<InstructionFormat> = new Set(['claude', 'gemini']);
const NESTABLE: ReadonlySet<InstructionFormat> = new Set(['agents', 'claude', 'gemini']);

function folderOf(path: string): string {
  const trimmed = path.replace(/^\.claude\//, '').replace(/\/\.claude\/CLAUDE\.md$/i, '/CLAUDE.md');
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut);
}

function under(folder: string, path: string): boolean {
  return path.startsWith(`${folder}/`);
}

interface Candidate {
  file: InstructionFile;
  why: string;
  /** Order key: user files, root files, rules, then nested files by depth. */
  rank: number;
}

function globWhy(file: InstructionFile, touched: readonly string[], compile: GlobCompiler, notes: string[]): string | undefined {
  const globs = file.globs ?? [];
  if (file.alwaysApply === true) return 'alwaysApply is set';
  if (globs.some((g) => g.trim() === '**' || g.trim() === '**/*')) return `it applies to "${globs.join(', ')}"`;
  for (const glob of globs) {
    let matches: (path: string) => boolean;
    try {
      matches = compile(glob);
    } catch (error) {
      notes.push(`${file.path}${file.globsLine === undefined ? '' : ` line ${file.globsLine}`}: the glob "${glob}" is not valid (${(error as Error).message}); it matches nothing.`);
      continue;
    }
    const hit = touched.find((path) => matches(path));
    if (hit !== undefined) return `${hit} matches "${glob}"`;
  }
  return undefined;
}

function candidateOf(file: InstructionFile, touched: readonly string[], compile: GlobCompiler, notes: string[]): Candidate | undefined {
  if (file.scope === 'user') return { file, why: 'a user-level file', rank: 0 };
  // A rule format, or any file whose header names paths, is scoped by its globs; the others by their folder.
  if (file.format === 'copilot-scoped' || file.format === 'cursor' || file.globs !== undefined) {
    const why = globWhy(file, touched, compile, notes);
    return why === undefined ? undefined : { file, why, rank: 2 };
  }
  const folder = NESTABLE.has(file.format) ? folderOf(file.path) : '';
  if (folder === '') return { file, why: 'at the workspace root', rank: 1 };
  const hit = touched.find((path) => under(folder, path));
  if (hit === undefined) return undefined;
  return { file, why: `${hit} is in its folder`, rank: 3 + folder.split('/').length };
}

interface Block {
  path: string;
  heading: string;
  text: string;
}

/** The file's blocks: its text, then each import (depth-first, each file once, bounded). */
function blocksOf(file: InstructionFile, why: string, set: InstructionSet, seen: Set<string>, notes: string[], applied: AppliedInstruction[]): Block[] {
  const blocks: Block[] = [{ path: file.path, heading: `${file.path} (${why})`, text: file.text }];
  applied.push({ path: file.path, why, sha256: file.sha256 });
  seen.add(file.path);
  const expand = (from: string, text: string, depth: number): void => {
    for (const reference of importReferences(text)) {
      const target = resolveImport(from, reference.raw);
      const where = `${from} line ${reference.line}`;
      if (target.kind === 'outside' || from.startsWith('~/')) {
        notes.push(`${where}: the import "@${reference.raw}" was not followed: ${target.kind === 'outside' ? target.why : 'a user-level file\'s import'} is outside the workspace.`);
        continue;
      }
      const imported = set.imports.get(target.path);
      if (imported === undefined || seen.has(target.path)) continue;
      if (depth > IMPORT_MAX_DEPTH) {
        notes.push(`${where}: the import "@${reference.raw}" was not followed: imports nest at most ${IMPORT_MAX_DEPTH} deep.`);
        continue;
      }
      seen.add(target.path);
      applied.push({ path: target.path, why: `imported by ${where}`, sha256: imported.sha256 });
      blocks.push({ path: target.path, heading: `${target.path} (imported by ${where})`, text: imported.text });
      expand(target.path, imported.text, depth + 1);
    }
  };
  if (IMPORTING.has(file.format)) expand(file.path, file.text, 1);
  return blocks;
}

const PREAMBLE =
  'The user and the repository keep the instructions below for coding agents. Follow them where they apply to the work; ' +
  'they do not override the user\'s requests in this conversation. Each section names its file.';

/** Fits blocks into `limit` characters in order; the first that does not fit is shortened, later ones cut; both named in a note. */
function capBlocks(blocks: readonly Block[], limit: number, notes: string[]): string[] {
  const out: string[] = [];
  const cut: string[] = [];
  let left = limit;
  for (const block of blocks) {
    const section = `## ${block.heading}\n\n${block.text.trim()}`;
    if (section.length <= left) {
      out.push(section);
      left -= section.length + 2;
    } else if (cut.length === 0 && left > 500) {
      out.push(`${section.slice(0, left - 60)}\n[... the rest of ${block.path} was cut]`);
      cut.push(`${block.path} (shortened)`);
      left = 0;
    } else cut.push(block.path);
  }
  if (cut.length > 0) notes.push(`The instructions are over the ${limit}-character cap: cut ${cut.join(', ')}.`);
  return out;
}

/** The decision: what applies given the files and the touched paths (workspace-relative). */
export function decideInstructions(set: InstructionSet, touched: readonly string[], limits: InstructionLimits = { totalChars: INSTRUCTIONS_MAX_CHARS }): InstructionDecision {
  const notes = [...set.notes];
  const candidates: Candidate[] = [];
  for (const file of set.files) {
    const candidate = candidateOf(file, touched, set.compileGlob, notes);
    if (candidate !== undefined) candidates.push(candidate);
  }
  // A stable sort: files of one rank keep the host's order (the root's files in the host's format order).
  candidates.sort((a, b) => a.rank - b.rank);
  const applied: AppliedInstruction[] = [];
  const seen = new Set<string>();
  const blocks: Block[] = [];
  for (const { file, why } of candidates) {
    if (seen.has(file.path)) continue;
    blocks.push(...blocksOf(file, why, set, seen, notes, applied));
  }
  if (blocks.length === 0) return { text: '', applied, notes };
  const sections = capBlocks(blocks, limits.totalChars, notes);
  return { text: `# Instructions\n\n${PREAMBLE}\n\n${sections.join('\n\n')}`, applied, notes };
}
