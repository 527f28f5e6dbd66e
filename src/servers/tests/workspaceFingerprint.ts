/**
 * A cheap fingerprint of the workspace's state, so a test result can be called fresh or stale without
 * rerunning the suite. In a git repository: HEAD, `git status` and a hash of `git diff HEAD`, plus the
 * sizes and mtimes of untracked files. Elsewhere: every visible file's path, size and mtime (honouring
 * .gitignore, skipping node_modules and .git, bounded). Must be fast: `_Stop` has a tight budget.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { walkFiles } from '../common/fileWalker';

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

async function gitFingerprint(root: string): Promise<string | undefined> {
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
  const hash = createHash('sha256').update(`git\n${head ?? 'no-head'}\n${status}\n`).update(diff ?? 'no-diff');
  // Untracked files are in the status by name only; their contents can change without a diff.
  const untracked = status.split('\0').filter((e) => e.startsWith('?? ')).slice(0, MAX_FILES);
  for (const entry of untracked) hash.update(`${statLine(join(root, entry.slice(3)), entry)}\n`);
  return `git:${hash.digest('hex')}`;
}

function treeFingerprint(root: string): string {
  const { files, truncated } = walkFiles({ start: root, rootReal: root, maxEntries: MAX_FILES });
  const hash = createHash('sha256').update(`tree\n${truncated}\n`);
  for (const file of files) hash.update(`${statLine(file.absolute, file.relative)}\n`);
  return `tree:${hash.digest('hex')}`;
}

/** `rootReal` must be the real path of the workspace root. */
export async function workspaceFingerprint(rootReal: string): Promise<string> {
  return (await gitFingerprint(rootReal)) ?? treeFingerprint(rootReal);
}
