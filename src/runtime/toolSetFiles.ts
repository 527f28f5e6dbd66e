/**
 * The workspace's tool sets: `.vscode/*.toolsets.jsonc` in VS Code's tool-set format
 * (https://code.visualstudio.com/docs/agent-customization/tool-sets:
 * `{ "name": { "tools": [...], "description": "...", "icon": "..." } }`). VS Code itself keeps tool
 * sets in the user profile's prompts folder only (workspace tool sets are an open request there:
 * https://github.com/microsoft/vscode/issues/259183); Sprout reads the workspace's, for both hosts.
 * A workspace file is untrusted, but a set only names tools and a selection only narrows what the
 * servers offer, so the worst a file can do is offer fewer tools. A file that cannot be read or
 * parsed is a note naming it; the other files still count.
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

/** Every set of the workspace's tool-set files (a later file's set of the same name is noted and ignored), with notes. */
export function readToolSets(workspaceFolder: string): { sets: ToolSet[]; notes: string[] } {
  const folder = join(workspaceFolder, TOOL_SET_FOLDER);
  let files: string[];
  try {
    files = readdirSync(folder).filter((f) => f.endsWith(TOOL_SET_SUFFIX)).sort();
  } catch {
    return { sets: [], notes: [] };
  }
  const sets: ToolSet[] = [];
  const notes: string[] = [];
  for (const name of files) {
    const label = `${TOOL_SET_FOLDER}/${name}`;
    let json: unknown;
    try {
      const text = readFileSync(join(folder, name), 'utf8');
      if (text.length > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024} KB`);
      json = JSON.parse(stripJsonComments(text));
    } catch (error) {
      notes.push(`${label}: could not be read (${errorMessage(error)}); its tool sets are ignored.`);
      continue;
    }
    const parsed = parseToolSets(json, label);
    notes.push(...parsed.notes);
    for (const set of parsed.sets) {
      if (sets.some((s) => s.name === set.name)) notes.push(`${label}: tool set ${quotedName(set.name)} is already defined in an earlier file; this one is ignored.`);
      else sets.push(set);
    }
  }
  return { sets, notes };
}
