// The rules of `npm test` (scripts/testAll.ts), kept pure so they are unit-tested: which steps run
// (all, or the SPROUT_TEST_STEPS subset, where a misspelt step is an error rather than a run of
// nothing), how each suite's output is counted, and the verdict: a failed step, a failed test, or a
// test step that ran no tests at all fails the run. A step that exits non-zero with no failure counted
// (a crash before its summary, a killed runner, a failed build) counts as one failure, so the Total
// line never says "0 failed" for a failed run.

export const STEPS = ['build', 'typecheck', 'lint', 'test:unit', 'test:integration', 'test:editor', 'test:e2e', 'test:agents'] as const;
export type Step = (typeof STEPS)[number];

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface StepResult {
  step: Step;
  exitCode: number;
  counts: Counts;
  /** Wall-clock time the step took, for the per-step summary. */
  durationMs: number;
}

function isTestStep(step: Step): boolean {
  return step.startsWith('test:');
}

/** Every step, or the ones SPROUT_TEST_STEPS names (comma list, in the usual order); throws on an unknown name. */
export function selectSteps(value: string | undefined): Step[] {
  if (value === undefined) return [...STEPS];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(STEPS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`SPROUT_TEST_STEPS: unknown step ${unknown.map((n) => `"${n}"`).join(', ')}. Steps: ${STEPS.join(', ')}.`);
  }
  if (names.length === 0) throw new Error(`SPROUT_TEST_STEPS is empty: name at least one of ${STEPS.join(', ')}, or unset it to run them all.`);
  return STEPS.filter((step) => names.includes(step));
}

export function emptyCounts(): Counts {
  return { passed: 0, failed: 0, skipped: 0 };
}

/**
 * Reads node's spec reporter (`ℹ pass N`) and the editor suites' `N passed, N failed` lines. A test
 * node cancelled (its suite's `before` failed, or its parent ended first) did not pass: it counts as
 * failed, so ten tests that never ran are not reported as one failure.
 */
export function countLine(line: string, counts: Counts): void {
  const node = /^ℹ (pass|fail|cancelled|skipped) (\d+)$/.exec(line.trim());
  if (node) {
    const n = Number(node[2]);
    if (node[1] === 'pass') counts.passed += n;
    else if (node[1] === 'skipped') counts.skipped += n;
    else counts.failed += n;
    return;
  }
  const editor = /^(\d+) passed, (\d+) failed$/.exec(line.trim());
  if (editor) {
    counts.passed += Number(editor[1]);
    counts.failed += Number(editor[2]);
  }
}

/**
 * The title of a failed test when the line reports one: node's spec reporter writes `✖ title (12ms)`
 * (again under `✖ failing tests:`), the editor suites `✖ full title: first line of the error`. The end
 * of a run lists them, so a log's last lines say which tests failed, not only how many.
 */
export function failedTestOf(line: string): string | undefined {
  const title = /^\s*✖ (.+)$/.exec(line)?.[1];
  if (title === undefined || /^failing tests:?$/.test(title.trim())) return undefined;
  return title.replace(/ \([\d.]+m?s\)$/, '').trim();
}

/** The failed tests' titles once each (a reporter repeats them), at most `cap`, with a count of the rest. */
export function failedTestsBlock(titles: readonly string[], cap = 25): string {
  const unique = [...new Set(titles)];
  if (unique.length === 0) return '';
  const shown = unique.slice(0, cap).map((t) => `  ✖ ${t.length > 300 ? `${t.slice(0, 300)}…` : t}`);
  const rest = unique.length > cap ? [`  … and ${unique.length - cap} more`] : [];
  return `Failed tests:\n${[...shown, ...rest].join('\n')}\n`;
}

/** The step's failures: its counted ones, or one when it exited non-zero without counting any. */
function failuresOf(r: StepResult): number {
  return r.exitCode !== 0 && r.counts.failed === 0 ? 1 : r.counts.failed;
}

export function totals(results: readonly StepResult[]): Counts {
  const sum = emptyCounts();
  for (const r of results) {
    sum.passed += r.counts.passed;
    sum.failed += failuresOf(r);
    sum.skipped += r.counts.skipped;
  }
  return sum;
}

/** One line per step: its time, its counts, and how it ended (a non-zero exit with no failure counted is a crash). */
export function stepLine(r: StepResult): string {
  const minutes = (r.durationMs / 60_000).toFixed(1);
  const counts = isTestStep(r.step) ? `: ${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped` : '';
  const crash = isTestStep(r.step) && r.counts.failed === 0 ? ' with no failure counted: it crashed' : '';
  const exit = r.exitCode !== 0 ? `; exit ${r.exitCode}${crash}` : '';
  return `  ${r.step} ${minutes} min${counts}${exit}`;
}

/** Why the run failed, or undefined when it passed. */
export function failureOf(results: readonly StepResult[]): string | undefined {
  for (const r of results) {
    if (r.exitCode !== 0) return `${r.step} (exit ${r.exitCode})`;
    if (r.counts.failed > 0) return `${r.step} (${r.counts.failed} failed)`;
    if (isTestStep(r.step) && r.counts.passed + r.counts.failed === 0) return `${r.step} (it ran no tests)`;
  }
  return undefined;
}
