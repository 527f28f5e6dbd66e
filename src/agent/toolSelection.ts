/**
 * The tool selection: which servers and tools a chat (the editor's tools button) or a run (the CLI's
 * `--tools`) lets the model see and call. It only ever narrows what the servers list: an entry that
 * names nothing adds nothing. Hooks (a bare name starting with `_`) are never selected away, whatever
 * the entries say (docs/hooks.md: they never reach the model and are not the user's to turn off here).
 * Pure rules over the tool list, applied in roundRequest.ts (what is offered) and toolRunner.ts (what
 * may run: a call of a tool turned off is refused with words and does not run), as modes.ts is.
 *
 * An entry is a server's name (`workspace`), a tool's real name (`workspace__read_file`) or the
 * `server/tool` form VS Code's tool sets use (`workspace/read_file`).
 */
import type { ToolInfo } from './messages';
import { isHookName } from './toolNames';
import { quotedName } from './nameText';

export interface ToolSelection {
  /** When present, only the tools these entries name (the CLI's `--tools`, a tool set). */
  only?: readonly string[];
  /** The tools these entries name are off (the editor's picker: what the user unchecked). */
  off?: readonly string[];
}

/** Whether `entry` names `tool` (its server, its real name, or `server/tool`). */
export function entryNames(entry: string, tool: Pick<ToolInfo, 'server' | 'bareName' | 'qualifiedName'>): boolean {
  return entry === tool.server || entry === tool.qualifiedName || entry === `${tool.server}/${tool.bareName}`;
}

function isHookTool(tool: Pick<ToolInfo, 'isHook' | 'bareName'>): boolean {
  return tool.isHook || isHookName(tool.bareName);
}

/** Whether the selection lets the model see and call `tool`; hooks always pass. */
export function selectionAllows(selection: ToolSelection | undefined, tool: ToolInfo): boolean {
  if (selection === undefined || isHookTool(tool)) return true;
  if (selection.only !== undefined && !selection.only.some((e) => entryNames(e, tool))) return false;
  return !(selection.off ?? []).some((e) => entryNames(e, tool));
}

/** The tools the selection leaves, hooks included (they are filtered out of the offer elsewhere). */
export function selectedTools(selection: ToolSelection | undefined, tools: readonly ToolInfo[]): ToolInfo[] {
  return selection === undefined ? [...tools] : tools.filter((t) => selectionAllows(selection, t));
}

/** The `only` entries that name no tool the servers list (a typo, a server not started, a VS Code built-in). */
export function unmatchedEntries(selection: ToolSelection | undefined, tools: readonly ToolInfo[]): string[] {
  const visible = tools.filter((t) => !isHookTool(t));
  return (selection?.only ?? []).filter((e) => !visible.some((t) => entryNames(e, t)));
}

/** The error result of a call of a tool the selection turned off (the tool did not run). */
export function selectionRefusal(toolName: string): string {
  return (
    `Error: ${quotedName(toolName)} was not run: it is turned off for this chat (the tools picker, or --tools). ` +
    'Use the tools you are offered, or ask the user to turn it on.'
  );
}

/** A tool set in VS Code's format (`*.toolsets.jsonc`: `{ "name": { "tools": [...], "description", "icon" } }`). */
export interface ToolSet {
  name: string;
  tools: string[];
  description?: string;
  /** Where it was read, for notes. */
  file: string;
}

/**
 * The sets one tool-set file defines, and what was wrong with it. A set without a `tools` list of
 * strings is skipped with a note naming the file and the set; nothing in the file can widen anything
 * (a set only names tools, and the selection only narrows).
 */
export function parseToolSets(json: unknown, file: string, lineOf: (name: string) => number | undefined = () => undefined): { sets: ToolSet[]; notes: string[] } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { sets: [], notes: [`${file}:1: expected an object of tool sets ({ "name": { "tools": [...] } }); the file is ignored.`] };
  }
  const sets: ToolSet[] = [];
  const notes: string[] = [];
  for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
    const body = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const tools = body.tools;
    if (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')) {
      const line = lineOf(name);
      notes.push(`${file}${line === undefined ? '' : `:${line}`}: tool set ${quotedName(name)} needs "tools": a list of tool names; it is ignored.`);
      continue;
    }
    const description = typeof body.description === 'string' ? { description: body.description } : {};
    sets.push({ name, tools: tools.map((t) => t.trim()).filter((t) => t !== ''), ...description, file });
  }
  return { sets, notes };
}

/**
 * Names as the user gave them (`--tools a,b`): a tool set's name stands for its tools, any other name
 * is an entry as is. Unknown names are not dropped here: the round says which name no server lists.
 */
export function expandToolNames(names: readonly string[], sets: readonly ToolSet[]): string[] {
  const out: string[] = [];
  for (const name of names.map((n) => n.trim()).filter((n) => n !== '')) {
    const set = sets.find((s) => s.name === name);
    for (const entry of set === undefined ? [name] : set.tools) if (!out.includes(entry)) out.push(entry);
  }
  return out;
}
