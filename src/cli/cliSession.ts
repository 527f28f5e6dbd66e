/**
 * Where a CLI run's identity and prompt come from: the session id (stored in the --session file's
 * first event, else a new random one that the file then keeps), the workspace folder, the private
 * state folder for bundled servers, and the prompt (argument, or stdin when omitted or "-").
 */
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Logger } from '../agent/ports';
import { JsonlTranscriptStore } from '../runtime/jsonlTranscriptStore';
import { privateStateDir, type StateEnv } from '../platform/privateState';
import { isInside, OutsideWorkspaceError, resolveInWorkspace } from '../servers/common/safePath';
import { UsageError } from './exitCodes';

export function resolveWorkspace(cwdOption: string | undefined, processCwd: string): string {
  const folder = resolve(processCwd, cwdOption ?? '.');
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`--cwd: ${folder} is not a directory. Pass an existing workspace folder.`);
  }
  return folder;
}

/**
 * The --session file. A transcript holds the whole conversation, and a repository can ship the path the
 * README suggests (`.sprout/session.jsonl`) as a symlink: so the file itself is never a link (the store
 * opens it without following one), and a path inside the workspace must still be inside it once the
 * links of its folders are followed. A file the user names outside the workspace is theirs to choose.
 */
export function sessionFileFor(option: string | undefined, processCwd: string, workspaceFolder: string): string | undefined {
  if (option === undefined) return undefined;
  const file = resolve(processCwd, option);
  const entry = lstatSync(file, { throwIfNoEntry: false });
  if (entry?.isSymbolicLink()) {
    throw new UsageError(`--session: ${file} is a symbolic link (to ${readlinkSync(file)}); a transcript is written only to a regular file, never through a link. Remove the link, or name another file.`);
  }
  if (entry !== undefined && !entry.isFile()) throw new UsageError(`--session: ${file} is not a regular file. Name a JSON-lines file (it is created if missing).`);
  const root = realpathSync(workspaceFolder);
  const base = [workspaceFolder, root].find((folder) => isInside(folder, file));
  if (base === undefined) return file;
  try {
    resolveInWorkspace(root, relative(base, file));
  } catch (error) {
    if (!(error instanceof OutsideWorkspaceError)) throw error;
    throw new UsageError(`--session: ${file} is in the workspace, but a symbolic link among its folders leads outside it; a transcript is never written through a link. Remove the link, or name another file.`);
  }
  return file;
}

export async function sessionIdFor(sessionFile: string | undefined, logger: Logger): Promise<string> {
  if (sessionFile !== undefined) {
    const records = await new JsonlTranscriptStore(sessionFile, { logger }).load();
    for (const record of records) {
      if (record.event.type === 'session_started' && record.event.sessionId.length > 0) return record.event.sessionId;
    }
  }
  // Random, never derived from the path: it names the session's private state folder.
  return `cli-${randomUUID()}`;
}

/** A run without --session cannot be resumed: its state folder goes after this long. */
const RUN_STATE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The private folder (0700, under $XDG_STATE_HOME/sprout-agent) where bundled servers keep this run's
 * state: `sessions/<id>` for a --session run (kept, so a resumed session finds its todo list), else
 * `runs/<id>`, where folders older than a week are removed.
 */
export function stateDirFor(sessionId: string, resumable: boolean, env: StateEnv, now = Date.now()): string {
  const kind = resumable ? 'sessions' : 'runs';
  const parent = privateStateDir(env, kind);
  if (!resumable) pruneOlderThan(parent, now - RUN_STATE_MAX_AGE_MS);
  return privateStateDir(env, kind, sessionId.replace(/[^A-Za-z0-9_-]/g, '_'));
}

function pruneOlderThan(parent: string, cutoff: number): void {
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
}

export interface PromptSource {
  isTTY?: boolean;
  setEncoding(encoding: BufferEncoding): unknown;
  [Symbol.asyncIterator](): AsyncIterator<string | Buffer>;
}

export async function readPrompt(argument: string | undefined, stdin: PromptSource, interrupt: AbortSignal): Promise<string> {
  let text = argument;
  if (text === undefined) {
    stdin.setEncoding('utf8');
    const chunks: string[] = [];
    for await (const chunk of stdin) {
      if (interrupt.aborted) break;
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    }
    // `echo "fix it" | sprout-agent` means the prompt "fix it", not "fix it\n".
    text = chunks.join('').replace(/\r?\n$/, '');
  }
  if (text.trim() === '') {
    throw new UsageError('No prompt given. Pass it as an argument, or on stdin (omit the prompt or use "-").');
  }
  return text;
}
