/**
 * `run_command`: a shell command in the workspace with a timeout. The model sees the exit code and
 * the tail of the output (the end is where errors are); the full output goes to a file under the
 * state directory, named in the result, so nothing is lost to truncation. That folder is private
 * (0700, files 0600): command output often holds tokens and paths. The editor can run the same call
 * in a terminal the user watches (src/extension/terminal/): it takes the same plan (`commandPlan`:
 * the confined cwd, the timeout, the log file) and gives the same result (`commandResultText`).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createPrivateFile, ensurePrivateDir } from '../../platform/privateState';
import { startCommand } from '../common/processGroup';
import { displayPath, resolveInWorkspace } from '../common/safePath';
import { z } from 'zod';

export const COMMAND_DEFAULT_TIMEOUT_MS = 120_000;
export const COMMAND_MAX_TIMEOUT_MS = 30 * 60_000;
export const OUTPUT_TAIL_CHARS = 16_000;

/** The tool's arguments: the server's input schema, and the editor's terminal reads a call by it too. */
export const runCommandInput = z.object({
  command: z.string().min(1),
  cwd: z.string().optional().describe('Working directory inside the workspace, default the root'),
  timeoutMs: z.number().int().min(1).max(COMMAND_MAX_TIMEOUT_MS).optional().describe(`Default ${COMMAND_DEFAULT_TIMEOUT_MS}`),
});

export type RunCommandInput = z.infer<typeof runCommandInput>;

export function tail(text: string, max: number): { text: string; dropped: number } {
  if (text.length <= max) return { text, dropped: 0 };
  return { text: text.slice(text.length - max), dropped: text.length - max };
}

/** Where and how long a command runs, and the private file its full output goes to. */
export interface CommandPlan {
  command: string;
  /** The working directory, real and inside the workspace (throws otherwise). */
  cwd: string;
  /** The cwd as the result shows it (relative to the root). */
  cwdShown: string;
  timeoutMs: number;
  logPath: string;
}

export function commandPlan(rootReal: string, stateDir: string, input: RunCommandInput): CommandPlan {
  const cwd = resolveInWorkspace(rootReal, input.cwd ?? '.');
  const timeoutMs = Math.min(input.timeoutMs ?? COMMAND_DEFAULT_TIMEOUT_MS, COMMAND_MAX_TIMEOUT_MS);
  const outDir = ensurePrivateDir(join(stateDir, 'command-output'));
  // Private folder, private file, and a name nobody can guess ahead of time.
  const logPath = join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(8).toString('hex')}.log`);
  return { command: input.command, cwd, cwdShown: displayPath(rootReal, cwd), timeoutMs, logPath };
}

/** The output kept in memory: only the tail is ever shown, the log file has the rest. */
export class OutputTail {
  private text = '';
  total = 0;

  add(chunk: string): void {
    this.text += chunk;
    this.total += chunk.length;
    if (this.text.length > OUTPUT_TAIL_CHARS * 4) this.text = this.text.slice(this.text.length - OUTPUT_TAIL_CHARS * 2);
  }

  get shown(): string {
    return tail(this.text, OUTPUT_TAIL_CHARS).text;
  }
}

/** How a command ended, in the words of its result's header. */
export function commandStatus(end: { timedOut: boolean; exitCode: number | null | undefined; signal?: string | null; killedBy?: string }, timeoutMs: number): string {
  if (end.timedOut) return `timed out after ${timeoutMs} ms (${end.killedBy ?? 'process group killed'})`;
  if (end.exitCode === undefined) return 'exit code not reported';
  return end.exitCode === null ? `killed by ${end.signal ?? 'a signal'}` : `exit code ${end.exitCode}`;
}

/** The result text: the command, where and how it ended, the tail of its output and where the rest is. */
export function commandResultText(plan: CommandPlan, status: string, elapsedMs: number, output: OutputTail, where = ''): string {
  const header = `$ ${plan.command}\n(cwd ${plan.cwdShown}; ${status}; ${elapsedMs} ms${where})`;
  const cut = output.total > OUTPUT_TAIL_CHARS ? `[output truncated: showing the last ${OUTPUT_TAIL_CHARS} of ${output.total} characters]\n` : '';
  const shown = output.shown;
  return `${header}\n${cut}${shown === '' ? '(no output)' : shown}\nfull output: ${plan.logPath}`;
}

export async function runWorkspaceCommand(rootReal: string, stateDir: string, input: RunCommandInput): Promise<{ text: string; failed: boolean }> {
  const plan = commandPlan(rootReal, stateDir, input);
  const log = createPrivateFile(plan.logPath);
  const output = new OutputTail();
  const started = Date.now();
  const run = startCommand(plan.command, plan.cwd, plan.timeoutMs, (chunk) => {
    log.write(chunk);
    output.add(chunk);
  });
  const result = await run.done;
  await new Promise<void>((resolve) => log.end(resolve));
  const text = commandResultText(plan, commandStatus(result, plan.timeoutMs), Date.now() - started, output);
  return { text, failed: result.timedOut || result.exitCode !== 0 };
}
