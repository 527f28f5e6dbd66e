/**
 * Tool sets in VS Code's tool-set format
 * (https://code.visualstudio.com/docs/agent-customization/tool-sets:
 * `{ "name": { "tools": [...], "description": "...", "icon": "..." } }`), from two places:
 * - the user's: `*.toolsets.jsonc` in the user profile's prompts folder, where VS Code keeps them (the
 *   profile's `promptsHome`, `<user data>/User/prompts` for the default profile; "Chat: Configure Tool
 *   Sets" writes them there);
 * - the workspace's: `.vscode/*.toolsets.jsonc` (workspace tool sets are an open request in VS Code:
 *   https://github.com/microsoft/vscode/issues/259183); Sprout reads them for both hosts.
 * A workspace set of the same name as a user set wins (the repository's meaning of its own names). A
 * workspace file is untrusted, but a set only names tools and a selection only narrows what the
 * servers offer, so the worst a file can do is offer fewer tools. A file that cannot be read or parsed
 * is a note naming it with its line; the other files still count.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stripJsonComments } from '../mcp/jsonc';
import { parseToolSets, type ToolSet } from '../agent/toolSelection';
import { errorMessage } from '../agent/errorMessage';
import { quotedName } from '../agent/nameText';

export const TOOL_SET_FOLDER = '.vscode';
const TOOL_SET_SUFFIX = '.toolsets.jsonc';
/** A tool-set file larger than this is not read (it is a list of names). */
const MAX_FILE_BYTES = 256 * 1024;

/** A folder of tool-set files: where it is, and how notes name it (`.vscode`, `User/prompts`). */
export interface ToolSetFolder {
  path: string;
  shown: string;
}

/** The 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** The line a JSON.parse error points at (V8 says "line L column C" or "position N"), if it says. */
function errorLine(text: string, error: unknown): number | undefined {
  const message = errorMessage(error);
  const line = /\(line (\d+) column \d+\)/.exec(message);
  if (line?.[1] !== undefined) return Number(line[1]);
  const position = /at position (\d+)/.exec(message);
  return position?.[1] === undefined ? undefined : lineAt(text, Number(position[1]));
}

function readFile(folder: ToolSetFolder, name: string, notes: string[]): ToolSet[] {
  const label = `${folder.shown}/${name}`;
  let text = '';
  try {
    text = readFileSync(join(folder.path, name), 'utf8');
    if (text.length > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024} KB`);
    // stripJsonComments keeps every line break: JSON.parse's line is the file's line.
    const json: unknown = JSON.parse(stripJsonComments(text));
    const lineOf = (set: string): number | undefined => {
      const at = text.indexOf(JSON.stringify(set));
      return at === -1 ? undefined : lineAt(text, at);
    };
    const parsed = parseToolSets(json, label, lineOf);
    notes.push(...parsed.notes);
    return parsed.sets;
  } catch (error) {
    const line = errorLine(stripJsonComments(text), error);
    notes.push(`${label}${line === undefined ? '' : `:${line}`}: could not be read (${errorMessage(error)}); its tool sets are ignored.`);
    return [];
  }
}

/** Every set of one folder's tool-set files (a later file's set of the same name is noted and ignored), with notes. */
function readFolder(folder: ToolSetFolder, notes: string[]): ToolSet[] {
  let files: string[];
  try {
    files = readdirSync(folder.path).filter((f) => f.endsWith(TOOL_SET_SUFFIX)).sort();
  } catch {
    return [];
  }
  const sets: ToolSet[] = [];
  for (const name of files) {
    for (const set of readFile(folder, name, notes)) {
      if (sets.some((s) => s.name === set.name)) notes.push(`${folder.shown}/${name}: tool set ${quotedName(set.name)} is already defined in an earlier file; this one is ignored.`);
      else sets.push(set);
    }
  }
  return sets;
}

/**
 * The tool sets of the workspace (`.vscode/*.toolsets.jsonc`, when `workspaceFolder` is given) and of
 * the user (`userFolder`), the workspace's first: one of its sets replaces a user set of the same name.
 */
export function readToolSets(workspaceFolder: string | undefined, userFolder?: ToolSetFolder): { sets: ToolSet[]; notes: string[] } {
  const notes: string[] = [];
  const workspace = workspaceFolder === undefined ? [] : readFolder({ path: join(workspaceFolder, TOOL_SET_FOLDER), shown: TOOL_SET_FOLDER }, notes);
  const user = userFolder === undefined ? [] : readFolder(userFolder, notes);
  return { sets: [...workspace, ...user.filter((u) => !workspace.some((w) => w.name === u.name))], notes };
}
