/**
 * Where each format keeps its instruction files in a workspace: the root's files, Copilot's and
 * Cursor's rule folders, Cline's `.clinerules` (a file or a folder) and every nested `AGENTS.md`,
 * `CLAUDE.md` and `GEMINI.md`. The walk skips `node_modules`, `.git` and hidden folders and is bounded
 * in depth and folders, saying so when it stops early.
 */
import type { InstructionFile } from '../agent/instructions';
import type { InstructionFileSystem, InstructionSource } from './instructionSources';

export interface FoundFile {
  absolute: string;
  /** Workspace-relative, or `~/...` for a user-level file. */
  shown: string;
  scope: 'workspace' | 'user';
  format: InstructionFile['format'];
}

/** Folders below the root the walk looks into, and how deep: enough for a large monorepo, bounded for a home folder opened by mistake. */
export const WALK_MAX_FOLDERS = 5000;
export const WALK_MAX_DEPTH = 12;
const SKIPPED = new Set(['node_modules', '.git']);

/** The nested files, by name. */
const NESTED: Readonly<Record<string, { format: InstructionFile['format']; source: InstructionSource }>> = {
  // Codex reads AGENTS.override.md instead of AGENTS.md in a folder that has both (dropOverridden).
  'AGENTS.override.md': { format: 'agents', source: 'agents' },
  'AGENTS.md': { format: 'agents', source: 'agents' },
  'CLAUDE.md': { format: 'claude', source: 'claude' },
  // Claude Code's personal file beside CLAUDE.md (kept out of git), read with it.
  'CLAUDE.local.md': { format: 'claude', source: 'claude' },
  'GEMINI.md': { format: 'gemini', source: 'gemini' },
};

/** The root's fixed files (besides the nested names found at the root), in the order they are told. */
const ROOT_FILES: readonly { path: string; format: InstructionFile['format']; source: InstructionSource }[] = [
  { path: '.claude/CLAUDE.md', format: 'claude', source: 'claude' },
  { path: '.github/copilot-instructions.md', format: 'copilot', source: 'copilot' },
  { path: '.cursorrules', format: 'cursor', source: 'cursor' },
  { path: '.clinerules', format: 'cline', source: 'cline' },
];

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

function abs(root: string, relative: string): string {
  return `${root.replace(/\/+$/, '')}/${relative}`;
}

