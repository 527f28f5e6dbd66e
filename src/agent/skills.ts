/**
 * Agent Skills (the open `SKILL.md` format) as the model meets them: progressive disclosure. Each
 * skill's name and description go into the system text; its body and the files beside it are read
 * only when the model calls `sprout__read_skill`, which the core answers itself (no server, like the
 * tool search): the host found the skills (src/customizations/skills.ts) and gives the reader. The
 * tool is not a server's tool, so no `_PreToolUse` hook and no approval sees it: it reads only files the
 * user already let in (user-level skills, a trusted workspace's), confined to the skill's folder. A
 * skill's scripts are never run by it: they run only through the shell tool, with its approval.
 */
import type { ToolSpec } from './ports';
import type { ToolCallResult } from './messages';
import { parseToolArguments } from './toolArguments';

export const READ_SKILL_TOOL_NAME = 'sprout__read_skill';

export interface Skill {
  name: string;
  description: string;
  /** Where SKILL.md is, as shown to the user (`.github/skills/x/SKILL.md`, `~/.claude/skills/x/SKILL.md`). */
  path: string;
  scope: 'workspace' | 'user';
}

export interface SkillSet {
  skills: Skill[];
  /** Files that could not be used, each naming the file and line. */
  notes: string[];
  /** Reads a skill's SKILL.md body (no `file`) or a file inside its folder; the host confines and bounds it. */
  read(name: string, file?: string): { text: string } | { error: string };
}

/** What the `skills` event says: the skills by name and file, and the notes. */
export function skillsAnnouncement(set: SkillSet): { skills: { name: string; path: string }[]; notes: string[] } {
  return { skills: set.skills.map((s) => ({ name: s.name, path: s.path })), notes: [...set.notes] };
}

/** The system text that lists the skills (empty when there are none). */
export function skillsSystemText(set: SkillSet | undefined): string {
  if (set === undefined || set.skills.length === 0) return '';
  const lines = set.skills.map((s) => `- ${s.name}: ${oneLine(s.description)}`);
  return [
    `Skills are available. When a task matches a skill's description, call ${READ_SKILL_TOOL_NAME} with its name to read its instructions before you start, and with "file" to read a file it mentions.`,
    ...lines,
  ].join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 1024 ? `${flat.slice(0, 1023)}…` : flat;
}

export function readSkillSpec(set: SkillSet): ToolSpec {
  return {
    name: READ_SKILL_TOOL_NAME,
    description:
      `Reads a skill's instructions (its SKILL.md) or one of its files. Skills: ${set.skills.map((s) => s.name).join(', ')}. ` +
      'Scripts a skill names are not run by this tool: run them with the shell tool, which asks the user first.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill name, as listed in the system text.' },
        file: { type: 'string', description: 'A file inside the skill folder, relative to it (e.g. references/api.md); omit for SKILL.md.' },
      },
      required: ['name'],
    },
  };
}

/** The answer to a `sprout__read_skill` call, or undefined for any other call. */
export function answerSkillCall(call: { name: string; arguments: string }, set: SkillSet | undefined): ToolCallResult | undefined {
  if (call.name !== READ_SKILL_TOOL_NAME || set === undefined || set.skills.length === 0) return undefined;
  const args = parseToolArguments(call.arguments);
  const name = args.ok && typeof args.value.name === 'string' ? args.value.name.trim() : '';
  const file = args.ok && typeof args.value.file === 'string' && args.value.file.trim() !== '' ? args.value.file.trim() : undefined;
  const skill = set.skills.find((s) => s.name === name);
  if (skill === undefined) return { isError: true, text: `${READ_SKILL_TOOL_NAME}: no skill named "${name}". Skills: ${set.skills.map((s) => s.name).join(', ')}.` };
  const read = set.read(skill.name, file);
  if ('error' in read) return { isError: true, text: `${READ_SKILL_TOOL_NAME}: ${read.error}` };
  const folder = skill.path.replace(/\/SKILL\.md$/, '');
  const header =
    file === undefined
      ? `Skill ${skill.name} (${skill.path}). Files it names are relative to ${folder}/; read them with ${READ_SKILL_TOOL_NAME} and "file". Its scripts run only through the shell tool, with the user's approval.`
      : `${folder}/${file} (skill ${skill.name}):`;
  return { isError: false, text: `${header}\n\n${read.text}` };
}
