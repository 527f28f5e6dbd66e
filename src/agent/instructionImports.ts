/**
 * `@path` imports in instruction files (Claude Code's `CLAUDE.md` syntax, which other files borrow): a
 * token `@some/file.md` outside code spans and fences names another file whose text joins the
 * instructions. Pure: the host reads the files the references name (only those inside the workspace)
 * and hands their text back; the decision in instructions.ts expands them, bounded in depth, each
 * file once (a cycle is cut where it closes), and refuses what points outside the workspace.
 */

/** One `@path` reference as written, with its 1-based line in the file. */
export interface ImportReference {
  raw: string;
  line: number;
}

/** Where a reference points: a workspace-relative path, or why it is refused. */
export type ImportTarget = { kind: 'inside'; path: string } | { kind: 'outside'; why: string };

/** Claude Code follows at most five hops of imports; so do we. */
export const IMPORT_MAX_DEPTH = 5;

// `@` at the start of a line or after a space, then a path-like token that names a file (has a dot or a slash).
const REFERENCE = /(?:^|[\s(])@((?:~\/|\.{1,2}\/|\/)?[A-Za-z0-9_.~\-/]*[A-Za-z0-9_-][A-Za-z0-9_./-]*)/g;

/** The `@path` references of a text, skipping fenced blocks and inline code (an example is not an import). */
export function importReferences(text: string): ImportReference[] {
  const found: ImportReference[] = [];
  let fence: string | null = null;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (marker !== null) {
      const mark = marker[1] ?? '';
      if (fence === null) fence = mark;
      else if (mark.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const prose = line.replace(/`[^`]*`/g, ' ');
    for (const match of prose.matchAll(REFERENCE)) {
      const raw = (match[1] ?? '').replace(/[.,;:)]+$/, '');
      if (!raw.includes('/') && !raw.includes('.')) continue;
      found.push({ raw, line: index + 1 });
    }
  }
  return found;
}

/** Resolves `raw` against the importing file's folder; `..` past the root, `~/` and absolute paths are outside. */
export function resolveImport(fromPath: string, raw: string): ImportTarget {
  if (raw.startsWith('~/')) return { kind: 'outside', why: 'a path in the home folder' };
  if (raw.startsWith('/')) return { kind: 'outside', why: 'an absolute path' };
  const cut = fromPath.lastIndexOf('/');
  const parts = cut < 0 ? [] : fromPath.slice(0, cut).split('/');
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return { kind: 'outside', why: 'a path above the workspace root' };
      parts.pop();
    } else parts.push(segment);
  }
  if (parts.length === 0) return { kind: 'outside', why: 'the workspace root itself' };
  return { kind: 'inside', path: parts.join('/') };
}

/**
 * Every workspace path `text`'s imports could reach, given what has been read so far: the host calls
 * this on each file it reads and reads the new targets, until none are new (bounded by `read`'s own
 * size and count limits and by IMPORT_MAX_DEPTH here).
 */
export function importTargets(fromPath: string, text: string): string[] {
  const targets: string[] = [];
  for (const reference of importReferences(text)) {
    const target = resolveImport(fromPath, reference.raw);
    if (target.kind === 'inside' && !targets.includes(target.path)) targets.push(target.path);
  }
  return targets;
}
