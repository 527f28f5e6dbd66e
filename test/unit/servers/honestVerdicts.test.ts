/**
 * Never a green without tests: the verdict of a run from its exit code, output and report (zero
 * tests executed is "no tests ran" for every runner's report, a broken command "could not run" with
 * its error), summaries nobody reads exactly kept as names without numbers, the readers of the
 * runners added for monorepos on their recorded real output (test/fixtures/outputs), pnpm's
 * prefixed output split back by package, and how each verdict reads for the model.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readReport, type RunnerId } from '../../../src/servers/tests/formats/readReport';
import { renderRedObjection, renderTestResult } from '../../../src/servers/tests/renderTestResult';
import { segmentedReader } from '../../../src/servers/tests/suiteRun';
import type { TestRunResult } from '../../../src/servers/tests/testResult';
import { cannotStart, mergeStatus, statusOf } from '../../../src/servers/tests/verdict';
import type { WorkspaceLayout } from '../../../src/servers/tests/workspaceLayout';

const OUTPUTS = resolve(__dirname, '..', '..', 'fixtures', 'outputs');
const ROOT = '/project';

function recorded(name: string, runner: RunnerId, asReport = false): ReturnType<typeof readReport> {
  const text = readFileSync(resolve(OUTPUTS, name), 'utf8');
  return readReport({ runner, root: ROOT, output: asReport ? '' : text, ...(asReport ? { report: text } : {}) });
}

describe('verdicts', () => {
  it('zero tests executed is no_tests, whatever the exit code; skipped tests do not count as run', () => {
    const zero = { format: 'mocha-text', passed: 0, failed: 0, skipped: 2, failures: [] };
    assert.equal(statusOf(0, false, zero, undefined), 'no_tests');
    assert.equal(statusOf(1, false, zero, undefined), 'no_tests');
    assert.equal(statusOf(0, false, { ...zero, passed: 1 }, undefined), 'passed');
  });

  it('mocha --grep matching nothing ("0 passing", exit 0) and unittest "Ran 0 tests" are no tests, not a pass', () => {
    const mocha = readReport({ runner: 'mocha', output: '\n\n  0 passing (1ms)\n\n', root: ROOT });
    assert.deepEqual(mocha && [mocha.format, mocha.passed, mocha.failed], ['mocha-text', 0, 0]);
    assert.equal(statusOf(0, false, mocha, undefined), 'no_tests');
    const unittest = readReport({ runner: 'other', output: '\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n', root: ROOT });
    assert.equal(statusOf(5, false, unittest, undefined), 'no_tests');
  });

  it('a broken command could not run, with the line that says why', () => {
    const cases: [number, string, RegExp][] = [
      [127, 'sh: 1: jset: not found\n', /jset: not found/],
      [1, 'npm error could not determine executable to run\nnpm error A complete log of this run can be found in: x\n', /could not determine executable/],
      [1, 'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/jset - Not found\n', /E404/],
      [1, 'npm error Missing script: "tset"\n', /Missing script/],
      [1, '/usr/bin/python3: No module named pytest\n', /No module named pytest/],
      [101, 'error: no such command: `tset`\n', /no such command/],
      [126, 'weird\n', /exit code 126/],
    ];
    for (const [code, output, line] of cases) {
      const problem = cannotStart(code, output, readReport({ runner: 'other', output, root: ROOT }));
      assert.match(problem ?? '', line, output);
      assert.equal(statusOf(code, false, undefined, problem), 'could_not_run');
    }
    assert.equal(cannotStart(1, 'command not found', { format: 'jest-json', passed: 1, failed: 1, failures: [], skipped: 0 }), undefined, 'a run with tests is no broken command');
    assert.equal(cannotStart(0, 'sh: 1: x: not found', undefined), undefined, 'exit 0 is no broken command');
  });

  it('several packages: a failure anywhere is failed; no tests in one package beside passes is a pass', () => {
    assert.equal(mergeStatus(['passed', 'failed', 'could_not_run']), 'failed');
    assert.equal(mergeStatus(['passed', 'could_not_run']), 'could_not_run');
    assert.equal(mergeStatus(['passed', 'no_tests']), 'passed');
    assert.equal(mergeStatus(['no_tests', 'no_tests']), 'no_tests');
  });
});

describe('summaries nobody reads exactly', () => {
  it('jasmine\'s "3 specs, 1 failure" through the generic reader: counts not recognised, the failing name kept', () => {
    const output = 'Started\n..F\n\n✗ cart totals prices\n3 specs, 1 failure, 0 pending specs\n';
    const generic = readReport({ runner: 'other', output: output.replace(/^3 specs.*$/m, 'Result: 3 specs, 1 failure'), root: ROOT });
    assert.equal(generic?.uncounted, true);
    assert.deepEqual(generic?.failures.map((f) => f.name), ['cart totals prices']);
    assert.equal(statusOf(3, false, generic, undefined), 'failed', 'red from its exit code and the names, without numbers');
    const own = readReport({ runner: 'jasmine', output, root: ROOT });
    assert.deepEqual(own && [own.passed, own.failed], [2, 1], "jasmine's own reader counts exactly");
  });

  it('a line with both counts is read; one count alone is not a count', () => {
    assert.deepEqual(readReport({ runner: 'other', output: 'Tests: 3 passed, 1 failed\n', root: ROOT })?.passed, 3);
    assert.equal(readReport({ runner: 'other', output: '1 failure\n', root: ROOT }), undefined);
  });
});

describe('readers of the runners added, on their recorded real output', () => {
  const cases: [string, RunnerId, boolean, string, [number, number, number], { name: RegExp; file?: string; line?: number; message: RegExp }][] = [
    ['ava-7-tap.txt', 'ava', false, 'tap', [1, 3, 1], { name: /^cart › cart labels one item$/, message: /- '1 items'\n\s*\+ '1 item'/ }],
    ['tap-21.txt', 'tap', false, 'tap', [1, 3, 1], { name: /cart labels one item/, file: 'test/cart.test.js', line: 13, message: /-1 item\n\+1 items/ }],
    ['tape-5.txt', 'tape', false, 'tape', [1, 3, 0], { name: /^cart labels one item$/, file: 'test/cart.test.js', line: 15, message: /expected: 1 item\nactual: 1 items/ }],
    ['uvu-0.5.txt', 'uvu', false, 'uvu-text', [1, 3, 1], { name: /^cart > labels one item$/, file: 'test/cart.test.js', line: 16, message: /\(Expected\)/ }],
    ['jasmine-7.txt', 'jasmine', false, 'jasmine-text', [1, 3, 1], { name: /^cart labels one item$/, file: 'spec/cartSpec.js', line: 13, message: /Expected '1 items' to be '1 item'/ }],
    ['playwright-1.65.json', 'playwright', true, 'playwright-json', [1, 3, 1], { name: /^cart › labels one item$/, file: 'tests/cart.spec.js', line: 14, message: /Expected: "1 item"\nReceived: "1 items"/ }],
    ['bun-1.4-junit.xml', 'bun', true, 'bun-junit', [1, 3, 1], { name: /^cart > labels one item$/, file: 'test/cart.test.js', line: 14, message: /Received: "1 items"/ }],
    ['bun-1.4.txt', 'bun', false, 'bun-text', [1, 3, 1], { name: /^cart > labels one item$/, file: 'test/cart.test.js', line: 14, message: /Received: "1 items"/ }],
    ['deno-2.9-junit.xml', 'deno', true, 'deno-junit', [1, 3, 1], { name: /^cart labels one item$/, file: 'test/cart_test.js', line: 13, message: /\+ '1 items'\n- '1 item'/ }],
    ['deno-2.9.txt', 'deno', false, 'deno-text', [1, 3, 1], { name: /^cart labels one item$/, file: 'test/cart_test.js', line: 12, message: /\+ '1 items'/ }],
  ];
  for (const [file, runner, asReport, format, [passed, failed, skipped], expected] of cases) {
    it(`${file}: ${format}, ${passed} passed, ${failed} failed, ${skipped} skipped, the failure named with its evidence`, () => {
      const report = recorded(file, runner, asReport);
      assert.deepEqual(report && { format: report.format, passed: report.passed, failed: report.failed, skipped: report.skipped }, { format, passed, failed, skipped });
      const found = report?.failures.find((f) => expected.name.test(f.name));
      assert.ok(found, JSON.stringify(report?.failures.map((f) => f.name)));
      if (expected.file) assert.deepEqual([found.file, found.line], [expected.file, expected.line]);
      assert.match(found.message, expected.message);
    });
  }

  it("pnpm -r test's prefixed text (pnpm 12): each package's part read on its own, exact totals, failures with their package", () => {
    const js = (name: string, dir: string, test: string): WorkspaceLayout['packages'][number] => ({ name, dir, ecosystem: 'js', dependsOn: [], scripts: { test } });
    const layout: WorkspaceLayout = { kind: 'pnpm', packages: [js('@mono/cart', 'packages/cart', 'jest'), js('@mono/labels', 'packages/labels', 'vitest run'), js('@mono/shop', 'packages/shop', 'node --test')] };
    const output = readFileSync(resolve(OUTPUTS, 'pnpm-12-recursive.txt'), 'utf8');
    assert.equal(readReport({ runner: 'other', output, root: ROOT })?.passed, 2, 'read whole, the first runner wins: the bug this fixes');
    const report = segmentedReader(layout, ROOT)({ runner: 'other' }, output, undefined);
    assert.deepEqual(report && [report.passed, report.failed], [6, 1]);
    assert.deepEqual(report?.failures.map((f) => [f.name, f.package, f.file, f.line]), [['totals prices', '@mono/cart', 'packages/cart/src/cart.test.js', 4]]);
  });
});

describe('how verdicts read', () => {
  const base: TestRunResult = { status: 'passed', passed: 0, failed: 0, skipped: 0, command: 'npm test', exitCode: 0, durationMs: 1000, failures: [], omittedFailures: 0, finishedAt: 0, fingerprint: 'f', outputTail: '' };

  it('could not run: says so, with the error and what to check, never "the tests fail"', () => {
    const text = renderRedObjection({ ...base, status: 'could_not_run', exitCode: 127, problem: 'sh: 1: jset: not found', command: 'npx --no-install jset' }, 0);
    assert.match(text, /^The test command could not run, so nothing is known about the tests/);
    assert.match(text, /check the command itself/);
    assert.match(text, /error: sh: 1: jset: not found/);
    assert.doesNotMatch(text, /tests fail/);
  });

  it('no tests ran: asks to remove a filter; packages with their own lines; checked packages named', () => {
    assert.match(renderRedObjection({ ...base, status: 'no_tests', format: 'mocha-json' }, 0), /^No tests ran on the current state.*remove it and run the tests/s);
    const text = renderRedObjection(
      {
        ...base,
        status: 'failed',
        failed: 1,
        passed: 4,
        format: 'jest-json, vitest-json',
        checked: ['@d/core', '@d/web'],
        failures: [{ name: 'adds', file: 'packages/core/a.test.js', line: 3, message: 'boom', package: '@d/core' }],
        packages: [
          { name: '@d/core', dir: 'packages/core', command: 'jest', status: 'failed', passed: 1, failed: 1, skipped: 0, exitCode: 1, durationMs: 1, format: 'jest-json', ranNow: true },
          { name: '@d/cli', dir: 'packages/cli', command: 'vitest run', status: 'passed', passed: 3, failed: 0, skipped: 0, exitCode: 0, durationMs: 1, format: 'vitest-json', ranNow: false },
        ],
        skippedPackages: [{ name: '@d/docs', dir: 'packages/docs', reason: 'no "test" script' }],
      },
      0,
    );
    assert.match(text, /Checked now: @d\/core, @d\/web/);
    assert.match(text, /- @d\/core \(packages\/core\): FAILED, 1 failed, 1 passed \(jest-json\); `jest`/);
    assert.match(text, /- @d\/cli \(packages\/cli\): passed, 0 failed, 3 passed \(vitest-json\); not rerun: unchanged since its last run/);
    assert.match(text, /- @d\/docs \(packages\/docs\): skipped, no "test" script/);
    assert.match(text, /- \[@d\/core\] adds \(packages\/core\/a\.test\.js:3\)/);
  });

  it('counts not recognised: no numbers', () => assert.match(renderTestResult({ ...base, status: 'failed' }), /^Tests FAILED: counts not recognised/));
});
