// `npm test`'s rules: a misspelt SPROUT_TEST_STEPS entry is an error (it ran nothing and said "All
// steps passed"), and a test step that ran no tests fails the run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { countLine, emptyCounts, failedTestOf, failedTestsBlock, failureOf, selectSteps, stepLine, STEPS, totals, type StepResult } from '../../../scripts/testSteps';

const result = (step: StepResult['step'], exitCode: number, passed: number, failed = 0): StepResult => ({
  step,
  exitCode,
  counts: { passed, failed, skipped: 0 },
  durationMs: 90_000,
});

describe('selectSteps', () => {
  it('runs every step when unset, and a named subset in the usual order', () => {
    assert.deepEqual(selectSteps(undefined), [...STEPS]);
    assert.deepEqual(selectSteps(' test:integration , test:unit '), ['test:unit', 'test:integration']);
  });

  it('an unknown step is an error naming it and the real steps', () => {
    assert.throws(() => selectSteps('unit'), /SPROUT_TEST_STEPS: unknown step "unit"\. Steps: build, typecheck, lint, test:unit/);
    assert.throws(() => selectSteps('test:unit,tset:e2e'), /unknown step "tset:e2e"/);
  });

  it('an empty list is an error, not a run of nothing', () => {
    assert.throws(() => selectSteps(' , '), /SPROUT_TEST_STEPS is empty/);
  });
});

describe('counting and the verdict', () => {
  it('reads node\'s spec reporter and the editor suites\' summary', () => {
    const counts = emptyCounts();
    for (const line of ['ℹ pass 12', 'ℹ fail 1', 'ℹ cancelled 10', 'ℹ skipped 2', '7 passed, 0 failed', 'noise: 3 passed']) countLine(line, counts);
    assert.deepEqual(counts, { passed: 19, failed: 11, skipped: 2 }, 'tests cancelled by a failed before hook did not pass');
  });

  it('passes only when every step exited 0, nothing failed and every test step ran tests', () => {
    assert.equal(failureOf([result('build', 0, 0), result('test:unit', 0, 30)]), undefined);
    assert.equal(failureOf([result('build', 0, 0), result('lint', 0, 0)]), undefined, 'steps that are not test suites count no tests');
    assert.equal(failureOf([result('test:unit', 0, 0)]), 'test:unit (it ran no tests)');
    assert.equal(failureOf([result('test:unit', 0, 3, 1)]), 'test:unit (1 failed)');
    assert.equal(failureOf([result('typecheck', 2, 0), result('test:unit', 0, 0)]), 'typecheck (exit 2)');
    assert.deepEqual(totals([result('test:unit', 0, 3, 1), result('test:integration', 0, 4)]), { passed: 7, failed: 1, skipped: 0 });
  });

  it('a suite that crashes before its summary fails the run and counts as a failure in the Total', () => {
    // The runner died (or was killed) after some files passed: their counts were read, no `ℹ fail` line came.
    const crashed = [result('test:unit', 0, 30), result('test:integration', 1, 12)];
    assert.equal(failureOf(crashed), 'test:integration (exit 1)');
    assert.deepEqual(totals(crashed), { passed: 42, failed: 1, skipped: 0 });
    assert.equal(stepLine(crashed[1]!), '  test:integration 1.5 min: 12 passed, 0 failed, 0 skipped; exit 1 with no failure counted: it crashed');
    // A suite that counted its failures and exited 1 adds those, not one more.
    assert.deepEqual(totals([result('test:e2e', 1, 5, 2)]), { passed: 5, failed: 2, skipped: 0 });
    // A failed build counts too, so "0 failed" never ends a failed run.
    assert.deepEqual(totals([result('build', 1, 0)]), { passed: 0, failed: 1, skipped: 0 });
    assert.equal(stepLine(result('lint', 0, 0)), '  lint 1.5 min');
  });
});

describe('npm test with a misspelt step', () => {
  it('exits non-zero before running anything and says which step is unknown', () => {
    const root = join(__dirname, '..', '..', '..');
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'testAll.ts')], {
      cwd: root,
      env: { ...process.env, SPROUT_TEST_STEPS: 'unit' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /SPROUT_TEST_STEPS: unknown step "unit"/);
    assert.doesNotMatch(run.stdout, /=== npm run|passed/);
  });
});

describe('the closing list of failed tests', () => {
  it('reads node\'s and the editor suites\' failure lines, without durations or the section heading', () => {
    assert.equal(failedTestOf('  ✖ an undo whose save fails is not reported done (1234.5ms)'), 'an undo whose save fails is not reported done');
    assert.equal(failedTestOf('✖ Sprout terminal runs a command: expected 0 to equal 1'), 'Sprout terminal runs a command: expected 0 to equal 1');
    assert.equal(failedTestOf('✖ failing tests:'), undefined);
    assert.equal(failedTestOf('✔ a passing test (3ms)'), undefined);
    assert.equal(failedTestOf('ℹ fail 2'), undefined);
  });

  it('lists each title once, capped with a count of the rest, and nothing when none failed', () => {
    assert.equal(failedTestsBlock([]), '');
    assert.equal(failedTestsBlock(['unit: a', 'unit: a', 'unit: b']), 'Failed tests:\n  ✖ unit: a\n  ✖ unit: b\n');
    const many = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const block = failedTestsBlock(many, 25);
    assert.match(block, /✖ t24\n {2}… and 5 more\n$/);
    assert.doesNotMatch(block, /t25/);
  });
});
