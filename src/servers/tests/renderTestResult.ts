/**
 * How a test result reads for the model: one status line with the counts, the command, exit code
 * and duration, then each failing test with `file:line` and the first lines of its message
 * (expected/actual included), or the output tail when the output was not understood or the command
 * failed without failing tests. The `_Stop` objections wrap it and say how old the result is.
 */
import { isGreen } from './testRun';
import type { TestFailure, TestRunResult } from './testResult';

const FAILURES_SHOWN = 15;
const MESSAGE_LINES_SHOWN = 8;
const LINE_CHARS = 240;

export const RUN_TESTS_TOOL = 'tests__run_tests';

const STATUS_TEXT = { passed: 'Tests PASSED', failed: 'Tests FAILED', error: 'Tests ERRORED', timeout: 'Tests TIMED OUT' } as const;

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
  const lines = [`- ${failure.name}${where ? ` (${where})` : ''}`];
  const message = failure.message.split('\n').filter((l) => l.trim() !== '');
  for (const line of message.slice(0, MESSAGE_LINES_SHOWN)) lines.push(`    ${line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}...` : line}`);
  if (message.length > MESSAGE_LINES_SHOWN) lines.push(`    ... (${message.length - MESSAGE_LINES_SHOWN} more lines)`);
  return lines;
}

export function renderTestResult(result: TestRunResult): string {
  const recognised = result.format !== undefined;
  const counts = recognised ? `${result.failed} failed, ${result.passed} passed${result.skipped > 0 ? `, ${result.skipped} skipped` : ''}` : 'counts not recognised';
  const lines = [
    `${STATUS_TEXT[result.status]}: ${counts}${recognised ? ` (${result.format})` : ''}`,
    `command: ${result.command} | exit code: ${result.exitCode ?? 'killed'} | duration: ${(result.durationMs / 1000).toFixed(1)} s`,
  ];
  if (result.failures.length > 0 && !isGreen(result)) {
    lines.push(result.status === 'failed' ? 'Failing tests:' : 'Problems:');
    for (const failure of result.failures.slice(0, FAILURES_SHOWN)) lines.push(...renderFailure(failure));
    const more = result.failures.length - FAILURES_SHOWN + result.omittedFailures;
    if (more > 0) lines.push(`- ... and ${more} more`);
  }
  const unexplained = !isGreen(result) && (result.status !== 'failed' || result.failures.length === 0);
  if (!recognised || unexplained) lines.push('Output (last lines):', result.outputTail === '' ? '(no output)' : result.outputTail);
  return lines.join('\n');
}

export function renderRedObjection(result: TestRunResult, now: number): string {
  return (
    `The tests fail on the current state of the workspace (a fresh result: the run finished ${formatAge(now - result.finishedAt)} ` +
    `and nothing has changed since). Fix the failures before finishing.\n\n${renderTestResult(result)}`
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
