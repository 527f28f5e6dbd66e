/**
 * `list_files`: the workspace's files matching a glob, as relative paths, honouring `.gitignore`. The
 * walk is bounded (files, depth, time) and pauses between folders, so a huge tree cannot stall the server.
 */
import { statSync } from 'node:fs';
import { MAX_WALK_DEPTH, WALK_MAX_MS, walkFilesYielding, type WalkResult } from '../common/fileWalker';
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

/** What the model should know about where a walk stopped short. */
export function walkNotes(walk: WalkResult, limit: number): string[] {
  const notes: string[] = [];
  if (walk.stoppedBy === 'entries') notes.push(`[walk stopped after ${limit} files; narrow the path]`);
  if (walk.stoppedBy === 'time') notes.push(`[walk stopped after ${WALK_MAX_MS / 1000} s; narrow the path]`);
  if (walk.tooDeep > 0) notes.push(`[${walk.tooDeep} folder${walk.tooDeep === 1 ? '' : 's'} not entered: the paths inside would be more than ${MAX_WALK_DEPTH} levels deep]`);
  return notes;
}

export async function listWorkspaceFiles(rootReal: string, input: ListFilesInput): Promise<string> {
  const start = resolveInWorkspace(rootReal, input.path ?? '.');
  if (!statSync(start, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`not a directory: ${displayPath(rootReal, start)}`);
  const matches = globMatcher(input.pattern ?? '**');
  const max = input.maxResults ?? LIST_DEFAULT_MAX;
  const walk = await walkFilesYielding({ start, rootReal, maxEntries: WALK_LIMIT, maxMs: WALK_MAX_MS });
  const hits = walk.files.filter((f) => matches(f.relative)).map((f) => f.relative);
  const shown = hits.slice(0, max);
  const notes: string[] = [];
  if (hits.length > max) notes.push(`[${hits.length - max} more not shown; narrow the pattern or raise maxResults]`);
  notes.push(...walkNotes(walk, WALK_LIMIT));
  if (shown.length === 0) return `no files match "${input.pattern ?? '**'}"${notes.length ? `\n${notes.join('\n')}` : ''}`;
  return [...shown, ...notes].join('\n');
}
