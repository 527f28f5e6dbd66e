/**
 * Where a host finds other agents' hook files and how it reads one: shared by the CLI (which stops on a
 * file it cannot read) and the editor (which names it in the Hooks view and runs the rest). The file
 * system comes in as a port, so this layer stays free of Node (docs/hooks.md#hooks-from-other-agents-files).
 */
import type { HookAllowlist } from '../agent/settings';
import type { AgentFormat } from './agentFormat';
import type { CommandHookSource } from './commandHookHost';
import { HookConfigError } from './hookConfig';
import { parseHookSource, type SOURCE_FORMAT_IDS, sourceName } from './hookSources';

export type SourceFormatId = (typeof SOURCE_FORMAT_IDS)[number];
export type HookFileScope = 'workspace' | 'user';

/** What discovery needs of the file system (node:fs in both hosts). */
export interface HookFileSystem {
  exists(path: string): boolean;
  /** The names in a folder. */
  list(folder: string): string[];
  read(path: string): string;
}

/** One file read: its source when it has commands that run, what it does not run, and its exact text (for the consent's hash). */
export interface HookFileRead {
  file: string;
  source: CommandHookSource | undefined;
  skipped: string[];
  text: string;
}

/** The environment variable each agent gives its hooks for the project folder, which their scripts use. */
const PROJECT_DIR_VARS: Partial<Record<SourceFormatId, readonly string[]>> = {
  claude: ['CLAUDE_PROJECT_DIR'],
  gemini: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
};

export function projectDirVars(format: AgentFormat, workspaceFolder: string): Record<string, string> {
  return Object.fromEntries((PROJECT_DIR_VARS[format.id as SourceFormatId] ?? []).map((name) => [name, workspaceFolder]));
}

function joinPath(root: string, relative: string): string {
  return relative === '' ? root : `${root.replace(/[\\/]+$/, '')}/${relative}`;
}

/** The folder part of a relative path (`.github/hooks/x.json` is `.github/hooks`). */
function folderOf(relative: string): string {
  const cut = relative.lastIndexOf('/');
  return cut < 0 ? '' : relative.slice(0, cut);
}

/** A format's files under `root`, relative to it: the listed ones that exist, or for Copilot every `*.json` of its hooks folder. */
export function hookFilesOf(format: AgentFormat, root: string, scope: HookFileScope, fs: HookFileSystem): string[] {
  const listed = scope === 'user' ? format.config.userFiles : format.config.workspaceFiles;
  if (format.id !== 'copilot') return listed.filter((file) => fs.exists(joinPath(root, file)));
  const folder = folderOf(listed[0] ?? '');
  if (!fs.exists(joinPath(root, folder))) return [];
  return fs
    .list(joinPath(root, folder))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `${folder}/${name}`);
}

/** The file as the user knows it: relative to the workspace, or under `~/`. */
export function shownFile(relative: string, scope: HookFileScope): string {
  return scope === 'user' ? `~/${relative}` : relative;
}

/** The file itself cannot be read (permissions, a folder in its place), as opposed to read but not understood. */
export class HookFileUnreadable extends HookConfigError {}

/** Reads one file strictly; throws HookConfigError naming it for anything it cannot read. */
export function readHookFile(format: AgentFormat, root: string, relative: string, scope: HookFileScope, fs: HookFileSystem): HookFileRead {
  const file = shownFile(relative, scope);
  let text: string;
  try {
    text = fs.read(joinPath(root, relative));
  } catch (error) {
    throw new HookFileUnreadable(`${file}: cannot be read (${(error as Error).message}).`);
  }
  const parsed = parseHookSource(format, text, file);
  const source = parsed.hooks.length === 0 ? undefined : { name: sourceName(relative, scope), file, format, hooks: parsed.hooks };
  return { file, source, skipped: parsed.skipped, text };
}

/** One line per command, as a consent or a notice shows it: `Stop: ./check.sh`, with its matcher if it has one. */
export function commandLines(source: CommandHookSource): string[] {
  return source.hooks.map((h) => `${h.event}${h.matcher !== undefined && h.matcher !== '' ? ` (${h.matcher})` : ''}: ${h.command}`);
}

/**
 * The allowlist with the hook files' servers on it: a file runs because the user opted in to it (the
 * CLI's --agent-hooks, the editor's consent), not because `sprout.hooks.servers` names it.
 */
export function allowSources(allowlist: HookAllowlist, sources: readonly CommandHookSource[]): HookAllowlist {
  if (allowlist.kind === 'all' || sources.length === 0) return allowlist;
  return { kind: 'names', names: [...allowlist.names, ...sources.map((s) => s.name)] };
}
