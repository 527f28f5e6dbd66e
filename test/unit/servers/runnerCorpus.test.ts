/**
 * Test runners the tests server does not drive itself, read from their real output (recorded from the
 * Debian packages of RSpec 3.12, PHPUnit 9.6, CTest 3.25 and prove 3.44 on small suites, paths
 * rewritten to /project; test/fixtures/outputs). Two rules (issue 32): a run is PASSED only with
 * positive evidence that tests ran, so each runner's "nothing ran" is `no_tests` even at exit code 0;
 * and only test ids are listed as failing tests, never a heading or a count line.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseSummary, readReport } from '../../../src/servers/tests/formats/readReport';
import { cannotStart, statusOf } from '../../../src/servers/tests/verdict';

const OUTPUTS = resolve(__dirname, '..', '..', 'fixtures', 'outputs');

function verdict(file: string, exitCode: number): { status: string; passed: number; failed: number; names: string[]; failures: { name: string; file?: string; line?: number; message: string }[] } {
  const output = readFileSync(join(OUTPUTS, file), 'utf8');
  const report = readReport({ runner: 'other', root: '/project', output });
  const status = statusOf(exitCode, false, report, cannotStart(exitCode, output, report));
  return { status, passed: report?.passed ?? 0, failed: report?.failed ?? 0, names: report?.failures.map((f) => f.name) ?? [], failures: report?.failures ?? [] };
}

interface Case {
  file: string;
  exitCode: number;
  status: string;
  passed?: number;
  failed?: number;
  names?: string[];
  source: string;
}

const CASES: Case[] = [
  { file: 'rspec-3.12-none.txt', exitCode: 0, status: 'no_tests', source: 'https://github.com/rspec/rspec-core/pull/2302 (0 examples exits 0)' },
  { file: 'rspec-3.12-pass.txt', exitCode: 0, status: 'passed', passed: 2, failed: 0, source: 'https://github.com/rspec/rspec-core/issues/73' },
  { file: 'rspec-3.12-fail.txt', exitCode: 1, status: 'failed', passed: 1, failed: 1, names: ['Calc multiplies'], source: 'https://github.com/fhsav/clock/issues/277 (the "Failed examples:" list)' },
  { file: 'phpunit-9.6-none.txt', exitCode: 0, status: 'no_tests', source: 'https://github.com/sebastianbergmann/phpunit/issues/6276 (No tests executed! exits 0)' },
  { file: 'phpunit-9.6-pass.txt', exitCode: 0, status: 'passed', passed: 2, failed: 0, source: 'https://github.com/vccw-team/vccw/issues/331 (OK (1 test, 1 assertion))' },
  { file: 'phpunit-9.6-fail.txt', exitCode: 1, status: 'failed', passed: 1, failed: 1, names: ['CalcTest::testMultiplies'], source: 'https://github.com/sebastianbergmann/phpunit/issues/4299 (There was 1 ...: Tests: N, ...)' },
  { file: 'ctest-3.25-none.txt', exitCode: 0, status: 'no_tests', source: 'https://github.com/mattias800/prosper/issues/2187; https://github.com/microsoft/vscode-cmake-tools/issues/4915' },
  { file: 'ctest-3.25-pass.txt', exitCode: 0, status: 'passed', passed: 2, failed: 0, source: 'https://github.com/project-chip/connectedhomeip/pull/37925' },
  { file: 'ctest-3.25-fail.txt', exitCode: 8, status: 'failed', passed: 1, failed: 1, names: ['multiplies'], source: 'https://github.com/open-eid/libdigidocpp/issues/684 (exit 8, Errors while running CTest)' },
  { file: 'prove-3.44-none.txt', exitCode: 0, status: 'no_tests', source: 'https://github.com/microsoft/vstest/issues/2247 (a runner that exits 0 with nothing run)' },
  { file: 'prove-3.44-pass.txt', exitCode: 0, status: 'passed', passed: 3, failed: 0, source: 'https://github.com/jestjs/jest/issues/5092' },
  { file: 'prove-3.44-fail.txt', exitCode: 1, status: 'failed', passed: 2, failed: 1, names: ['multiplies'], source: 'issue 32 ("1/3 subtests" listed as a failing test)' },
];

describe('runner corpus: nothing ran is never passed, and only tests are listed', () => {
  for (const c of CASES) {
    it(`${c.file} (exit ${c.exitCode}) is ${c.status} (${c.source})`, () => {
      const got = verdict(c.file, c.exitCode);
      assert.equal(got.status, c.status, JSON.stringify(got));
      if (c.passed !== undefined) assert.equal(got.passed, c.passed, JSON.stringify(got));
      if (c.failed !== undefined) assert.equal(got.failed, c.failed, JSON.stringify(got));
      if (c.names !== undefined) assert.deepEqual(got.names, c.names);
    });
  }

  it('a failure keeps where it is and what it said (RSpec, PHPUnit)', () => {
    const rspec = verdict('rspec-3.12-fail.txt', 1).failures[0];
    assert.equal(rspec?.file, 'spec/calc_spec.rb');
    assert.equal(rspec?.line, 6, 'the failing assertion\'s line');
    assert.match(rspec?.message ?? '', /expected: 5\s+got: 4/);
    const php = verdict('phpunit-9.6-fail.txt', 1).failures[0];
    assert.equal(php?.file, 'tests/CalcTest.php');
    assert.equal(php?.line, 5);
    assert.match(php?.message ?? '', /Failed asserting that 4 is identical to 5/);
  });

  it('lines that are not tests are never listed as failing tests', () => {
    const output = ['Failed examples:', '', 'Failed 1/3 subtests', 'FAIL Tests: There was 1 failure', 'failed: tests/widget.test.js', '2 passed, 1 failed'].join('\n');
    assert.deepEqual(parseSummary(output)?.failures.map((f) => f.name), ['tests/widget.test.js']);
  });
});
