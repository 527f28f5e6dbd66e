import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTestOutput } from '../../../src/servers/tests/parseTestOutput';

const SUITE = `
const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
test('subtracts', () => assert.equal(2 - 1, 1));
test('multiplies', () => assert.equal(2 * 2, 5, 'multiplication is broken'));
test.describe('group', () => { test.it('inner fails', () => { throw new Error('boom\\nsecond line'); }); });
`;

/** Without the parent runner's context, which would make node --test talk its private protocol. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

describe('parseTestOutput', () => {
  let dir: string;
  const runNode = (reporter: string): string => {
    const run = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`], { cwd: dir, encoding: 'utf8', env: childEnv() });
    return run.stdout + run.stderr;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sprout-parse-'));
    writeFileSync(join(dir, 'math.test.js'), SUITE);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const reporter of ['tap', 'spec', 'junit']) {
    it(`understands node's test runner (${reporter} reporter, real output)`, () => {
      const report = parseTestOutput(runNode(reporter));
      assert.ok(report, 'recognised');
      assert.equal(report.passed, 2);
      assert.equal(report.failed, 2);
      const names = report.failures.map((f) => f.name).join('|');
      assert.match(names, /multiplies/);
      assert.match(names, /inner fails/);
      assert.doesNotMatch(names, /(^|\|)group$/, 'the suite roll-up is not a failure of its own');
      const multiplies = report.failures.find((f) => f.name.includes('multiplies'));
      assert.match(multiplies?.message ?? '', /multiplication is broken/);
    });
  }

  it('understands jest', () => {
    const output = [
      'FAIL src/sum.test.js',
      '  ● math › adds numbers',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      '',
      '    Expected: 4',
      '    Received: 5',
      '',
      'Tests:       1 failed, 6 passed, 7 total',
    ].join('\n');
    const report = parseTestOutput(output);
    assert.deepEqual({ ...report, failures: report?.failures.map((f) => f.name) }, { format: 'jest', passed: 6, failed: 1, failures: ['math › adds numbers'] });
    assert.match(report?.failures[0]?.message ?? '', /toBe\(expected\)/);
  });

  it('understands vitest', () => {
    const output = [
      ' FAIL  src/sum.test.ts > sum > adds [src/sum.test.ts]',
      'AssertionError: expected 5 to be 4 // Object.is equality',
      '',
      ' Test Files  1 failed (1)',
      '      Tests  1 failed | 3 passed (4)',
    ].join('\n');
    const report = parseTestOutput(output);
    assert.equal(report?.format, 'vitest');
    assert.equal(report?.passed, 3);
    assert.equal(report?.failed, 1);
    assert.equal(report?.failures[0]?.name, 'src/sum.test.ts > sum > adds');
    assert.match(report?.failures[0]?.message ?? '', /expected 5 to be 4/);
  });

  it('understands pytest', () => {
    const output = [
      '============================= test session starts ==============================',
      'tests/test_math.py .F.                                                     [100%]',
      '=========================== short test summary info ============================',
      'FAILED tests/test_math.py::test_mul - assert 4 == 5',
      '========================= 1 failed, 2 passed in 0.03s ==========================',
    ].join('\n');
    const report = parseTestOutput(output);
    assert.deepEqual(report, { format: 'pytest', passed: 2, failed: 1, failures: [{ name: 'tests/test_math.py::test_mul', message: 'assert 4 == 5' }] });
  });

  it('understands go test and cargo-style summaries', () => {
    const go = parseTestOutput('=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 3, want 4\nFAIL\nFAIL\texample.com/m\t0.002s\n');
    assert.equal(go?.format, 'go');
    assert.deepEqual(go?.failures, [{ name: 'TestAdd', message: 'add_test.go:9: got 3, want 4' }]);
    const cargo = parseTestOutput('running 3 tests\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured\n');
    assert.equal(cargo?.passed, 2);
    assert.equal(cargo?.failed, 1);
  });

  it('returns undefined for output it does not understand', () => {
    assert.equal(parseTestOutput('Segmentation fault (core dumped)\n'), undefined);
  });
});
