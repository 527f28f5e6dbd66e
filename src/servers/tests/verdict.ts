/**
 * One run's verdict, honest about what is known: `failed` when tests failed, `no_tests` when the
 * report says no test executed (zero tests is never a pass), `could_not_run` when the command itself
 * failed before any test (not found, not installed, no such script: the tests are fine or unknown,
 * the command is what to fix), `passed` only on exit code 0 with tests that ran or output nobody could
 * count, `error` for a red command that explains nothing (a build error), `timeout` when killed for time.
 */
import type { ParsedTestReport, TestStatus } from './testResult';

/** What a shell, a package manager or a toolchain prints when the command itself cannot start. */
const CANNOT_START: RegExp[] = [
  /^.*\bcommand not found\b.*$/m,
  /^(?:sh|bash|dash|zsh)(?:: \d+)?: (?:line \d+: )?\S+: not found$/m,
  /^.*could not determine executable to run.*$/m,
  /^npm (?:ERR!|error) (?:code E404|404 .*)$/m,
  /^npm (?:ERR!|error) Missing script: .*$/m,
  /^.*ERR_PNPM_(?:NO_SCRIPT|RECURSIVE_EXEC_FIRST_FAIL|NO_IMPORTER_MANIFEST_FOUND)\b.*$/m,
  /^.*(?:Command "[^"]+" not found|Couldn't find a script named .*)$/m,
  /^.*No module named \S+$/m,
  /^error: no such command: .*$/m,
  /^.*could not find `Cargo\.toml`.*$/m,
  /^go: .*(?:go\.mod file not found|cannot find main module|directory prefix \. does not contain).*$/m,
  /^.*\[failed to start: .*$/m,
  /^Error: Cannot find module '[^']+'$/m,
  /^.*(?:is not recognized as an internal or external command|Permission denied)$/m,
];

/** The line that says why the command could not run, when it could not. */
export function cannotStart(exitCode: number | null, output: string, report: ParsedTestReport | undefined): string | undefined {
  if (exitCode === 0 || exitCode === null) return undefined;
  if (report && (report.passed > 0 || report.failed > 0 || report.failures.length > 0)) return undefined;
  for (const pattern of CANNOT_START) {
    const line = pattern.exec(output)?.[0]?.trim();
    if (line) return line.slice(0, 500);
  }
  if (exitCode === 126 || exitCode === 127) return `the shell could not run the command (exit code ${exitCode})`;
  return undefined;
}

/** Whether the report counted exactly and no test executed (skipped ones do not count). */
export function ranNoTests(report: ParsedTestReport | undefined): boolean {
  return report !== undefined && report.uncounted !== true && report.passed === 0 && report.failed === 0 && report.failures.length === 0;
}

export function statusOf(exitCode: number | null, timedOut: boolean, report: ParsedTestReport | undefined, problem: string | undefined): TestStatus {
  if (timedOut) return 'timeout';
  if ((report?.failed ?? 0) > 0) return 'failed';
  if (report?.uncounted && report.failures.length > 0 && exitCode !== 0) return 'failed';
  if (problem !== undefined) return 'could_not_run';
  if (ranNoTests(report)) return 'no_tests';
  return exitCode === 0 ? 'passed' : 'error';
}

/** The most telling status of several packages' statuses: a failure first, then what blocks knowing. */
export function mergeStatus(statuses: readonly TestStatus[]): TestStatus {
  const order: TestStatus[] = ['failed', 'error', 'could_not_run', 'timeout', 'no_tests', 'passed'];
  for (const status of order) if (statuses.includes(status)) return status === 'no_tests' && statuses.includes('passed') ? 'passed' : status;
  return 'no_tests';
}
