/**
 * Walks the workspace the way a developer sees it: `.gitignore` files (at every level) are honoured,
 * `.git` and `node_modules` are skipped, symlinked directories are not followed (no cycles, no escapes)
 * and symlinked files are listed only when their target is inside the root. Bounded by entries, depth
 * and (optionally) time; walkFilesYielding pauses between folders so a big tree never holds the server.
 */
import { readFileSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside, MAX_PATH_DEPTH } from './safePath';

export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

export interface Rules {
  base: string;
  ig: Ignore;
}

export interface WalkOptions {
  /** Directory to start at (absolute, inside rootReal). */
  start: string;
  rootReal: string;
  /** Stop after this many files; the walk reports whether it was cut. */
  maxEntries: number;
  /** Stop after this long (ms); no limit when omitted. */
  maxMs?: number;
  /** The most parts a listed path may have (default MAX_WALK_DEPTH); deeper folders are not entered. */
  maxDepth?: number;
  /** The clock the time bound reads (tests pass their own). */
  now?: () => number;
}

export interface WalkResult {
  files: WalkedFile[];
  /** The walk stopped before the end (see stoppedBy). */
  truncated: boolean;
  stoppedBy?: 'entries' | 'time';
  /** Folders not entered because the paths inside them would pass maxDepth. */
  tooDeep: number;
}

/** The time bound of every walk a bundled server makes for a tool call or a detection. */
export const WALK_MAX_MS = 20_000;
/** As deep as a path may be (safePath.ts): what lies deeper cannot be named, so it is not listed. */
export const MAX_WALK_DEPTH = MAX_PATH_DEPTH;
/** A `.gitignore` larger than this is no real one: it is read as if absent. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

export interface WalkedFile {
  absolute: string;
  /** Relative to the root, forward slashes. */
  relative: string;
}

/** The `.gitignore` of `dir` (whose root-relative path is `relDir`), if it has one. */
export function loadRules(dir: string, relDir: string): Rules | undefined {
  try {
    const file = join(dir, '.gitignore');
    const stat = statSync(file);
    if (!stat.isFile() || stat.size > MAX_GITIGNORE_BYTES) return undefined;
    const text = readFileSync(file, 'utf8');
    return { base: relDir, ig: ignore().add(text) };
  } catch {
    return undefined;
  }
}

export function ignored(rules: readonly Rules[], relPath: string, isDir: boolean): boolean {
  for (const { base, ig } of rules) {
    const sub = base === '' ? relPath : relPath.slice(base.length + 1);
    if (ig.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

function parentRules(rootReal: string, relStart: string): Rules[] {
  const rules: Rules[] = [];
  const parts = relStart === '' ? [] : relStart.split('/');
  for (let i = 0; i <= parts.length - 1; i++) {
    const relDir = parts.slice(0, i).join('/');
    const found = loadRules(join(rootReal, relDir), relDir);
    if (found) rules.push(found);
  }
  return rules;
}

function fileEntry(entry: Dirent, absolute: string, rootReal: string): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return isInside(rootReal, realpathSync(absolute)) && statSync(absolute).isFile();
  } catch {
    return false;
  }
}

interface WalkState {
  files: WalkedFile[];
  stoppedBy?: 'entries' | 'time';
  tooDeep: number;
  deadline: number;
}

/**
 * The walk itself, one folder per step: yields after each folder read, so a caller may pause between
 * folders (walkFilesYielding) and the walk can stop at its bounds without holding the thread.
 */
function* walkSteps(options: WalkOptions, state: WalkState): Generator<void, void> {
  const relStart = options.start === options.rootReal ? '' : options.start.slice(options.rootReal.length + 1).split('\\').join('/');
  const maxDepth = options.maxDepth ?? MAX_WALK_DEPTH;
  const now = options.now ?? Date.now;
  function* visit(dir: string, relDir: string, depth: number, inherited: readonly Rules[]): Generator<void, boolean> {
    if (now() > state.deadline) {
      state.stoppedBy = 'time';
      return false;
    }
    const own = loadRules(dir, relDir);
    const rules = own ? [...inherited, own] : inherited;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return true;
    }
    yield;
    for (const entry of entries) {
      const absolute = join(dir, entry.name);
      const relative = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED.has(entry.name) || ignored(rules, relative, true)) continue;
        // A folder of depth + 1 parts holds paths of depth + 2: enter it only if those can still be named.
        if (depth + 2 > maxDepth) {
          state.tooDeep += 1;
          continue;
        }
        if (!(yield* visit(absolute, relative, depth + 1, rules))) return false;
      } else if (fileEntry(entry, absolute, options.rootReal) && !ignored(rules, relative, false)) {
        if (state.files.length >= options.maxEntries) {
          state.stoppedBy = 'entries';
          return false;
        }
        state.files.push({ absolute, relative });
      }
    }
    return true;
  }
  const startDepth = relStart === '' ? 0 : relStart.split('/').length;
  yield* visit(options.start, relStart, startDepth, parentRules(options.rootReal, relStart));
}

function newState(options: WalkOptions): WalkState {
  const now = options.now ?? Date.now;
  return { files: [], tooDeep: 0, deadline: options.maxMs === undefined ? Number.POSITIVE_INFINITY : now() + options.maxMs };
}

function result(state: WalkState): WalkResult {
  return { files: state.files, truncated: state.stoppedBy !== undefined, ...(state.stoppedBy ? { stoppedBy: state.stoppedBy } : {}), tooDeep: state.tooDeep };
}

/** Every visible file under `start`, in a stable (sorted) order, in one go. */
export function walkFiles(options: WalkOptions): WalkResult {
  const state = newState(options);
  for (const _ of walkSteps(options, state));
  return result(state);
}

/** How many folders the walk reads before it lets the server's other work (a closing stdin, a cancel) run. */
const FOLDERS_PER_SLICE = 64;

/** The same walk, pausing every few folders so the server stays responsive however big the tree. */
export async function walkFilesYielding(options: WalkOptions): Promise<WalkResult> {
  const state = newState(options);
  let folders = 0;
  for (const _ of walkSteps(options, state)) {
    if (++folders % FOLDERS_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return result(state);
}
