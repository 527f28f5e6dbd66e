/**
 * Where a CLI run's identity and prompt come from: the session id (stored in the --session file's
 * first event, else derived from the file's path so the same file always maps to the same session),
 * the workspace folder, the per-session state folder for bundled servers, and the prompt (argument,
 * or stdin when omitted or "-").
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '../agent/ports';
import { JsonlTranscriptStore } from '../runtime/jsonlTranscriptStore';
import { UsageError } from './exitCodes';

export function resolveWorkspace(cwdOption: string | undefined, processCwd: string): string {
  const folder = resolve(processCwd, cwdOption ?? '.');
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`--cwd: ${folder} is not a directory. Pass an existing workspace folder.`);
  }
  return folder;
}

export async function sessionIdFor(sessionFile: string | undefined, logger: Logger): Promise<string> {
  if (sessionFile === undefined) return `cli-${randomUUID()}`;
  const records = await new JsonlTranscriptStore(sessionFile, { logger }).load();
  for (const record of records) {
    if (record.event.type === 'session_started' && record.event.sessionId.length > 0) return record.event.sessionId;
  }
  return `cli-${createHash('sha256').update(resolve(sessionFile)).digest('hex').slice(0, 16)}`;
}

/** Bundled servers keep their state per session, outside the workspace. */
export function stateDirFor(sessionId: string): string {
  return join(tmpdir(), 'sprout-agent', sessionId.replace(/[^A-Za-z0-9_-]/g, '_'));
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
