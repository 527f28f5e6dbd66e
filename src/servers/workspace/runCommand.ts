/**
 * `run_command`: a shell command in the workspace with a timeout. The model sees the exit code and
 * the tail of the output (the end is where errors are); the full output goes to a file under the
 * state directory, named in the result, so nothing is lost to truncation. That folder is private
 * (0700, files 0600): command output often holds tokens and paths.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createPrivateFile, ensurePrivateDir } from '../../platform/privateState';
import { startCommand } from '../common/processGroup';
import { displayPath, resolveInWorkspace } from '../common/safePath';

export const COMMAND_DEFAULT_TIMEOUT_MS = 120_000;
export const COMMAND_MAX_TIMEOUT_MS = 30 * 60_000;
export const OUTPUT_TAIL_CHARS = 16_000;

export interface RunCommandInput {
  command: string;
  cwd?: string;
  timeoutMs?: number;
}

export function tail(text: string, max: number): { text: string; dropped: number } {
  if (text.length <= max) return { text, dropped: 0 };
  return { text: text.slice(text.length - max), dropped: text.length - max };
}

export async function runWorkspaceCommand(rootReal: string, stateDir: string, input: RunCommandInput): Promise<{ text: string; failed: boolean }> {
  const cwd = resolveInWorkspace(rootReal, input.cwd ?? '.');
  const timeoutMs = Math.min(input.timeoutMs ?? COMMAND_DEFAULT_TIMEOUT_MS, COMMAND_MAX_TIMEOUT_MS);
  const outDir = ensurePrivateDir(join(stateDir, 'command-output'));
  // Private folder, private file, and a name nobody can guess ahead of time.
  const logPath = join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(8).toString('hex')}.log`);
  const log = createPrivateFile(logPath);
  let output = '';
  let totalChars = 0;
  const started = Date.now();
  const run = startCommand(input.command, cwd, timeoutMs, (chunk) => {
    log.write(chunk);
    output += chunk;
    totalChars += chunk.length;
    // Keep memory bounded: only the tail is ever shown, the file has the rest.
    if (output.length > OUTPUT_TAIL_CHARS * 4) output = output.slice(output.length - OUTPUT_TAIL_CHARS * 2);
  });
  const result = await run.done;
  await new Promise<void>((resolve) => log.end(resolve));
  const shownTail = tail(output, OUTPUT_TAIL_CHARS);
  const status = result.timedOut
    ? `timed out after ${timeoutMs} ms (process group killed)`
    : result.exitCode === null
      ? `killed by ${result.signal ?? 'a signal'}`
      : `exit code ${result.exitCode}`;
  const header = `$ ${input.command}\n(cwd ${displayPath(rootReal, cwd)}; ${status}; ${Date.now() - started} ms)`;
  const cut = totalChars > OUTPUT_TAIL_CHARS ? `[output truncated: showing the last ${OUTPUT_TAIL_CHARS} of ${totalChars} characters]\n` : '';
  const body = shownTail.text === '' ? '(no output)' : shownTail.text;
  return { text: `${header}\n${cut}${body}\nfull output: ${logPath}`, failed: result.timedOut || result.exitCode !== 0 };
}