/** Files under `folder` (relative) whose name ends with `suffix`, at any depth (bounded), sorted. */
function filesUnder(fs: InstructionFileSystem, root: string, folder: string, suffix: string, depth = 0): string[] {
  if (depth > 4) return [];
  const out: string[] = [];
  for (const entry of fs.list(abs(root, folder))) {
    const path = join(folder, entry.name);
    if (entry.kind === 'dir') out.push(...filesUnder(fs, root, path, suffix, depth + 1));
    else if (entry.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

/** Where Copilot's `*.instructions.md` files are looked for by default (VS Code: `chat.instructionsFilesLocations`). */
export const COPILOT_INSTRUCTION_FOLDERS: readonly string[] = ['.github/instructions'];

/**
 * VS Code's `chat.instructionsFilesLocations` (`{ "folder": true, ... }`) as the folders to look in: the
 * ones turned on, inside the workspace. User-level folders (`~/...`, absolute: VS Code's own defaults
 * name `~/.copilot/instructions` and `~/.claude/rules`) are left to the user-level reading, silently; a
 * relative folder that climbs out of the workspace (`..`) is not read, with a note: the setting can come
 * from the workspace's own settings, and a repository must not point the agent at files elsewhere on
 * the machine. Not an object: the default folder.
 */
export function instructionFolders(value: unknown): { folders: string[]; notes: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { folders: [...COPILOT_INSTRUCTION_FOLDERS], notes: [] };
  const folders: string[] = [];
  const notes: string[] = [];
  for (const [raw, on] of Object.entries(value)) {
    if (on !== true) continue;
    const folder = raw.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
    if (folder.startsWith('/') || folder.startsWith('~') || /^[A-Za-z]:/.test(folder)) continue;
    if (folder === '' || folder === '.' || folder.split('/').includes('..')) {
      notes.push(`chat.instructionsFilesLocations: "${raw}" is not read; Sprout reads instruction folders inside the workspace only.`);
    } else if (!folders.includes(folder)) folders.push(folder);
  }
  return { folders, notes };
}

function rootFiles(fs: InstructionFileSystem, root: string, sources: readonly InstructionSource[], copilotFolders: readonly string[]): FoundFile[] {
  const found: FoundFile[] = [];
  const add = (shown: string, format: InstructionFile['format']): void => void found.push({ absolute: abs(root, shown), shown, scope: 'workspace', format });
  for (const [name, { format, source }] of Object.entries(NESTED)) if (sources.includes(source) && fs.size(abs(root, name)) !== undefined) add(name, format);
  for (const { path, format, source } of ROOT_FILES) {
    if (!sources.includes(source)) continue;
    if (fs.size(abs(root, path)) !== undefined) add(path, format);
    else if (path === '.clinerules') for (const file of filesUnder(fs, root, '.clinerules', '')) if (/\.(md|txt)$/i.test(file) || !file.slice(12).includes('.')) add(file, 'cline');
  }
  if (sources.includes('copilot')) for (const folder of copilotFolders) for (const file of filesUnder(fs, root, folder, '.instructions.md')) add(file, 'copilot-scoped');
  if (sources.includes('cursor')) for (const file of filesUnder(fs, root, '.cursor/rules', '.mdc')) add(file, 'cursor');
  if (sources.includes('claude')) for (const file of filesUnder(fs, root, '.claude/rules', '.md')) add(file, 'claude-rule');
  if (sources.includes('cline')) for (const file of filesUnder(fs, root, '.cline/rules', '.md')) add(file, 'cline');
  return found;
}

/** Nested AGENTS.md/CLAUDE.md/GEMINI.md below the root, breadth first, bounded. */
function nestedFiles(fs: InstructionFileSystem, root: string, sources: readonly InstructionSource[], notes: string[]): FoundFile[] {
  const found: FoundFile[] = [];
  let level = [''];
  let folders = 0;
  for (let depth = 0; depth <= WALK_MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      for (const entry of fs.list(folder === '' ? root : abs(root, folder))) {
        if (entry.kind === 'dir') {
          if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
          if (++folders > WALK_MAX_FOLDERS) {
            notes.push(`Nested instruction files were looked for in the first ${WALK_MAX_FOLDERS} folders only; open a smaller folder to find the others.`);
            return found;
          }
          next.push(join(folder, entry.name));
        } else if (folder !== '') {
          const nested = NESTED[entry.name];
          if (nested !== undefined && sources.includes(nested.source)) found.push({ absolute: abs(root, join(folder, entry.name)), shown: join(folder, entry.name), scope: 'workspace', format: nested.format });
        }
      }
    }
    level = next.sort();
  }
  return found.sort((a, b) => (a.shown < b.shown ? -1 : 1));
}

/** Codex reads at most one file per folder, AGENTS.override.md before AGENTS.md: an overridden AGENTS.md is left out. */
function dropOverridden(files: FoundFile[]): FoundFile[] {
  const overrides = new Set(files.filter((f) => /(^|\/)AGENTS\.override\.md$/.test(f.shown)).map((f) => f.shown.replace(/AGENTS\.override\.md$/, 'AGENTS.md')));
  return files.filter((f) => !overrides.has(f.shown));
}

export function findInstructionFiles(fs: InstructionFileSystem, root: string, sources: readonly InstructionSource[], notes: string[], copilotFolders = COPILOT_INSTRUCTION_FOLDERS): FoundFile[] {
  const unique = [...new Map(rootFiles(fs, root, sources, copilotFolders).map((f) => [f.shown, f])).values()];
  return dropOverridden([...unique, ...nestedFiles(fs, root, sources, notes)]);
}
