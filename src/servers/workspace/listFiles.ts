/**
 * `list_files`: the workspace's files matching a glob, as relative paths, honouring `.gitignore`.
 */
import { statSync } from 'node:fs';
import { walkFiles } from '../common/fileWalker';
import { globMatcher } from '../common/glob';
import { displayPath, resolveInWorkspace } from '../common/safePath';

export const LIST_DEFAULT_MAX = 1000;
/** Bound on files visited, so a huge tree cannot stall the server. */
const WALK_LIMIT = 200_000;

export interface ListFilesInput {
  pattern?: string;
  path?: string;
  maxResults?: number;
}

export function listWorkspaceFiles(rootReal: string, input: ListFilesInput): string {
  const start = resolveInWorkspace(rootReal, input.path ?? '.');
  if (!statSync(start, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`not a directory: ${displayPath(rootReal, start)}`);
  const matches = globMatcher(input.pattern ?? '**');
  const max = input.maxResults ?? LIST_DEFAULT_MAX;
  const { files, truncated } = walkFiles({ start, rootReal, maxEntries: WALK_LIMIT });
  const hits = files.filter((f) => matches(f.relative)).map((f) => f.relative);
  const shown = hits.slice(0, max);
  const notes: string[] = [];
  if (hits.length > max) notes.push(`[${hits.length - max} more not shown; narrow the pattern or raise maxResults]`);
  if (truncated) notes.push(`[walk stopped after ${WALK_LIMIT} files]`);
  if (shown.length === 0) return `no files match "${input.pattern ?? '**'}"${notes.length ? `\n${notes.join('\n')}` : ''}`;
  return [...shown, ...notes].join('\n');
}
