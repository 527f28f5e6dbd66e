/**
 * A cheap fingerprint of the workspace's state, so a test result can be called fresh or stale without
 * rerunning the suite. In a git repository: HEAD, `git status` and a hash of `git diff HEAD`, plus the
 * sizes and mtimes of untracked files. Elsewhere: every visible file's path, size and mtime (honouring
 * .gitignore, skipping node_modules and .git, bounded). Must be fast: `_Stop` has a tight budget.
 * In a monorepo the same entries also feed one hash per package folder, so the server can tell which
 * packages an edit touched without a second look at the tree.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { WALK_MAX_MS, walkFilesYielding } from '../common/fileWalker';

const MAX_FILES = 20_000;
const GIT_TIMEOUT_MS = 5_000;
const GIT_MAX_BUFFER = 64 * 1024 * 1024;

function git(root: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd: root, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? undefined : stdout),
    );
  });
}

function statLine(path: string, label: string): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${label}\t${stat.size}\t${stat.mtimeMs}` : `${label}\tmissing`;
}

/**
 * Whether each root is a git work tree, asked once per process: the answer rarely changes, asking
 * costs a process per `_Stop`, and one root keeps one kind of fingerprint so results stay comparable.
 */
const insideGit = new Map<string, Promise<boolean>>();

/** Asks git once, synchronously (at server start), so even the first `_Stop` skips that step. */
export function rememberWhetherGit(rootReal: string): void {
  const probe = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: rootReal, timeout: GIT_TIMEOUT_MS, encoding: 'utf8' });
  insideGit.set(rootReal, Promise.resolve(probe.status === 0 && probe.stdout.trim() === 'true'));
}

/** Hashes, one per package folder plus one (`rest`) for every file in none, fed entry by entry. */
class PartHashes {
  private readonly dirs: string[];
  private readonly hashes = new Map<string, ReturnType<typeof createHash>>();

  constructor(dirs: readonly string[], private readonly seed: string) {
    // Deepest first, so a nested package's files are not its parent's.
    this.dirs = [...dirs].filter((d) => d !== '').sort((a, b) => b.length - a.length);
  }

  add(path: string, entry: string | Buffer): void {
    const dir = this.dirs.find((d) => path.startsWith(`${d}/`)) ?? REST;
    let hash = this.hashes.get(dir);
    if (!hash) this.hashes.set(dir, (hash = createHash('sha256').update(this.seed)));
    hash.update(entry);
  }

  digest(kind: string, dirs: readonly string[]): Map<string, string> {
    const parts = new Map<string, string>();
    for (const dir of [...dirs.filter((d) => d !== ''), REST]) parts.set(dir, `${kind}:${this.hashes.get(dir)?.digest('hex') ?? 'empty'}`);
    return parts;
  }
}

/** The key of the files that belong to no package (root manifests, configs, lockfiles). */
export const REST = '.';

export interface WorkspaceState {
  /** The whole workspace's fingerprint. */
  fingerprint: string;
  /** One fingerprint per package folder given, and `REST` for the files of none. */
  parts: Map<string, string>;
}

/** `git diff` output cut at each file's header, so each file's change lands in its package's hash. */
function diffByFile(diff: string): { path: string; text: string }[] {
  const starts = [...diff.matchAll(/^diff --git a\/(.+?) b\//gm)];
  return starts.map((m, i) => ({ path: m[1] ?? '', text: diff.slice(m.index, starts[i + 1]?.index ?? diff.length) }));
}

async function gitState(root: string, dirs: readonly string[]): Promise<WorkspaceState | undefined> {
  let inside = insideGit.get(root);
  if (inside === undefined) {
    inside = git(root, ['rev-parse', '--is-inside-work-tree']).then((out) => out?.trim() === 'true');
    insideGit.set(root, inside);
  }
  if (!(await inside)) return undefined;
  const [head, status, diff] = await Promise.all([
    git(root, ['rev-parse', 'HEAD']),
    git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.']),
    git(root, ['diff', 'HEAD', '--binary', '--', '.']),
  ]);
  if (status === undefined) return undefined;
  const whole = createHash('sha256').update(`git\n${head ?? 'no-head'}\n${status}\n`).update(diff ?? 'no-diff');
  const parts = new PartHashes(dirs, `git\n${head ?? 'no-head'}\n`);
  const entries = status.split('\0').filter((e) => e !== '');
  for (const entry of entries) parts.add(/^.. /.test(entry) ? entry.slice(3) : entry, `${entry}\n`);
  for (const file of diff === undefined ? [] : diffByFile(diff)) parts.add(file.path, file.text);
  if (diff === undefined) parts.add('', 'no-diff');
  // Untracked files are in the status by name only; their contents can change without a diff.
  const untracked = entries.filter((e) => e.startsWith('?? ')).slice(0, MAX_FILES);
  for (const entry of untracked) {
    const line = `${statLine(join(root, entry.slice(3)), entry)}\n`;
    whole.update(line);
    parts.add(entry.slice(3), line);
  }
  return { fingerprint: `git:${whole.digest('hex')}`, parts: parts.digest('git', dirs) };
}

/** Outside git: every visible file's stat, walked within the bounds of any server walk, pausing between folders. */
async function treeState(root: string, dirs: readonly string[]): Promise<WorkspaceState> {
  const { files, truncated } = await walkFilesYielding({ start: root, rootReal: root, maxEntries: MAX_FILES, maxMs: WALK_MAX_MS });
  const hash = createHash('sha256').update(`tree\n${truncated}\n`);
  const parts = new PartHashes(dirs, `tree\n${truncated}\n`);
  for (const file of files) {
    const line = `${statLine(file.absolute, file.relative)}\n`;
    hash.update(line);
    parts.add(file.relative, line);
  }
  return { fingerprint: `tree:${hash.digest('hex')}`, parts: parts.digest('tree', dirs) };
}

/** The workspace's fingerprint and one per package folder in `dirs`; `rootReal` must be the root's real path. */
export async function workspaceState(rootReal: string, dirs: readonly string[] = []): Promise<WorkspaceState> {
  return (await gitState(rootReal, dirs)) ?? treeState(rootReal, dirs);
}

/** `rootReal` must be the real path of the workspace root. */
export async function workspaceFingerprint(rootReal: string): Promise<string> {
  return (await workspaceState(rootReal)).fingerprint;
}
