/**
 * Reads and writes inside the workspace that a symlink swapped in after the path check cannot redirect
 * (the time-of-check/time-of-use gap). safePath resolves and checks a real path; these functions then
 * make sure the file actually opened is that one:
 *
 * - reads open with O_NOFOLLOW (a last component that became a symlink fails) and O_NONBLOCK (a FIFO
 *   cannot hang the server), then ask the kernel where the descriptor really points
 *   (`/proc/self/fd/N`) and refuse anything outside the root before a byte is read;
 * - writes never open the target: they create a fresh, randomly named temp file with O_EXCL|O_NOFOLLOW
 *   in the checked directory, verify through `/proc/self/fd` that it landed in exactly that directory,
 *   write it, and `rename` it over the target. A rename replaces a symlink at the target rather than
 *   following it, and breaks hard links rather than writing through them; a directory swapped between
 *   the check and the rename makes the rename miss (the random temp name exists only in the real one).
 *
 * Limits, where Node's API cannot close the gap (it has no openat/renameat): without `/proc` (macOS,
 * Windows) the descriptor is checked by re-resolving the path and comparing inodes, which narrows the
 * window but cannot close it for a parent directory swapped and swapped back in between; a missing
 * parent folder swapped for a symlink while it is being created can leave one empty folder outside
 * (never a file: the temp file is verified before anything is written); on Windows O_NOFOLLOW does
 * not exist, so only the path re-check applies.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { displayPath, isInside, OutsideWorkspaceError } from './safePath';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

let procFds: boolean | undefined;
function kernelKnowsFdPaths(): boolean {
  procFds ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return procFds;
}

/** The path changed under us between the check and the open; nothing was read or written. */
export class PathChangedError extends Error {
  constructor(shown: string) {
    super(`${shown} changed while it was being opened (a symbolic link appeared on the way); nothing was read or written. Try again.`);
    this.name = 'PathChangedError';
  }
}

/** Where an open descriptor really points, per the kernel; undefined where the system cannot say. */
function pathOfFd(fd: number): string | undefined {
  if (!kernelKnowsFdPaths()) return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function openNoFollow(path: string, flags: number, shown: string, mode?: number): number {
  try {
    return openSync(path, flags | NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new PathChangedError(shown);
    throw error;
  }
}

/** Without /proc: the path must still resolve to itself and name the very inode we hold open. */
function sameFileByPath(fd: number, path: string): boolean {
  try {
    const held = fstatSync(fd);
    const now = statSync(path);
    return realpathSync(path) === path && held.ino === now.ino && held.dev === now.dev;
  } catch {
    return false;
  }
}

export interface WorkspaceRead {
  stat: Stats;
  /** The content; undefined when the entry is not a regular file or is larger than `maxBytes`. */
  buffer?: Buffer;
}

/** Reads `absolute` (a real path inside `rootReal`, from resolveInWorkspace) without following a swapped-in symlink. */
export function readInWorkspace(rootReal: string, absolute: string, maxBytes = Number.POSITIVE_INFINITY): WorkspaceRead {
  const shown = displayPath(rootReal, absolute);
  const fd = openNoFollow(absolute, constants.O_RDONLY | NONBLOCK, shown);
  try {
    const real = pathOfFd(fd);
    if (real !== undefined && !isInside(rootReal, real)) throw new OutsideWorkspaceError(shown, 'a symlink on the way points outside');
    if (real === undefined && !sameFileByPath(fd, absolute)) throw new PathChangedError(shown);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return { stat };
    return { stat, buffer: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(path: string | undefined): void {
  if (path === undefined) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or never made: nothing to clean up.
  }
}

function isRealDirectory(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Creates the missing folders of `dir` one by one, each verified to be where it was meant to be. */
function makeDirsInWorkspace(rootReal: string, dir: string, shown: string): void {
  const missing: string[] = [];
  let current = dir;
  while (!isRealDirectory(current)) {
    if (current === rootReal || dirname(current) === current) throw new PathChangedError(shown);
    missing.unshift(basename(current));
    current = dirname(current);
  }
  if (realpathSync(current) !== current) throw new PathChangedError(shown);
  for (const name of missing) {
    const next = join(current, name);
    try {
      mkdirSync(next);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const entry = lstatSync(next);
    if (!entry.isDirectory() && !entry.isSymbolicLink()) throw new Error(`${displayPath(rootReal, next)} is a file, not a folder; cannot create ${shown}`);
    if (entry.isSymbolicLink() || realpathSync(next) !== next) throw new PathChangedError(shown);
    current = next;
  }
}

function writeAll(fd: number, content: string): void {
  const bytes = Buffer.from(content, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/**
 * Creates or replaces `target` (a real path inside `rootReal`) with `content`, atomically: a verified
 * temp file in the target's directory, renamed over it. An existing file's mode is kept.
 */
export function writeInWorkspace(rootReal: string, target: string, content: string): { existed: boolean } {
  const shown = displayPath(rootReal, target);
  const dir = dirname(target);
  makeDirsInWorkspace(rootReal, dir, shown);
  const before = lstatSync(target, { throwIfNoEntry: false });
  if (before?.isDirectory()) throw new Error(`${shown} is a directory`);
  const temp = join(dir, `.sprout-${randomBytes(8).toString('hex')}.tmp`);
  const fd = openNoFollow(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, shown, 0o666);
  let landed: string | undefined = temp;
  try {
    const real = pathOfFd(fd);
    landed = real ?? temp;
    if (real !== undefined ? real !== temp : !sameFileByPath(fd, temp)) throw new PathChangedError(shown);
    if (before?.isFile()) fchmodSync(fd, before.mode & 0o7777);
    writeAll(fd, content);
  } catch (error) {
    closeSync(fd);
    removeQuietly(landed);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (error) {
    removeQuietly(landed);
    throw error;
  }
  return { existed: before !== undefined };
}
