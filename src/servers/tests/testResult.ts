/**
 * The tests server's vocabulary: what a reporter extracts from one run (`ParsedTestReport`), the
 * result kept and persisted (`TestRunResult`), and the structured form both tools return
 * (`structuredContent`, described by the zod shapes below, which are also the tools' `outputSchema`).
 * Caps live here so every runner's evidence is bounded the same way.
 */
import { z } from 'zod';

export interface TestFailure {
  /** The test's name as its runner shows it (suite path included). */
  name: string;
  /** Relative to the workspace root when inside it, else absolute. */
  file?: string;
  /** 1-based line of the failing assertion when the runner reports it, else of the test. */
  line?: number;
  /** The assertion's message, expected/actual lines kept, stack frames dropped. */
  message: string;
  /** The workspace package the test belongs to, in a monorepo. */
  package?: string;
}

/** Counts of one part of a run (a test file, a Cargo test binary), so a monorepo's packages get their own. */
export interface UnitCounts {
  /** Root-relative file of the part, when it has one. */
  file?: string;
  /** The crate a Cargo test binary belongs to. */
  crate?: string;
  passed: number;
  failed: number;
  skipped: number;
}

export interface ParsedTestReport {
  /** Which reporter understood the run (`jest-json`, `pytest-junit`, `cargo`, ...). */
  format: string;
  passed: number;
  /** Failed tests plus tests or suites that errored (a file that does not load, a broken fixture). */
  failed: number;
  skipped: number;
  failures: TestFailure[];
  /** The summary was not read exactly: the counts are unknown (zero here), the failing names are what could be read. */
  uncounted?: true;
  /** Counts per file or binary, where the report gives them. */
  units?: UnitCounts[];
}

/**
 * `no_tests`: the run executed no test (all filtered away, none found); `could_not_run`: the command
 * itself failed (not found, not installed, no such script), so nothing is known about the tests.
 */
export type TestStatus = 'passed' | 'failed' | 'error' | 'timeout' | 'no_tests' | 'could_not_run';
export const TEST_STATUSES = ['passed', 'failed', 'error', 'timeout', 'no_tests', 'could_not_run'] as const;

/** One package's part of a monorepo run. */
export interface PackageResult {
  name: string;
  /** Root-relative folder. */
  dir: string;
  /** The command its run used (the package's own test command). */
  command: string;
  status: TestStatus;
  passed: number;
  failed: number;
  skipped: number;
  exitCode: number | null;
  durationMs: number;
  format?: string;
  /** Why the command could not run, or what it printed last when nothing explains a red result. */
  problem?: string;
  /** The package's files when it ran (its part of the workspace fingerprint): an unchanged package keeps its result. */
  fingerprint?: string;
  /** Whether this run ran it (false: its result is carried over from an earlier run of the same files). */
  ranNow: boolean;
}

export interface TestRunResult {
  status: TestStatus;
  passed: number;
  failed: number;
  skipped: number;
  command: string;
  exitCode: number | null;
  durationMs: number;
  failures: TestFailure[];
  /** Failing tests left out of `failures` by the count cap. */
  omittedFailures: number;
  /** Undefined when no reporter understood the output. */
  format?: string;
  finishedAt: number;
  /** The workspace state the run tested. */
  fingerprint: string;
  /** The state right after the run: differs from `fingerprint` when the suite (or someone) wrote files. */
  endFingerprint?: string;
  /** The last lines of the output, shown when the counts alone do not explain the result. */
  outputTail: string;
  /** Why the command could not run (its error line), for `could_not_run`. */
  problem?: string;
  /** Per package, in a monorepo. */
  packages?: PackageResult[];
  /** Packages with nothing to run, and why. */
  skippedPackages?: { name: string; dir: string; reason: string }[];
  /** The packages this run ran, when it ran fewer than all (an edit's packages and their dependants first). */
  checked?: string[];
  /** The fingerprint of the files in no package when the run started (a change there reruns every package). */
  restFingerprint?: string;
}

export const MAX_FAILURES = 50;
export const MESSAGE_MAX_LINES = 20;
export const MESSAGE_MAX_CHARS = 2000;
export const TOTAL_MESSAGE_CHARS = 16_000;
export const MESSAGE_CUT_MARKER = '[message cut]';
export const MESSAGE_OMITTED = '[message omitted: the result reached its size cap]';

