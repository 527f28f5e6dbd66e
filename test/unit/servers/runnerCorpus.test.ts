/**
 * Test runners the tests server does not drive itself, read from their real output (recorded from the
 * Debian packages of RSpec 3.12, PHPUnit 9.6, CTest 3.25 and prove 3.44 on small suites, paths
 * rewritten to /project; test/fixtures/outputs). Two rules (issue 32): a run is PASSED only with
 * positive evidence that tests ran, so each runner's "nothing ran" is `no_tests` even at exit code 0;
 * and only test ids are listed as failing tests, never a heading or a count line.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planRun } from '../../../src/servers/tests/runnerPlan';
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

/** Whether a program is on PATH (the Debian packages ruby-rspec and phpunit provide these). */
function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).status === 0;
}

/** Runs `command` in `dir` as the tests server plans it and reads the result the way it does. */
function liveRun(command: string, dir: string): { plan: ReturnType<typeof planRun>; status: string; report: ReturnType<typeof readReport> } {
  const reportFile = join(dir, '.report');
  const plan = planRun(command, dir, reportFile);
  const run = spawnSync('sh', ['-c', plan.shell], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...plan.env } });
  const output = `${run.stdout}${run.stderr}`;
  const report = readReport({ runner: plan.runner, root: dir, output, ...(plan.reportFile !== undefined && existsSync(plan.reportFile) ? { report: readFileSync(plan.reportFile, 'utf8') } : {}) });
  return { plan, status: statusOf(run.status, false, report, cannotStart(run.status, output, report)), report };
}

describe('runner corpus: RSpec and PHPUnit are asked for their machine report', () => {
  const RSPEC = `RSpec.describe 'Calc' do\n  it('adds') { expect(1 + 1).to eq(2) }\n  it('multiplies') do\n    expect(2 * 2).to eq(5)\n  end\nend\n`;
  const PHPUNIT = '<?php\nuse PHPUnit\\Framework\\TestCase;\nfinal class CalcTest extends TestCase {\n    public function testAdds(): void { $this->assertSame(2, 1 + 1); }\n    public function testMultiplies(): void { $this->assertSame(5, 2 * 2); }\n}\n';

  it('rspec: its JSON report names the failing example, its assertion line and message; an empty suite is no_tests (https://github.com/rspec/rspec-core/pull/2302)', { skip: installed('rspec') ? false : 'rspec is not installed (Debian: ruby-rspec)' }, () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-rspec-')));
    try {
      mkdirSync(join(dir, 'spec'));
      const empty = liveRun('rspec', dir);
      assert.equal(empty.plan.runner, 'rspec');
      assert.equal(empty.status, 'no_tests', JSON.stringify(empty.report));
      writeFileSync(join(dir, 'spec', 'calc_spec.rb'), RSPEC);
      const red = liveRun('rspec', dir);
      assert.equal(red.report?.format, 'rspec-json');
      assert.equal(red.status, 'failed');
      assert.deepEqual([red.report?.passed, red.report?.failed], [1, 1]);
      assert.deepEqual(red.report?.failures.map((f) => [f.name, f.file, f.line]), [['Calc multiplies', 'spec/calc_spec.rb', 4]]);
      assert.match(red.report?.failures[0]?.message ?? '', /expected: 5\s+got: 4/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('phpunit: its JUnit log names the failing test with file and line; an empty suite is no_tests (https://github.com/sebastianbergmann/phpunit/issues/6276)', { skip: installed('phpunit') ? false : 'phpunit is not installed (Debian: phpunit)' }, () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-phpunit-')));
    try {
      mkdirSync(join(dir, 'tests'));
      const empty = liveRun('phpunit tests', dir);
      assert.equal(empty.plan.runner, 'phpunit');
      assert.equal(empty.status, 'no_tests', JSON.stringify(empty.report));
      writeFileSync(join(dir, 'tests', 'CalcTest.php'), PHPUNIT);
      const red = liveRun('phpunit tests', dir);
      assert.equal(red.report?.format, 'phpunit-junit');
      assert.equal(red.status, 'failed');
      assert.deepEqual([red.report?.passed, red.report?.failed], [1, 1]);
      assert.deepEqual(red.report?.failures.map((f) => [f.file, f.line]), [['tests/CalcTest.php', 5]]);
      assert.match(red.report?.failures[0]?.message ?? '', /Failed asserting that 4 is identical to 5/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bundle exec rspec and php vendor/bin/phpunit are the same runners', () => {
    assert.equal(planRun('bundle exec rspec spec/models', '/project', '/state/r').runner, 'rspec');
    assert.equal(planRun('php vendor/bin/phpunit --testsuite unit', '/project', '/state/r').runner, 'phpunit');
    assert.match(planRun('bundle exec rspec', '/project', '/state/r').shell, /--format json --out '\/state\/r'/);
    assert.match(planRun('vendor/bin/phpunit', '/project', '/state/r').shell, /--log-junit '\/state\/r'/);
  });
});
