/**
 * Walks the workspace the way a developer sees it: `.gitignore` files (at every level) are honoured,
 * `.git` and `node_modules` are skipped, symlinked directories are not followed (no cycles, no escapes)
 * and symlinked files are listed only when their target is inside the root. Bounded by `maxEntries`.
 */
import { readFileSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from './safePath';

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
}

export interface WalkedFile {
  absolute: string;
  /** Relative to the root, forward slashes. */
  relative: string;
}

/** The `.gitignore` of `dir` (whose root-relative path is `relDir`), if it has one. */
export function loadRules(dir: string, relDir: string): Rules | undefined {
  try {
    const text = readFileSync(join(dir, '.gitignore'), 'utf8');
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

/** Every visible file under `start`, in a stable (sorted) order. */
export function walkFiles(options: WalkOptions): { files: WalkedFile[]; truncated: boolean } {
  const relStart = options.start === options.rootReal ? '' : options.start.slice(options.rootReal.length + 1).split('\\').join('/');
  const files: WalkedFile[] = [];
  const visit = (dir: string, relDir: string, inherited: readonly Rules[]): boolean => {
    const own = loadRules(dir, relDir);
    const rules = own ? [...inherited, own] : inherited;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return true;
    }
    for (const entry of entries) {
      const absolute = join(dir, entry.name);
      const relative = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED.has(entry.name) || ignored(rules, relative, true)) continue;
        if (!visit(absolute, relative, rules)) return false;
      } else if (fileEntry(entry, absolute, options.rootReal) && !ignored(rules, relative, false)) {
        if (files.length >= options.maxEntries) return false;
        files.push({ absolute, relative });
      }
    }
    return true;
  };
  const complete = visit(options.start, relStart, parentRules(options.rootReal, relStart));
  return { files, truncated: !complete };
}