const failureShape = z.object({
  name: z.string(),
  file: z.string().optional(),
  line: z.number().int().optional(),
  message: z.string(),
  package: z.string().optional(),
});

const statusShape = z.enum(TEST_STATUSES);

const packageShape = z.object({
  name: z.string(),
  dir: z.string(),
  command: z.string(),
  status: statusShape,
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  format: z.string().optional(),
  problem: z.string().optional(),
  fingerprint: z.string().optional(),
  ranNow: z.boolean(),
});

const skippedPackageShape = z.object({ name: z.string(), dir: z.string(), reason: z.string() });

/** `run_tests`: one run's result. */
export const testResultShape = {
  status: statusShape,
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  command: z.string(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  failures: z.array(failureShape),
  omittedFailures: z.number().int().optional(),
  format: z.string().optional(),
  finishedAt: z.string().optional(),
  problem: z.string().optional(),
  packages: z.array(packageShape.omit({ fingerprint: true })).optional(),
  skippedPackages: z.array(skippedPackageShape).optional(),
  checkedPackages: z.array(z.string()).optional(),
};

/** `_Stop`: the result it judged by, how old it is, and whether it still describes the workspace. */
export const stopResultShape = {
  ...testResultShape,
  status: z.enum([...TEST_STATUSES, 'not_run']),
  stale: z.boolean(),
  ageMs: z.number().optional(),
  running: z.boolean(),
};

export type StructuredTestResult = z.infer<z.ZodObject<typeof testResultShape>>;
export type StructuredStopResult = z.infer<z.ZodObject<typeof stopResultShape>>;

export const persistedResultSchema = z.object({
  status: statusShape,
  passed: z.number(),
  failed: z.number(),
  skipped: z.number(),
  command: z.string(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  failures: z.array(failureShape),
  omittedFailures: z.number(),
  format: z.string().optional(),
  finishedAt: z.number(),
  fingerprint: z.string(),
  endFingerprint: z.string().optional(),
  outputTail: z.string(),
  problem: z.string().optional(),
  packages: z.array(packageShape).optional(),
  skippedPackages: z.array(skippedPackageShape).optional(),
  checked: z.array(z.string()).optional(),
  restFingerprint: z.string().optional(),
});

export function clipMessage(message: string): string {
  const lines = message.split('\n');
  let text = lines.slice(0, MESSAGE_MAX_LINES).join('\n');
  let cut = lines.length > MESSAGE_MAX_LINES;
  if (text.length > MESSAGE_MAX_CHARS) {
    text = text.slice(0, MESSAGE_MAX_CHARS);
    cut = true;
  }
  return cut ? `${text}\n${MESSAGE_CUT_MARKER}` : text;
}

/** Applies the caps: at most MAX_FAILURES entries, each message clipped, all messages within a total. */
export function capFailures(failures: readonly TestFailure[]): { failures: TestFailure[]; omitted: number } {
  let budget = TOTAL_MESSAGE_CHARS;
  const kept = failures.slice(0, MAX_FAILURES).map((failure) => {
    const message = clipMessage(failure.message);
    const fits = message.length <= budget;
    budget = fits ? budget - message.length : 0;
    return { ...failure, message: fits ? message : MESSAGE_OMITTED };
  });
  return { failures: kept, omitted: Math.max(0, failures.length - kept.length) };
}

export function toStructured(result: TestRunResult): StructuredTestResult {
  return {
    status: result.status,
    passed: result.passed,
    failed: result.failed,
    skipped: result.skipped,
    command: result.command,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    failures: result.failures,
    ...(result.omittedFailures > 0 ? { omittedFailures: result.omittedFailures } : {}),
    ...(result.format ? { format: result.format } : {}),
    finishedAt: new Date(result.finishedAt).toISOString(),
    ...(result.problem ? { problem: result.problem } : {}),
    ...(result.packages ? { packages: result.packages.map(({ fingerprint: _, ...p }) => p) } : {}),
    ...(result.skippedPackages?.length ? { skippedPackages: result.skippedPackages } : {}),
    ...(result.checked ? { checkedPackages: result.checked } : {}),
  };
}
