/**
 * Where a CLI run's identity and prompt come from: the session id (stored in the --session file's
 * first event, else a new random one that the file then keeps), the workspace folder, the private
 * state folder for bundled servers, and the prompt (argument, or stdin when omitted or "-").
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from '../agent/ports';
import { JsonlTranscriptStore } from '../runtime/jsonlTranscriptStore';
import { ensurePrivateDir, stateHome, type StateEnv } from '../platform/privateState';
import { UsageError } from './exitCodes';

export function resolveWorkspace(cwdOption: string | undefined, processCwd: string): string {
  const folder = resolve(processCwd, cwdOption ?? '.');
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`--cwd: ${folder} is not a directory. Pass an existing workspace folder.`);
  }
  return folder;
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
  const parent = ensurePrivateDir(join(stateHome(env), kind));
  if (!resumable) pruneOlderThan(parent, now - RUN_STATE_MAX_AGE_MS);
  return ensurePrivateDir(join(parent, sessionId.replace(/[^A-Za-z0-9_-]/g, '_')));
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
