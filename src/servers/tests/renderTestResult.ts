/**
 * How a test result reads for the model: one status line with the counts, the command, exit code
 * and duration, then each failing test with `file:line` and the first lines of its message
 * (expected/actual included), or the output tail when the output was not understood or the command
 * failed without failing tests. The `_Stop` objections wrap it and say how old the result is.
 */
import type { PackageResult, TestFailure, TestRunResult } from './testResult';

const FAILURES_SHOWN = 15;
const MESSAGE_LINES_SHOWN = 8;
const LINE_CHARS = 240;

export const RUN_TESTS_TOOL = 'tests__run_tests';

const STATUS_TEXT = {
  passed: 'Tests PASSED',
  failed: 'Tests FAILED',
  error: 'Tests ERRORED',
  timeout: 'Tests TIMED OUT',
  no_tests: 'NO TESTS RAN',
  could_not_run: 'The test command COULD NOT RUN',
} as const;

const PACKAGE_STATUS = { passed: 'passed', failed: 'FAILED', error: 'ERRORED', timeout: 'TIMED OUT', no_tests: 'no tests ran', could_not_run: 'COULD NOT RUN' } as const;

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 1) return 'just now';
  if (s < 90) return `${s} s ago`;
  const min = Math.round(s / 60);
  return min < 90 ? `${min} min ago` : `${Math.round(min / 60)} h ago`;
}

export function failureLocation(failure: TestFailure): string {
  if (!failure.file) return '';
  return failure.line !== undefined ? `${failure.file}:${failure.line}` : failure.file;
}

function renderFailure(failure: TestFailure): string[] {
  const where = failureLocation(failure);
  const lines = [`- ${failure.package ? `[${failure.package}] ` : ''}${failure.name}${where ? ` (${where})` : ''}`];
  const message = failure.message.split('\n').filter((l) => l.trim() !== '');
  for (const line of message.slice(0, MESSAGE_LINES_SHOWN)) lines.push(`    ${line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}...` : line}`);
  if (message.length > MESSAGE_LINES_SHOWN) lines.push(`    ... (${message.length - MESSAGE_LINES_SHOWN} more lines)`);
  return lines;
}

function countsText(c: { format?: string; failed: number; passed: number; skipped: number }): string {
  if (c.format === undefined) return 'counts not recognised';
  return `${c.failed} failed, ${c.passed} passed${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}`;
}

function renderPackage(p: PackageResult): string {
  const where = p.dir === '' ? '(root)' : p.dir;
  const label = p.name === p.dir ? where : `${p.name} (${where})`;
  const detail = p.ranNow ? `\`${p.command}\`` : 'not rerun: unchanged since its last run';
  return `- ${label}: ${PACKAGE_STATUS[p.status]}, ${countsText(p)}${p.format ? ` (${p.format})` : ''}; ${detail}${p.problem ? `\n    ${p.problem}` : ''}`;
}

function renderPackages(result: TestRunResult): string[] {
  const packages = result.packages ?? [];
  const skipped = result.skippedPackages ?? [];
  if (packages.length === 0 && skipped.length === 0) return [];
  const lines = [`Packages: ${packages.length} tested${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}`];
  lines.push(...packages.map(renderPackage));
  lines.push(...skipped.map((p) => `- ${p.name} (${p.dir}): skipped, ${p.reason}`));
  return lines;
}

export function renderTestResult(result: TestRunResult): string {
  const recognised = result.format !== undefined;
  const green = result.status === 'passed';
  const lines = [
    `${STATUS_TEXT[result.status]}: ${countsText(result)}${recognised ? ` (${result.format})` : ''}`,
    `command: ${result.command} | exit code: ${result.exitCode ?? 'killed'} | duration: ${(result.durationMs / 1000).toFixed(1)} s`,
  ];
  if (result.problem) lines.push(`error: ${result.problem}`);
  lines.push(...renderPackages(result));
  if (result.failures.length > 0 && !green) {
    lines.push(result.status === 'failed' ? 'Failing tests:' : 'Problems:');
    for (const failure of result.failures.slice(0, FAILURES_SHOWN)) lines.push(...renderFailure(failure));
    const more = result.failures.length - FAILURES_SHOWN + result.omittedFailures;
    if (more > 0) lines.push(`- ... and ${more} more`);
  }
  const unexplained = !green && result.status !== 'no_tests' && (result.status !== 'failed' || result.failures.length === 0);
  if (!recognised || unexplained) lines.push('Output (last lines):', result.outputTail === '' ? '(no output)' : result.outputTail);
  return lines.join('\n');
}

function checkedText(result: TestRunResult): string {
  if (!result.checked) return '';
  const names = result.checked.length > 0 ? result.checked.join(', ') : 'none';
  return ` Checked now: ${names} (the packages the edits touched and those that depend on them); the other packages are unchanged since their last run.`;
}

const HEADS: Record<Exclude<TestRunResult['status'], 'passed'>, string> = {
  failed: 'The tests fail on the current state of the workspace',
  error: 'The test command failed on the current state of the workspace without a test result (a build error, or a crash before the tests)',
  timeout: 'The test run timed out on the current state of the workspace',
  no_tests: 'No tests ran on the current state of the workspace: the test command ran but executed no test',
  could_not_run: 'The test command could not run, so nothing is known about the tests',
};

const ASKS: Record<Exclude<TestRunResult['status'], 'passed'>, string> = {
  failed: 'Fix the failures before finishing.',
  error: 'Fix what stops the tests before finishing.',
  timeout: 'Find what hangs or is too slow before finishing.',
  no_tests:
    'If a filter removed them (a --grep or -t pattern, `.only`, a path), remove it and run the tests; if this change has no tests, add them or say why. ' +
    'This is said once: no tests is never a pass.',
  could_not_run:
    'This is not a test failure: check the command itself (is it spelled right, does the script exist, is its runner installed, e.g. `npm install`?). ' +
    "Fix the command (the project's test script, or the tests server's --command), not the code it tests.",
};

export function renderRedObjection(result: TestRunResult, now: number): string {
  const status = result.status === 'passed' ? 'failed' : result.status;
  return (
    `${HEADS[status]} (a fresh result: the run finished ${formatAge(now - result.finishedAt)} ` +
    `and nothing has changed since).${checkedText(result)} ${ASKS[status]}\n\n${renderTestResult(result)}`
  );
}

export interface NotRunContext {
  /** When the run for the current state started, if one is in progress. */
  runningSince?: number;
  /** The last result, which no longer describes the workspace. */
  stale?: TestRunResult;
  /** Whether the workspace is known to have changed since `stale` (false: it could not be checked in time). */
  changed: boolean;
  now: number;
}

export function renderNotRunObjection(context: NotRunContext): string {
  const running = context.runningSince !== undefined ? ` (a run is in progress, started ${formatAge(context.now - context.runningSince)})` : '';
  const head =
    `The tests have not passed on the current state of the workspace${running}. ` + `Run \`${RUN_TESTS_TOOL}\` and fix any failures before finishing.`;
  if (!context.stale) return head;
  const age = formatAge(context.now - context.stale.finishedAt);
  const why = context.changed ? 'the workspace has changed since' : 'the workspace could not be compared with it in time';
  return `${head}\n\nThe last result is stale: it is from ${age}, and ${why}.\n${renderTestResult(context.stale)}`;
}
