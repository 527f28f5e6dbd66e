/**
 * One run of the workspace's test command: planned (reporter flags, report file), output captured
 * (bounded), the report read and parsed into counts and failing tests, and the verdict: `passed`
 * only on exit code 0 with no failure, `failed` when tests failed, `error` when the command failed
 * without failing tests (a build error, a missing tool), `timeout` when it was killed for time.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../platform/privateState';
import { startCommand, type CommandRun } from '../common/processGroup';
import { readReport } from './formats/readReport';
import { planRun } from './runnerPlan';
import { capFailures, type ParsedTestReport, type TestRunResult, type TestStatus } from './testResult';

const KEEP_OUTPUT_CHARS = 400_000;
const TAIL_LINES = 40;
const TAIL_CHARS = 4000;

export function isGreen(result: TestRunResult): boolean {
  return result.status === 'passed';
}

export function tailLines(output: string, maxLines: number, maxChars: number): string {
  const lines = output.trimEnd().split('\n');
  const text = lines.slice(-maxLines).join('\n');
  return text.length > maxChars ? text.slice(text.length - maxChars) : text;
}

function statusOf(exitCode: number | null, timedOut: boolean, report: ParsedTestReport | undefined): TestStatus {
  if (timedOut) return 'timeout';
  if ((report?.failed ?? 0) > 0) return 'failed';
  return exitCode === 0 ? 'passed' : 'error';
}

function readAndRemove(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

export interface StartedTestRun {
  command: CommandRun;
  startedAt: number;
  result: Promise<TestRunResult>;
}

export interface TestRunOptions {
  root: string;
  command: string;
  fingerprint: string;
  timeoutMs: number;
  /** Where report files go (the state dir's `reports` folder): never inside the workspace. */
  reportDir: string;
  /** The workspace's state right after the run, to tell whether the suite itself wrote files. */
  fingerprintAfter?: () => Promise<string>;
}

let runCounter = 0;

export function startTestRun(options: TestRunOptions): StartedTestRun {
  // Reports hold test output, which can hold secrets: a folder only the user can enter.
  ensurePrivateDir(options.reportDir);
  const plan = planRun(options.command, options.root, join(options.reportDir, `run-${process.pid}-${++runCounter}.report`));
  if (plan.reportFile) rmSync(plan.reportFile, { force: true });
  let output = '';
  const startedAt = Date.now();
  const run = startCommand(
    plan.shell,
    options.root,
    options.timeoutMs,
    (chunk) => {
      output += chunk;
      if (output.length > KEEP_OUTPUT_CHARS * 2) output = output.slice(output.length - KEEP_OUTPUT_CHARS);
    },
    plan.env,
  );
  const result = run.done.then(async (done): Promise<TestRunResult> => {
    const finishedAt = Date.now();
    const report = readReport({ runner: plan.runner, output, report: readAndRemove(plan.reportFile), root: options.root });
    const capped = capFailures(report?.failures ?? []);
    const endFingerprint = await options.fingerprintAfter?.().catch(() => undefined);
    return {
      status: statusOf(done.exitCode, done.timedOut, report),
      passed: report?.passed ?? 0,
      failed: report?.failed ?? 0,
      skipped: report?.skipped ?? 0,
      command: options.command,
      exitCode: done.exitCode,
      durationMs: finishedAt - startedAt,
      failures: capped.failures,
      omittedFailures: capped.omitted,
      ...(report ? { format: report.format } : {}),
      finishedAt,
      fingerprint: options.fingerprint,
      ...(endFingerprint ? { endFingerprint } : {}),
      outputTail: tailLines(output, TAIL_LINES, TAIL_CHARS),
    };
  });
  return { command: run, startedAt, result };
}
