/**
 * One test run of the workspace, whatever its shape: a single command at the root, or (a monorepo's
 * plan) one command per package run in parallel within a CPU budget. Each command's report is read
 * in its own folder and its failures are made root-relative and given their package; the parts are
 * merged into exact totals and one status (verdict.ts), with each package's own result beside them.
 * Packages a narrowed run left out keep their earlier result (`carried`), so the merged result still
 * describes the whole workspace.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readReport } from './formats/readReport';
import { splitByPackage } from './formats/outputSegments';
import { lastCommand, runnerOf } from './runnerPlan';
import type { GroupRun, SuitePlan } from './suitePlan';
import { outputTail, startCommandRun, type CommandOutcome, type StartedCommand } from './testRun';
import { capFailures, type PackageResult, type ParsedTestReport, type TestFailure, type TestRunResult } from './testResult';
import { packageResults, type Part } from './packageResults';
import { mergeStatus } from './verdict';
import type { WorkspaceLayout } from './workspaceLayout';
import { REST } from './workspaceFingerprint';

export interface StartedTestRun {
  kill(): void;
  startedAt: number;
  result: Promise<TestRunResult>;
}

export interface TestRunOptions {
  root: string;
  /** The root command (what the model and the user see). */
  command: string;
  fingerprint: string;
  timeoutMs: number;
  reportDir: string;
  layout?: WorkspaceLayout;
  plan?: SuitePlan;
  /** Earlier results of the packages this run leaves out, with their failures. */
  carried?: { packages: PackageResult[]; failures: TestFailure[] };
  /** Each package's part of the fingerprint when the run started, by folder (`REST`: the files of none). */
  packageFingerprints?: ReadonlyMap<string, string>;
  /** The packages run, when the plan was narrowed to them. */
  checked?: string[];
  /** The workspace's state right after the run, to tell whether the suite itself wrote files. */
  fingerprintAfter?: () => Promise<string>;
}

/** Reads a root command's text package by package when tools prefixed it (pnpm, turbo, lerna, yarn). */
export function segmentedReader(layout: WorkspaceLayout, root: string) {
  return (plan: { runner: Parameters<typeof readReport>[0]['runner'] }, output: string, report: string | undefined): ParsedTestReport | undefined => {
    const whole = readReport({ runner: plan.runner, output, report, root });
    if (report !== undefined && whole) return whole;
    const segments = splitByPackage(output, layout.packages);
    if (!segments) return whole;
    const parts = segments.map((s) => {
      const pkg = s.key ? layout.packages.find((p) => p.name === s.key?.name) : undefined;
      const runner = pkg?.scripts?.test ? runnerOf(lastCommand(pkg.scripts.test)) : 'other';
      const read = readReport({ runner, output: s.text, root: join(root, pkg?.dir ?? '') });
      // The tool's own lines (pnpm's install notes, its "failed in 1 packages") are no test output.
      if (!pkg && read?.uncounted) return undefined;
      return read && pkg ? { ...read, failures: read.failures.map((f) => ({ ...f, file: f.file && !f.file.startsWith('/') ? join(pkg.dir, f.file) : f.file, package: pkg.name })) } : read;
    });
    return mergeReports(parts.filter((p): p is ParsedTestReport => p !== undefined)) ?? whole;
  };
}

function mergeReports(reports: readonly ParsedTestReport[]): ParsedTestReport | undefined {
  if (reports.length === 0) return undefined;
  const sum = (key: 'passed' | 'failed' | 'skipped'): number => reports.reduce((n, r) => n + r[key], 0);
  return {
    format: [...new Set(reports.map((r) => r.format))].join(', '),
    passed: sum('passed'),
    failed: sum('failed'),
    skipped: sum('skipped'),
    failures: reports.flatMap((r) => r.failures),
    ...(reports.some((r) => r.uncounted) ? { uncounted: true as const } : {}),
    units: reports.flatMap((r) => r.units ?? []),
  };
}

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function groupTask(options: TestRunOptions, group: GroupRun, started: StartedCommand[], killed: () => boolean): () => Promise<Part> {
  return async () => {
    if (killed()) return { group, outcome: undefined };
    const cwd = join(options.root, group.dir);
    const command = startCommandRun({ cwd, command: group.command, timeoutMs: options.timeoutMs, reportDir: options.reportDir, binDirs: group.binDirs.map((d) => join(options.root, d)) });
    started.push(command);
    return { group, outcome: await command.outcome };
  };
}

