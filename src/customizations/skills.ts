/**
 * Finding Agent Skills (`<folder>/SKILL.md`, the open format of agentskills.io that Copilot, Claude Code
 * and Codex share) and reading a skill's files for the core's `sprout__read_skill` (src/agent/skills.ts).
 * Workspace: `.github/skills`, `.claude/skills`, `.agents/skills`; user-level: `~/.copilot/skills`,
 * `~/.claude/skills`, `~/.agents/skills`, `~/.codex/skills` (where those agents keep personal skills).
 * Only the front matter is read up front (name, description; `allowed-tools`, `license`, `metadata`
 * are accepted, not acted on). A skill that cannot be used (broken header, missing name or description,
 * a name that is not its folder's) is a note naming the file and line; the others still work. An
 * untrusted workspace's skills are not read at all (a prompt-injection surface); the user's still are.
 * Reads are confined to the skill's folder: no `..`, no absolute path, no link that leads out of it.
 */
import type { Skill, SkillSet } from '../agent/skills';
import { FrontMatterError, readFrontMatter, stringField } from './frontMatter';
import { linkedOut, readText } from './instructionFiles';
import type { InstructionFileSystem } from './instructionSources';

export const WORKSPACE_SKILL_FOLDERS = ['.github/skills', '.claude/skills', '.agents/skills'] as const;
export const USER_SKILL_FOLDERS = ['.copilot/skills', '.claude/skills', '.agents/skills', '.codex/skills'] as const;
/** The spec's limits: a name of up to 64 lowercase letters, digits and hyphens; a description of up to 1024 characters. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
/** A file the read tool answers with, at most (the model's context is the budget). */
export const SKILL_READ_MAX_CHARS = 64 * 1024;
const MAX_SKILLS = 200;
/** Fields the format defines (agentskills.io) and Claude Code's own; any other is a note, and the skill still works. */
const KNOWN_FIELDS = new Set(['name', 'description', 'allowed-tools', 'license', 'metadata', 'compatibility', 'version', 'model', 'disable-model-invocation', 'user-invocable', 'argument-hint']);

export const UNTRUSTED_SKILLS_NOTE =
  "The workspace is not trusted, so none of its skills (.github/skills, .claude/skills, .agents/skills) were read; your own skills still apply. " +
  'Trust the folder (VS Code: Manage Workspace Trust; CLI: --trust-workspace) to use them.';

export interface ReadSkillsOptions {
  root: string;
  home?: string;
  trusted: boolean;
}

interface FoundSkill extends Skill {
  folder: string;
}

function join(folder: string, relative: string): string {
  return `${folder.replace(/\/+$/, '')}/${relative}`;
}

/** The skill folders under one skills folder that hold a SKILL.md. */
function candidates(fs: InstructionFileSystem, base: string, shownBase: string): { folder: string; file: string; shown: string; dir: string }[] {
  return fs
    .list(base)
    .filter((e) => e.kind === 'dir')
    .map((e) => ({ folder: join(base, e.name), file: join(base, `${e.name}/SKILL.md`), shown: `${shownBase}/${e.name}/SKILL.md`, dir: e.name }))
    .filter((c) => fs.size(c.file) !== undefined)
    .sort((a, b) => a.dir.localeCompare(b.dir));
}

function lineOfField(text: string, field: string): number {
  const lines = text.split('\n');
  const index = lines.findIndex((l) => l.startsWith(`${field}:`));
  return index < 0 ? 1 : index + 1;
}

/** One SKILL.md's skill, or a note saying why it cannot be used. */
export function parseSkill(text: string, shown: string, dir: string, scope: Skill['scope']): { skill?: Skill; notes: string[] } {
  let fields: Record<string, unknown>;
  try {
    fields = readFrontMatter(text).fields;
  } catch (error) {
    if (error instanceof FrontMatterError) return { notes: [`${shown}:${error.line}: skipped, ${error.message}.`] };
    throw error;
  }
  const notes: string[] = [];
  const name = stringField(fields, 'name')?.trim() ?? '';
  const description = stringField(fields, 'description')?.trim() ?? '';
  if (name === '') return { notes: [`${shown}:1: skipped, the front matter has no "name" (a skill needs "name" and "description").`] };
  if (description === '') return { notes: [`${shown}:${lineOfField(text, 'name')}: skipped, the front matter has no "description" (the model picks a skill by it).`] };
  if (name !== dir) return { notes: [`${shown}:${lineOfField(text, 'name')}: skipped, its name "${name}" is not its folder's name "${dir}" (rename one of them).`] };
  if (!NAME.test(name) || name.length > NAME_MAX) return { notes: [`${shown}:${lineOfField(text, 'name')}: skipped, the name "${name}" must be up to ${NAME_MAX} lowercase letters, digits and single hyphens.`] };
  if (description.length > DESCRIPTION_MAX) notes.push(`${shown}:${lineOfField(text, 'description')}: the description is ${description.length} characters (the format allows ${DESCRIPTION_MAX}); it is cut.`);
  const unknown = Object.keys(fields).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length > 0) notes.push(`${shown}:${lineOfField(text, unknown[0] ?? '')}: unknown front matter field${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `"${k}"`).join(', ')} (ignored).`);
  return { skill: { name, description: description.slice(0, DESCRIPTION_MAX), path: shown, scope }, notes };
}

