/**
 * Build tools and monorepo task runners that stand between the command and the test runner: Gradle,
 * turbo and nx. Two rules hold for them as for every runner: a run is PASSED only with positive
 * evidence that tests ran now (a task that was up to date, or a result replayed from a cache with its
 * output suppressed, is not a run), and only test ids are listed as failing tests (a task id such as
 * turbo's `web#test` or Gradle's `:app:test` is not a test).
 */
import type { ParsedTestReport, TestFailure } from '../testResult';

/** Gradle's outcomes for a task that did no work this time. */
const IDLE_TASK = /^(?:UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE)$/;

/**
 * Gradle ran no test task now: the output lists its test tasks (`> Task :app:test UP-TO-DATE`), and
 * each one was up to date, had no source, was skipped or came from the build cache.
 */
function gradleIdle(output: string): boolean {
  const tasks = [...output.matchAll(/^> Task (:\S*?test\S*)(?:\s+(\S+))?\s*$/gim)];
  return tasks.length > 0 && tasks.every((t) => IDLE_TASK.test(t[2] ?? ''));
}

/** turbo's line for each task: `web:test: cache hit, suppressing logs 2b4e...` (or miss, replaying, bypass). */
const TURBO_TASK = /^(\S+?:\S+?): cache (hit|miss|bypass)\b(.*)$/gm;

/** turbo ran nothing now: every task was a cache hit whose logs it suppressed. */
function turboIdle(output: string): boolean {
  const tasks = [...output.matchAll(TURBO_TASK)];
  return tasks.length > 0 && tasks.every((t) => t[2] === 'hit' && /suppressing logs/.test(t[3] ?? ''));
}

/** nx read every task from its cache: `Nx read the output from the cache instead of running the command for 2 out of 2 tasks.` */
function nxIdle(output: string): boolean {
  const read = /Nx read the output from the cache instead of running the command for (\d+) out of (\d+) tasks?/.exec(output);
  return read !== null && read[1] === read[2];
}

/** The build tool or task runner says no test ran now (up to date, or replayed from a cache without its output). */
export function ranNothingNow(output: string): boolean {
  return gradleIdle(output) || turboIdle(output) || nxIdle(output);
}

/**
 * turbo puts `pkg:task: ` before every line of a task's output; without it, the test runner's own
 * text is read as usual. Only prefixes turbo itself announced (its `cache hit`/`cache miss` line)
 * are taken off, and its own summary lines (`Tasks:`, `Cached:`, `Time:`, `Failed:`) are dropped,
 * so `Failed: web#test` is never a failing test.
 */
export function withoutTaskPrefixes(output: string): string {
  const prefixes = new Set([...output.matchAll(TURBO_TASK)].map((t) => `${t[1] ?? ''}: `));
  if (prefixes.size === 0) return output;
  const lines: string[] = [];
  for (const line of output.split('\n')) {
    if (/^\s*(?:Tasks|Cached|Time|Failed):\s/.test(line)) continue;
    const prefix = [...prefixes].find((p) => line.startsWith(p) || line === p.trimEnd());
    // turbo's own line for the task keeps its prefix: it says whether the task ran (ranNothingNow).
    const own = prefix !== undefined && /^cache (?:hit|miss|bypass)\b/.test(line.slice(prefix.length));
    lines.push(prefix === undefined || own ? line : line.slice(prefix.length));
  }
  return lines.join('\n');
}

/**
 * Gradle's console: `CalcTest > multiplies() FAILED` for each failing test (its exception on the
 * indented line after), and `2 tests completed, 1 failed` (`, 1 skipped`) when a test failed. A green
 * run prints no count: its JUnit XML in build/test-results is read instead (leftReports.ts).
 */
export function parseGradle(output: string): ParsedTestReport | undefined {
  const failures: TestFailure[] = [];
  const lines = output.split('\n');
  lines.forEach((line, i) => {
    const failed = /^([^\s>][^>]*?(?: > [^>]+?)*) > (.+) FAILED$/.exec(line);
    if (!failed || failures.length >= 50) return;
    const message = /^\s+(\S.*)$/.exec(lines[i + 1] ?? '')?.[1] ?? '';
    failures.push({ name: `${failed[1] ?? ''} > ${failed[2] ?? ''}`, message });
  });
  const totals = /^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?\s*$/m.exec(output);
  if (!totals) return failures.length > 0 ? { format: 'gradle-text', passed: 0, failed: 0, skipped: 0, failures, uncounted: true } : undefined;
  const [run, failed, skipped] = [Number(totals[1]), Number(totals[2]), Number(totals[3] ?? 0)];
  return { format: 'gradle-text', passed: Math.max(0, run - failed - skipped), failed, skipped, failures };
}