function firstOf<T>(outcomes: readonly (CommandOutcome | undefined)[], pick: (o: CommandOutcome) => T | undefined): T | undefined {
  for (const o of outcomes) {
    const value = o && pick(o);
    if (value !== undefined) return value;
  }
  return undefined;
}

export function startTestRun(options: TestRunOptions): StartedTestRun {
  const startedAt = Date.now();
  const started: StartedCommand[] = [];
  let killed = false;
  const plan = options.plan ?? { kind: 'whole' as const };
  const groups: GroupRun[] = plan.kind === 'packages' ? plan.runs : [{ packages: [], command: options.command, dir: '', binDirs: [] }];
  const read = plan.kind === 'whole' && options.layout ? segmentedReader(options.layout, options.root) : undefined;
  const tasks = groups.map((g) => (read ? wholeTask(options, g, started, read) : groupTask(options, g, started, () => killed)));
  const result = pool(tasks, Math.max(1, availableParallelism())).then(async (parts): Promise<TestRunResult> => {
    const outcomes = parts.map((p) => p.outcome);
    const { packages, failures } = packageResults(parts, options);
    const report = { failures: [...failures, ...(options.carried?.failures ?? [])] };
    const capped = capFailures(report.failures);
    const all = [...packages, ...(options.carried?.packages ?? [])];
    const single = groups.length === 1 && plan.kind === 'whole' ? outcomes[0] : undefined;
    const endFingerprint = await options.fingerprintAfter?.().catch(() => undefined);
    const formats = [...new Set(all.map((p) => p.format))];
    const counted = single ? single.report !== undefined && !single.report.uncounted : formats.every((f) => f !== undefined) && all.length > 0;
    const sum = (key: 'passed' | 'failed' | 'skipped'): number => (single ? (single.report?.uncounted ? 0 : (single.report?.[key] ?? 0)) : all.reduce((n, p) => n + p[key], 0));
    const problem = firstOf(outcomes, (o) => o.problem);
    const red = outcomes.find((o) => o && o.status !== 'passed') ?? outcomes[0];
    const rest = options.packageFingerprints?.get(REST);
    return {
      status: single ? single.status : mergeStatus(all.map((p) => p.status)),
      passed: sum('passed'),
      failed: sum('failed'),
      skipped: sum('skipped'),
      command: options.command,
      exitCode: single ? single.exitCode : (firstOf(outcomes, (o) => (o.exitCode !== 0 ? o.exitCode : undefined)) ?? 0),
      durationMs: Date.now() - startedAt,
      failures: capped.failures,
      omittedFailures: capped.omitted,
      ...(counted ? { format: single ? single.report?.format : formats.join(', ') } : {}),
      finishedAt: Date.now(),
      fingerprint: options.fingerprint,
      ...(endFingerprint ? { endFingerprint } : {}),
      outputTail: red ? outputTail(red.output) : '',
      ...(problem !== undefined ? { problem } : {}),
      ...(options.layout && all.length > 0 ? { packages: all } : {}),
      ...(plan.kind === 'packages' && plan.skipped.length > 0 ? { skippedPackages: plan.skipped } : {}),
      ...(options.checked ? { checked: options.checked } : {}),
      ...(rest !== undefined && options.layout ? { restFingerprint: rest } : {}),
    };
  });
  return {
    startedAt,
    result,
    kill: () => {
      killed = true;
      for (const command of started) command.run.kill();
    },
  };
}

function wholeTask(options: TestRunOptions, group: GroupRun, started: StartedCommand[], read: ReturnType<typeof segmentedReader>): () => Promise<Part> {
  return async () => {
    const command = startCommandRun({ cwd: options.root, command: group.command, timeoutMs: options.timeoutMs, reportDir: options.reportDir, read });
    started.push(command);
    return { group, outcome: await command.outcome };
  };
}