/** The relative path a model asked for, normalised; undefined when it would leave the folder. */
export function confinedRelative(file: string): string | undefined {
  const p = file.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.startsWith('~')) return undefined;
  const parts: string[] = [];
  for (const segment of p.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return undefined;
    parts.push(segment);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}

function readSkillFile(fs: InstructionFileSystem, skill: FoundSkill, file: string | undefined): { text: string } | { error: string } {
  const relative = file === undefined ? 'SKILL.md' : confinedRelative(file);
  if (relative === undefined) return { error: `"${file ?? ''}" is not a path inside the skill ${skill.name}'s folder (relative, no "..").` };
  const absolute = join(skill.folder, relative);
  const realFolder = fs.realPath(skill.folder);
  if (fs.realPath(absolute) === undefined || fs.size(absolute) === undefined) {
    const entries = fs.list(file === undefined ? skill.folder : absolute.replace(/\/[^/]*$/, ''));
    return { error: `the skill ${skill.name} has no file ${relative}${entries.length > 0 ? ` (beside it: ${entries.map((e) => e.name + (e.kind === 'dir' ? '/' : '')).join(', ')})` : ''}.` };
  }
  if (realFolder === undefined || linkedOut(fs, realFolder, absolute)) return { error: `${relative} links outside the skill ${skill.name}'s folder; it is not read.` };
  const read = readText(fs, absolute, `${skill.path.replace(/SKILL\.md$/, '')}${relative}`);
  if ('note' in read) return { error: read.note };
  const text = relative === 'SKILL.md' ? bodyOf(read.text) : read.text;
  const files = relative === 'SKILL.md' ? listFiles(fs, skill.folder) : [];
  const cut = text.length > SKILL_READ_MAX_CHARS ? `${text.slice(0, SKILL_READ_MAX_CHARS)}\n[cut: the file is ${text.length} characters, the first ${SKILL_READ_MAX_CHARS} are shown]` : text;
  return { text: files.length > 0 ? `${cut}\n\nFiles in the skill's folder: ${files.join(', ')}` : cut };
}

function bodyOf(text: string): string {
  try {
    return readFrontMatter(text).body;
  } catch (error) {
    return error instanceof FrontMatterError ? error.body : text;
  }
}

/** The folder's files (two levels, at most 50), SKILL.md aside, for the model to know what it may read. */
function listFiles(fs: InstructionFileSystem, folder: string): string[] {
  const out: string[] = [];
  for (const e of fs.list(folder)) {
    if (e.kind === 'file' && e.name !== 'SKILL.md') out.push(e.name);
    if (e.kind === 'dir') for (const inner of fs.list(join(folder, e.name))) out.push(`${e.name}/${inner.name}${inner.kind === 'dir' ? '/' : ''}`);
  }
  return out.sort().slice(0, 50);
}

/** The user's and (trusted) the workspace's skills; a name found twice: the workspace's wins, a note says so. */
export function readSkills(fs: InstructionFileSystem, options: ReadSkillsOptions): SkillSet {
  const notes: string[] = [];
  const found: FoundSkill[] = [];
  const add = (folder: string, file: string, shown: string, dir: string, scope: Skill['scope'], realRoot?: string): void => {
    if (found.length >= MAX_SKILLS) return;
    if (realRoot !== undefined && linkedOut(fs, realRoot, file)) {
      notes.push(`${shown}: not read, it links to a file outside the workspace.`);
      return;
    }
    const read = readText(fs, file, shown);
    if ('note' in read) {
      notes.push(read.note);
      return;
    }
    const parsed = parseSkill(read.text, shown, dir, scope);
    notes.push(...parsed.notes);
    if (parsed.skill === undefined) return;
    const twin = found.findIndex((s) => s.name === parsed.skill?.name);
    const other = found[twin];
    if (other !== undefined) {
      const replaces = scope === 'workspace' && other.scope === 'user';
      notes.push(`${shown}: the skill "${parsed.skill.name}" is also at ${other.path}; ${replaces ? shown : other.path} is used.`);
      if (!replaces) return;
      found.splice(twin, 1);
    }
    found.push({ ...parsed.skill, folder });
  };
  if (options.home !== undefined) {
    for (const base of USER_SKILL_FOLDERS) for (const c of candidates(fs, join(options.home, base), `~/${base}`)) add(c.folder, c.file, c.shown, c.dir, 'user');
  }
  const workspace = WORKSPACE_SKILL_FOLDERS.flatMap((base) => candidates(fs, join(options.root, base), base));
  if (!options.trusted) {
    if (workspace.length > 0) notes.push(UNTRUSTED_SKILLS_NOTE);
  } else {
    const realRoot = fs.realPath(options.root) ?? options.root;
    for (const c of workspace) add(c.folder, c.file, c.shown, c.dir, 'workspace', realRoot);
  }
  const skills = found.map(({ folder: _folder, ...skill }) => skill);
  return {
    skills,
    notes,
    read(name, file) {
      const skill = found.find((s) => s.name === name);
      return skill === undefined ? { error: `no skill named "${name}".` } : readSkillFile(fs, skill, file);
    },
  };
}
