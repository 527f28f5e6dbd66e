/**
 * One command of a test run: planned (reporter flags, report file), run in its folder with output
 * captured (bounded), and its report read into counts and failing tests with their verdict
 * (verdict.ts). A monorepo run is several of these (suiteRun.ts); a single-package run is one.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ensurePrivateDir } from '../../platform/privateState';
import { startCommand, type CommandRun } from '../common/processGroup';
import { readReport } from './formats/readReport';
import { readLeftReports } from './leftReports';
import { planRun, type RunPlan } from './runnerPlan';
import type { ParsedTestReport, TestStatus } from './testResult';
import { cannotStart, statusOf } from './verdict';

const KEEP_OUTPUT_CHARS = 400_000;
const TAIL_LINES = 40;
const TAIL_CHARS = 4000;

export function tailLines(output: string, maxLines: number, maxChars: number): string {
  const lines = output.trimEnd().split('\n');
  const text = lines.slice(-maxLines).join('\n');
  return text.length > maxChars ? text.slice(text.length - maxChars) : text;
}

export function outputTail(output: string): string {
  return tailLines(output, TAIL_LINES, TAIL_CHARS);
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

/** The report the user's own command named: this run's only (written since it started), and left in place. */
function readOwn(file: string, sinceMs: number): string | undefined {
  try {
    return statSync(file).mtimeMs >= sinceMs ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** What one command did, read. */
export interface CommandOutcome {
  plan: RunPlan;
  exitCode: number | null;
  timedOut: boolean;
  output: string;
  report: ParsedTestReport | undefined;
  status: TestStatus;
  problem?: string;
  durationMs: number;
}

export interface StartedCommand {
  run: CommandRun;
  outcome: Promise<CommandOutcome>;
}

export interface CommandSpec {
  /** Absolute folder the command runs in (the root, or a package's folder). */
  cwd: string;
  command: string;
  timeoutMs: number;
  /** Where report files go (the state dir's `reports` folder): never inside the workspace. */
  reportDir: string;
  /** Folders whose `node_modules/.bin` go first on PATH, as a package manager does for a script. */
  binDirs?: string[];
  /** Reads the output itself (a monorepo's prefixed text); the runner's report otherwise. */
  read?: (plan: RunPlan, output: string, report: string | undefined) => ParsedTestReport | undefined;
}

let runCounter = 0;

function pathWithBins(binDirs: readonly string[] | undefined): Record<string, string> {
  if (!binDirs || binDirs.length === 0) return {};
  return { PATH: [...binDirs.map((d) => join(d, 'node_modules', '.bin')), process.env.PATH ?? ''].join(delimiter) };
}

export function startCommandRun(spec: CommandSpec): StartedCommand {
  // Reports hold test output, which can hold secrets: a folder only the user can enter.
  ensurePrivateDir(spec.reportDir);
  const plan = planRun(spec.command, spec.cwd, join(spec.reportDir, `run-${process.pid}-${++runCounter}.report`));
  if (plan.reportFile && !plan.ownReport) rmSync(plan.reportFile, { force: true });
  let output = '';
  // File times can be a little coarser than the clock: a second's grace still excludes an earlier run's report.
  const startedAt = Date.now();
  const since = startedAt - 1000;
  const run = startCommand(
    plan.shell,
    spec.cwd,
    spec.timeoutMs,
    (chunk) => {
      output += chunk;
      if (output.length > KEEP_OUTPUT_CHARS * 2) output = output.slice(output.length - KEEP_OUTPUT_CHARS);
    },
    { ...plan.env, ...pathWithBins(spec.binDirs) },
  );
  const outcome = run.done.then((done): CommandOutcome => {
    const reportText = plan.ownReport && plan.reportFile ? readOwn(plan.reportFile, since) : readAndRemove(plan.reportFile);
    // A build tool's reports (Surefire, Gradle) are read when the runner wrote none the server asked for.
    const left = spec.read || reportText !== undefined ? undefined : readLeftReports(plan.command, spec.cwd, since);
    const report = spec.read ? spec.read(plan, output, reportText) : (left ?? readReport({ runner: plan.runner, output, report: reportText, root: spec.cwd }));
    const problem = cannotStart(done.exitCode, output, report);
    return {
      plan,
      exitCode: done.exitCode,
      timedOut: done.timedOut,
      output,
      report,
      status: statusOf(done.exitCode, done.timedOut, report, problem),
      ...(problem !== undefined ? { problem } : {}),
      durationMs: Date.now() - startedAt,
    };
  });
  return { run, outcome };
}
