/**
 * How a test result reads for the model: one status line, command/exit code/duration, then failing
 * tests with their first message lines, or the output tail when the format was not understood.
 */
import { isGreen, type TestRunResult } from './testRun';

const MAX_FAILURES_SHOWN = 20;

export const RUN_TESTS_TOOL = 'tests__run_tests';

export function renderTestResult(result: TestRunResult): string {
  const green = isGreen(result);
  const report = result.report;
  const counts = report ? `${report.failed} failed, ${report.passed} passed` : 'counts not recognised';
  const status = result.timedOut ? 'Tests TIMED OUT' : green ? 'Tests PASSED' : 'Tests FAILED';
  const lines = [
    `${status}: ${counts}${report ? ` (${report.format})` : ''}`,
    `command: ${result.command} | exit code: ${result.exitCode ?? 'killed'} | duration: ${(result.durationMs / 1000).toFixed(1)} s`,
  ];
  if (!green && report && report.failures.length > 0) {
    lines.push('Failing tests:');
    for (const failure of report.failures.slice(0, MAX_FAILURES_SHOWN)) lines.push(`- ${failure.name}${failure.message ? `: ${failure.message}` : ''}`);
    if (report.failures.length > MAX_FAILURES_SHOWN) lines.push(`- ... and ${report.failures.length - MAX_FAILURES_SHOWN} more`);
  } else if (!green || !report) {
    lines.push('Output (last lines):', result.outputTail === '' ? '(no output)' : result.outputTail);
  }
  return lines.join('\n');
}

export function renderRedObjection(result: TestRunResult): string {
  return `The tests fail on the current state of the workspace. Fix the failures before finishing.\n\n${renderTestResult(result)}`;
}

export function renderNotRunObjection(running: boolean): string {
  return (
    `The tests have not passed on the current state of the workspace${running ? ' (a run is in progress)' : ''}. ` +
    `Run \`${RUN_TESTS_TOOL}\` and fix any failures before finishing.`
  );
}
