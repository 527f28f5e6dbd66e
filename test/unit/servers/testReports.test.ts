/**
 * The tests server's reporters on real runner output: node's runner live (all three reporters), and
 * outputs recorded from the real runners on the fixtures under test/fixtures/runners, kept in
 * test/fixtures/outputs (paths rewritten to /project): formats this machine may not have (cargo 1.63's
 * panic format, pytest 7's JUnit, go 1.19's build failure) and the text each runner prints when the
 * server cannot ask for its machine format (a compound npm script, pnpm, make).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readReport, type RunnerId } from '../../../src/servers/tests/formats/readReport';
import type { ParsedTestReport } from '../../../src/servers/tests/testResult';

const OUTPUTS = resolve(__dirname, '..', '..', 'fixtures', 'outputs');
const ROOT = '/project';

const SUITE = `
const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
test('subtracts', () => assert.equal(2 - 1, 1));
test('multiplies', () => assert.equal(2 * 2, 5, 'multiplication is broken'));
test.describe('group', () => { test.it('inner fails', () => { throw new Error('boom\\nsecond line'); }); });
`;

function recorded(name: string, runner: RunnerId = 'other', asReport = false): ParsedTestReport | undefined {
  const text = readFileSync(join(OUTPUTS, name), 'utf8');
  return readReport({ runner, root: ROOT, output: asReport ? '' : text, ...(asReport ? { report: text } : {}) });
}

function summary(report: ParsedTestReport | undefined): unknown {
  assert.ok(report, 'recognised');
  return { format: report.format, passed: report.passed, failed: report.failed, skipped: report.skipped };
}

function failure(report: ParsedTestReport | undefined, name: RegExp): { name: string; file?: string; line?: number; message: string } {
  const found = report?.failures.find((f) => name.test(f.name));
  assert.ok(found, `a failure named ${name} in ${JSON.stringify(report?.failures.map((f) => f.name))}`);
  return found;
}

describe('test reports: node test runner, live', () => {
  let dir: string;
  const runNode = (reporter: string, ...args: string[]): string => {
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, ...args], { cwd: dir, encoding: 'utf8', env });
    return run.stdout + run.stderr;
  };
  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-parse-')));
    writeFileSync(join(dir, 'math.test.js'), SUITE);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const reporter of ['tap', 'spec', 'junit']) {
    it(`reads the ${reporter} reporter: counts, names, messages, and (tap/spec) the file and line`, () => {
      const report = readReport({ runner: 'node', output: runNode(reporter), root: dir });
      assert.ok(report, 'recognised');
      assert.equal(report.passed, 2);
      assert.equal(report.failed, 2);
      const names = report.failures.map((f) => f.name).join('|');
      assert.match(names, /multiplies/);
      assert.match(names, /inner fails/);
      assert.doesNotMatch(names, /(^|\|)group$/, 'the suite roll-up is not a failure of its own');
      const multiplies = failure(report, /multiplies/);
      assert.match(multiplies.message, /multiplication is broken/);
      if (reporter !== 'junit') {
        assert.deepEqual([multiplies.file, multiplies.line], ['math.test.js', 6]);
        assert.match(multiplies.message, /expected: 5\nactual: 4/, 'the values behind a custom message');
      }
      if (reporter !== 'junit') assert.equal(failure(report, /inner fails/).name, 'group > inner fails');
    });

    it(`the ${reporter} reporter with a name pattern that matches nothing: no test counted (Node 22 reports each file as a passing entry)`, () => {
      const report = readReport({ runner: 'node', output: runNode(reporter, '--test-name-pattern=no-such-test'), root: dir });
      assert.ok(report, 'recognised');
      assert.deepEqual([report.passed, report.failed], [0, 0]);
    });
  }
});

describe('test reports: recorded real output', () => {
  it('cargo 1.63 (Debian): the old panic format, summed over every test binary', () => {
    const report = recorded('cargo-1.63.txt');
    assert.deepEqual(summary(report), { format: 'cargo', passed: 1, failed: 4, skipped: 1 });
    const totals = failure(report, /^tests::totals_prices$/);
    assert.deepEqual([totals.file, totals.line], ['src/lib.rs', 22]);
    assert.match(totals.message, /left: `12`,\n\s*right: `11`/);
    assert.deepEqual([failure(report, /^src\/lib\.rs - total/).file, failure(report, /^src\/lib\.rs - total/).line], ['src/lib.rs', 5]);
    assert.equal(failure(report, /^labels_one_item$/).file, 'tests/labels.rs');
  });

  it('cargo: a compile error is a problem with its file and line, not a pass', () => {
    const report = recorded('cargo-compile-error.txt', 'cargo');
    assert.ok(report);
    assert.equal(report.failed, 0, 'no test ran');
    const error = failure(report, /^compile error E0308: mismatched types$/);
    assert.deepEqual([error.file, error.line], ['src/lib.rs', 13]);
    assert.match(error.message, /expected `u32`, found `&str`/);
  });

  it('go 1.19 -json: leaf tests counted, a package that does not build is named with its error', () => {
    const report = recorded('go-1.19-build-failed.jsonl', 'go');
    assert.deepEqual(summary(report), { format: 'go-json', passed: 0, failed: 2, skipped: 1 });
    const total = failure(report, /^example\.com\/cart TestTotal$/);
    assert.deepEqual([total.file, total.line], ['cart_test.go', 7]);
    const build = failure(report, /^build error: undefined: undefinedHelper$/);
    assert.deepEqual([build.file, build.line], ['format/broken_test.go', 5]);
  });

  it('pytest 7.2 (Debian) JUnit: node ids, lines of the failing assert, assertion diffs', () => {
    const report = recorded('pytest-7.2-junit.xml', 'pytest', true);
    assert.deepEqual(summary(report), { format: 'pytest-junit', passed: 1, failed: 3, skipped: 1 });
    const labels = failure(report, /^tests\/test_cart\.py::test_labels\[1-1 item\]$/);
    assert.deepEqual([labels.file, labels.line], ['tests/test_cart.py', 12]);
    assert.match(labels.message, /'1 items' == '1 item'/);
  });

  it('pytest default output (80 columns): messages from the FAILURES section, not the cut summary', () => {
    const report = recorded('pytest-default.txt');
    assert.deepEqual(summary(report), { format: 'pytest-text', passed: 1, failed: 3, skipped: 1 });
    const labels = failure(report, /^tests\/test_cart\.py::test_labels\[1-1 item\]$/);
    assert.equal(labels.line, 12);
    assert.match(labels.message, /assert '1 items' == '1 item'\n[\s\S]*- 1 item\n\s*\+ 1 items/);
    assert.match(failure(report, /test_totals_prices$/).message, /assert 12 == 11/);
  });

  it('unittest: FAIL blocks with the test method frame and the assertion, counts from the summary', () => {
    const report = recorded('unittest-3.11.txt');
    assert.deepEqual(summary(report), { format: 'unittest', passed: 1, failed: 3, skipped: 1 });
    const one = failure(report, /CartTest\.test_labels_one_item$/);
    assert.deepEqual([one.file, one.line], ['tests/test_cart.py', 14]);
    assert.match(one.message, /^AssertionError: '1 items' != '1 item'\n- 1 items/);
  });

  it('jest text: whole messages past blank lines (Expected/Received), files, and a file that does not load', () => {
    const report = recorded('jest-text.txt');
    assert.deepEqual(summary(report), { format: 'jest-text', passed: 1, failed: 4, skipped: 1 });
    const totals = failure(report, /^cart › totals prices$/);
    assert.deepEqual([totals.file, totals.line], ['src/cart.test.js', 5]);
    assert.match(totals.message, /Expected: 11\nReceived: 12/);
    assert.match(failure(report, /^src\/broken\.test\.js \(test file failed to run\)$/).message, /^SyntaxError: .*broken\.test\.js: Unexpected token/);
  });

  it('vitest text: FAIL blocks with their diff, and a suite that does not load', () => {
    const report = recorded('vitest-text.txt');
    assert.deepEqual(summary(report), { format: 'vitest-text', passed: 1, failed: 4, skipped: 1 });
    assert.match(failure(report, /^src\/cart\.test\.js > cart > labels one item$/).message, /Expected: "1 item"\nReceived: "1 items"/);
    assert.match(failure(report, /^src\/broken\.test\.js \(test file failed to run\)$/).message, /Failed to parse source/);
  });

  it('mocha spec: numbered failures with their titles, files and diffs', () => {
    const report = recorded('mocha-spec.txt');
    assert.deepEqual(summary(report), { format: 'mocha-text', passed: 1, failed: 3, skipped: 1 });
    const one = failure(report, /^cart labels one item$/);
    assert.deepEqual([one.file, one.line], ['test/cart.spec.js', 14]);
    assert.match(one.message, /\+ '1 items'\n- '1 item'/);
    assert.equal(failure(report, /^an empty cart costs nothing$/).file, 'test/empty.spec.js');
  });

  it("node's runner: a test file that does not load shows what it printed (TAP and spec)", () => {
    for (const name of ['node-tap-load-error.txt', 'node-spec-load-error.txt']) {
      const report = recorded(name, 'node');
      assert.equal(report?.failed, 4, name);
      const broken = failure(report, /test\/broken\.test\.js$/);
      assert.equal(broken.file, 'test/broken.test.js', name);
      assert.match(broken.message, /SyntaxError: Unexpected end of input/, name);
    }
  });

  it("node 24's default spec output: suite paths, the assertion's line, expected and actual", () => {
    const report = recorded('node-24-spec.txt', 'node');
    assert.deepEqual(summary(report), { format: 'node-spec', passed: 1, failed: 3, skipped: 1 });
    const one = failure(report, /^cart > labels one item$/);
    assert.deepEqual([one.file, one.line], ['test/cart.test.js', 15]);
    assert.match(one.message, /\+ '1 items'\n- '1 item'/);
    assert.equal(failure(report, /^an empty cart costs nothing$/).file, 'test/empty.test.js');
  });

  it('says nothing about output it does not understand', () => {
    assert.equal(readReport({ runner: 'other', output: 'Segmentation fault (core dumped)\n', root: ROOT }), undefined);
  });
});
