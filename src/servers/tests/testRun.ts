/**
 * One run of the workspace's test command: output captured (bounded), parsed into counts and failing
 * tests, with the command, exit code, duration and the fingerprint of the state it tested.
 */
import { startCommand, type CommandRun } from '../shared/processGroup';
import { parseTestOutput } from './parseTestOutput';
import { type ParsedTestReport } from './testReport';

const KEEP_OUTPUT_CHARS = 200_000;

export interface TestRunResult {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  finishedAt: number;
  fingerprint: string;
  report: ParsedTestReport | undefined;
  /** The last lines of the output, shown when the format was not understood. */
  outputTail: string;
}

export function isGreen(result: TestRunResult): boolean {
  return result.exitCode === 0 && !result.timedOut && (result.report?.failed ?? 0) === 0;
}

export function tailLines(output: string, maxLines: number, maxChars: number): string {
  const lines = output.trimEnd().split('\n');
  const text = lines.slice(-maxLines).join('\n');
  return text.length > maxChars ? text.slice(text.length - maxChars) : text;
}

export interface StartedTestRun {
  command: CommandRun;
  result: Promise<TestRunResult>;
}

export function startTestRun(root: string, command: string, fingerprint: string, timeoutMs: number): StartedTestRun {
  let output = '';
  const started = Date.now();
  const run = startCommand(command, root, timeoutMs, (chunk) => {
    output += chunk;
    if (output.length > KEEP_OUTPUT_CHARS * 2) output = output.slice(output.length - KEEP_OUTPUT_CHARS);
  });
  const result = run.done.then((done) => ({
    command,
    exitCode: done.exitCode,
    timedOut: done.timedOut,
    durationMs: Date.now() - started,
    finishedAt: Date.now(),
    fingerprint,
    report: parseTestOutput(output),
    outputTail: tailLines(output, 40, 4000),
  }));
  return { command: run, result };
}
