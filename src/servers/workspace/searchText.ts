/**
 * `search_text`: a regular expression over the workspace's text files (honouring `.gitignore`),
 * optionally filtered by a glob, returning `path:line: text` with a cap on results and line length.
 */
import { statSync } from 'node:fs';
import { readInWorkspace } from '../common/confinedFs';
import { walkFiles } from '../common/fileWalker';
import { globMatcher } from '../common/glob';
import { resolveInWorkspace } from '../common/safePath';
import { errorMessage } from '../../agent/errorMessage';

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

function compile(pattern: string, caseSensitive: boolean): RegExp {
  try {
    return new RegExp(pattern, caseSensitive ? '' : 'i');
  } catch (error) {
    throw new Error(`invalid regular expression "${pattern}": ${errorMessage(error)}`, { cause: error });
  }
}

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

export function searchWorkspaceText(rootReal: string, input: SearchTextInput): string {
  const regex = compile(input.pattern, input.caseSensitive ?? true);
  const start = resolveInWorkspace(rootReal, input.path ?? '.');
  const include = input.include ? globMatcher(input.include) : () => true;
  const max = input.maxResults ?? SEARCH_DEFAULT_MAX;
  const isDir = statSync(start, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const files = isDir
    ? walkFiles({ start, rootReal, maxEntries: WALK_LIMIT }).files
    : [{ absolute: start, relative: start.slice(rootReal.length + 1).split('\\').join('/') }];
  const hits: string[] = [];
  let more = false;
  for (const file of files) {
    if (!include(file.relative)) continue;
    const buffer = readSafely(rootReal, file.absolute);
    if (buffer === undefined || buffer.subarray(0, 8192).includes(0)) continue;
    const lines = buffer.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i] ?? '')) continue;
      if (hits.length >= max) {
        more = true;
        break;
      }
      hits.push(`${file.relative}:${i + 1}: ${clip(lines[i] ?? '')}`);
    }
    if (more) break;
  }
  if (hits.length === 0) return `no matches for /${input.pattern}/`;
  return more ? `${hits.join('\n')}\n[stopped at ${max} matches; narrow the search or raise maxResults]` : hits.join('\n');
}
