/**
 * Confines paths to the workspace root. Every path a tool receives goes through here: `..` escapes,
 * absolute paths elsewhere and symlinks whose target lies outside are refused with a clear error.
 * Symlinks are checked on the real path of the deepest existing ancestor, so a not-yet-existing file
 * under a symlinked directory that points outside is refused too. Paths are bounded in length and
 * depth before any of that: resolving costs about the cube of the depth, so a 4 KB path of 2,000
 * one-letter folders would otherwise hold the server for minutes.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** PATH_MAX on Linux; longer is no path a file system would take. */
export const MAX_PATH_CHARS = 4096;
/** Folders deep, counted from the root; real projects stay far below (node_modules nests some tens). */
export const MAX_PATH_DEPTH = 128;

/** A path longer or deeper than any real one: refused before it costs anything. */
export class PathTooLongError extends Error {
  constructor(requested: string, why: string) {
    super(`path "${requested.length > 120 ? `${requested.slice(0, 120)}...` : requested}" ${why}; give a shorter path`);
    this.name = 'PathTooLongError';
  }
}

export class OutsideWorkspaceError extends Error {
  constructor(requested: string, why: string) {
    super(`path "${requested}" is outside the workspace (${why}); only paths inside the workspace root are allowed`);
    this.name = 'OutsideWorkspaceError';
  }
}

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realpathOfDeepestExisting(path: string): { real: string; rest: string } {
  let current = path;
  let rest = '';
  for (;;) {
    try {
      const real = realpathSync(current);
      return { real, rest };
    } catch {
      const parent = dirname(current);
      if (parent === current) return { real: current, rest };
      rest = rest === '' ? current.slice(parent.length + 1) : `${current.slice(parent.length + 1)}${sep}${rest}`;
      current = parent;
    }
  }
}

/** The workspace root with symlinks resolved (tools compare real paths against it). */
export function realRoot(root: string): string {
  return realpathSync(root);
}

/** Resolves `requested` (relative to the root, or absolute inside it) to a real absolute path. */
export function resolveInWorkspace(rootReal: string, requested: string): string {
  if (requested.includes('\0')) throw new OutsideWorkspaceError(requested, 'it contains a NUL byte');
  if (requested.length > MAX_PATH_CHARS) throw new PathTooLongError(requested, `is ${requested.length} characters long; the limit is ${MAX_PATH_CHARS}`);
  const lexical = resolve(rootReal, requested);
  if (!isInside(rootReal, lexical)) throw new OutsideWorkspaceError(requested, 'it leaves the root');
  const depth = relative(rootReal, lexical).split(sep).length;
  if (depth > MAX_PATH_DEPTH) throw new PathTooLongError(requested, `is ${depth} folders deep; the limit is ${MAX_PATH_DEPTH}`);
  const { real, rest } = realpathOfDeepestExisting(lexical);
  const full = rest === '' ? real : resolve(real, rest);
  if (!isInside(rootReal, full)) throw new OutsideWorkspaceError(requested, 'a symlink on the way points outside');
  return full;
}

/** The path as the model should see it: relative to the root, with forward slashes. */
export function displayPath(rootReal: string, absolute: string): string {
  const rel = relative(rootReal, absolute);
  return rel === '' ? '.' : rel.split(sep).join('/');
}
