/**
 * Where Sprout keeps state that may hold secrets (full command output, todo lists, test results): a
 * per-user folder that only the user can enter. `$XDG_STATE_HOME/sprout-agent` (else
 * `~/.local/state/sprout-agent`; `%LOCALAPPDATA%\sprout-agent` on Windows), or a folder the host
 * passes (the extension's own storage). Folders are created 0700 and checked to be real folders owned
 * by this user, so a folder another user prepared (the old shared `/tmp/sprout-agent` problem) is
 * refused rather than used; the state root itself is checked the same way (privateStateDir), so a
 * root that is a symlink does not lead the whole tree elsewhere. Files are created 0600 and never
 * through a symlink, and a file that exists is opened without following one and tightened to 0600
 * (openPrivateFile, for transcripts).
 */
import { chmodSync, closeSync, constants, createWriteStream, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, renameSync, writeFileSync, type WriteStream } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

export type StateEnv = Readonly<Record<string, string | undefined>>;

/** The per-user state root: `<XDG_STATE_HOME or ~/.local/state>/sprout-agent`. */
export function stateHome(env: StateEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'sprout-agent');
  const localAppData = env.LOCALAPPDATA;
  if (platform === 'win32' && localAppData !== undefined && isAbsolute(localAppData)) return join(localAppData, 'sprout-agent');
  return join(home, '.local', 'state', 'sprout-agent');
}

/** A state folder or file Sprout will not use; the message says which, why, and what to do. */
export class UnsafeStateDirError extends Error {
  constructor(path: string, why: string, what = 'state folder') {
    super(`${what} ${path} ${why}; refusing to keep private state there. Remove it, or keep the state elsewhere (XDG_STATE_HOME, or another file or --state-dir).`);
    this.name = 'UnsafeStateDirError';
  }
}

/** Creates `path` (and missing parents) 0700, and makes sure it is a folder of ours that only we can enter. */
export function ensurePrivateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) throw new UnsafeStateDirError(path, 'is a symbolic link');
  if (!stat.isDirectory()) throw new UnsafeStateDirError(path, 'is not a folder');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new UnsafeStateDirError(path, `belongs to another user (uid ${stat.uid})`);
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
  return path;
}

/** `<state root>/<parts...>`, each folder from the root down created or checked as by ensurePrivateDir. */
export function privateStateDir(env: StateEnv, ...parts: string[]): string {
  let dir = ensurePrivateDir(stateHome(env));
  for (const part of parts) dir = ensurePrivateDir(join(dir, part));
  return dir;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Opens `path` (created 0600 with O_CREAT in `flags`) without following a symlink at its last step, as
 * a regular file of this user's, tightened to 0600 if it was looser; the caller closes the descriptor.
 * A FIFO cannot hang the open (O_NONBLOCK) and is refused like a link.
 */
export function openPrivateFile(path: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(path, flags | NOFOLLOW | NONBLOCK, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafeStateDirError(path, 'is a symbolic link', 'file');
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnsafeStateDirError(path, 'is not a regular file', 'file');
    if (NOFOLLOW === 0 && lstatSync(path).isSymbolicLink()) throw new UnsafeStateDirError(path, 'is a symbolic link', 'file');
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) throw new UnsafeStateDirError(path, `belongs to another user (uid ${stat.uid})`, 'file');
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A new file only the user can read; fails if anything (a symlink included) already has the name. */
export function createPrivateFile(path: string): WriteStream {
  return createWriteStream(path, { flags: 'wx', mode: 0o600 });
}

/**
 * Replaces `path` with `text`, readable by the user only, in a private folder (created as by
 * ensurePrivateDir): written whole to a temp file, then renamed, so a crash never leaves half a file.
 */
export function writePrivateFileAtomic(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}
