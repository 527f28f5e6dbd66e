/**
 * `search_text`: a regular expression over the workspace's text files (honouring `.gitignore`),
 * optionally filtered by a glob, returning `path:line: text` with a cap on results and line length.
 * Bounded like a listing (files, depth, time), pausing between files, with the pattern matched in
 * linear time (linearRegex.ts), so no tree and no pattern can stall the server.
 */
import { statSync } from 'node:fs';
import { readInWorkspace } from '../common/confinedFs';
import { WALK_MAX_MS, walkFilesYielding, type WalkResult } from '../common/fileWalker';
import { globMatcher } from '../common/glob';
import { linearRegex, type LinearRegex } from '../common/linearRegex';
import { resolveInWorkspace } from '../common/safePath';
import { walkNotes } from './listFiles';

export const SEARCH_DEFAULT_MAX = 200;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 300;
const WALK_LIMIT = 100_000;

export interface SearchTextInput {
  pattern: string;
  path?: string;
  include?: string;
  caseSensitive?: boolean;
  maxResults?: number;
}

/** Files searched between two pauses for the server's other work. */
const FILES_PER_SLICE = 32;

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}...` : line;
}

/** The file's bytes, or undefined for what search skips (not a file, too big, gone, outside, changed). */
function readSafely(rootReal: string, absolute: string): Buffer | undefined {
  try {
    // Listed symlinks point inside; resolve them so the open may refuse any symlink on the last step.
    return readInWorkspace(rootReal, resolveInWorkspace(rootReal, absolute), MAX_FILE_BYTES).buffer;
  } catch {
    return undefined;
  }
}

interface Search {
  regex: LinearRegex;
  max: number;
  hits: string[];
  more: boolean;
}

function searchFile(search: Search, rootReal: string, file: { absolute: string; relative: string }): void {
  const buffer = readSafely(rootReal, file.absolute);
  if (buffer === undefined || buffer.subarray(0, 8192).includes(0)) return;
  const lines = buffer.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!search.regex.test(lines[i] ?? '')) continue;
    if (search.hits.length >= search.max) {
      search.more = true;
      return;
    }
    search.hits.push(`${file.relative}:${i + 1}: ${clip(lines[i] ?? '')}`);
  }
}

export async function searchWorkspaceText(rootReal: string, input: SearchTextInput): Promise<string> {
  const search: Search = { regex: linearRegex(input.pattern, input.caseSensitive ?? true), max: input.maxResults ?? SEARCH_DEFAULT_MAX, hits: [], more: false };
  const start = resolveInWorkspace(rootReal, input.path ?? '.');
  const include = input.include ? globMatcher(input.include) : () => true;
  const isDir = statSync(start, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const began = Date.now();
  const walk: WalkResult = isDir
    ? await walkFilesYielding({ start, rootReal, maxEntries: WALK_LIMIT, maxMs: WALK_MAX_MS })
    : { files: [{ absolute: start, relative: start.slice(rootReal.length + 1).split('\\').join('/') }], truncated: false, tooDeep: 0 };
  let searched = 0;
  let outOfTime = false;
  for (const file of walk.files) {
    if (!include(file.relative)) continue;
    if (++searched % FILES_PER_SLICE === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      outOfTime = Date.now() - began > WALK_MAX_MS;
    }
    if (outOfTime) break;
    searchFile(search, rootReal, file);
    if (search.more) break;
  }
  const notes = [...walkNotes(walk, WALK_LIMIT), ...(outOfTime ? [`[search stopped after ${WALK_MAX_MS / 1000} s; narrow the path or the include glob]`] : [])];
  if (search.more) notes.unshift(`[stopped at ${search.max} matches; narrow the search or raise maxResults]`);
  if (search.hits.length === 0) return [`no matches for /${input.pattern}/`, ...notes].join('\n');
  return [...search.hits, ...notes].join('\n');
}
