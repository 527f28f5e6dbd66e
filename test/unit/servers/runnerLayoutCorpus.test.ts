/**
 * Test runners and workspace layouts nobody here had named (issue 32, second half of the runner
 * corpus; runnerCorpus.test.ts has RSpec, PHPUnit, CTest and prove). Each case cites the public report
 * it comes from. Outputs under test/fixtures/outputs were recorded from the real runners on small
 * suites (Jest 30.5, Vitest 4.1 with its colours, Mocha 12, pytest 9.0, Go 1.19, cargo 1.95, Node 22,
 * ESLint 10, Maven 3.8 with Surefire 3.2 and JUnit 5.11, CTest 3.25), paths rewritten to /project;
 * `dotnet-8-none.txt` is transcribed from the report it cites (dotnet is not installed here). Where the
 * runner is installed (pytest, CTest) the case runs it live through the server's own command runner.
 *
 * The rules these cases hold the server to:
 * - a run is PASSED only with positive evidence that tests ran: each runner's own "nothing ran" is
 *   `no_tests`, whatever its exit code;
 * - only test ids are listed as failing tests (a linter's "1 problem" is not a test);
 * - commands run through the package manager that owns the workspace (Yarn PnP has no
 *   node_modules/.bin, so `jest` runs as `yarn jest`, configured or detected);
 * - a runner is asked for its machine report where it has one (CTest `--output-junit`), and the JUnit
 *   XML a configured command leaves (its own `--junitxml`/`--output-junit`, Surefire's
 *   target/surefire-reports) is read, and left where the user wanted it;
 * - a runner whose default is watch mode is run once (CI=true), never left waiting for file changes;
 * - a build tool's or task runner's "nothing to do" (Gradle UP-TO-DATE, a turbo or nx cache replay with
 *   its output suppressed) is not a run, and its task ids (`web#test`) are not tests; the project's own
 *   pytest configuration naming a JUnit file is the user's report, as a `--junitxml` on the command is.
 *   Third round: 0 of the 7 cases (Gradle ×2, turbo ×2, nx, pytest addopts ×2) passed on first contact.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planRun } from '../../../src/servers/tests/runnerPlan';
import { detectTestCommand } from '../../../src/servers/tests/detectTestCommand';
import { readReport, type RunnerId } from '../../../src/servers/tests/formats/readReport';
import { cannotStart, statusOf } from '../../../src/servers/tests/verdict';
import { startCommandRun, type CommandOutcome } from '../../../src/servers/tests/testRun';
import { readLeftReports } from '../../../src/servers/tests/leftReports';

const OUTPUTS = resolve(__dirname, '..', '..', 'fixtures', 'outputs');

interface Verdict {
  status: string;
  passed: number;
  failed: number;
  names: string[];
}

function verdict(file: string, exitCode: number, runner: RunnerId): Verdict {
  const output = readFileSync(join(OUTPUTS, file), 'utf8');
  const report = readReport({ runner, root: '/project', output });
  const status = statusOf(exitCode, false, report, cannotStart(exitCode, output, report));
  return { status, passed: report?.passed ?? 0, failed: report?.failed ?? 0, names: report?.failures.map((f) => f.name) ?? [] };
}

interface OutputCase {
  file: string;
  exitCode: number;
  /** The runner the server plans for the command that printed it. */
  runner: RunnerId;
  status: string;
  passed?: number;
  failed?: number;
  names?: string[];
  source: string;
}

const OUTPUT_CASES: OutputCase[] = [
  { file: 'jest-30-none.txt', exitCode: 0, runner: 'jest', status: 'no_tests', source: 'https://github.com/jestjs/jest/issues/8594 (--passWithNoTests exits 0 with nothing run)' },
  { file: 'vitest-4.1-none-ansi.txt', exitCode: 0, runner: 'vitest', status: 'no_tests', source: 'https://github.com/vitest-dev/vitest/issues/3041 (No test files found, exiting with code 0)' },
  { file: 'vitest-4.1-fail-ansi.txt', exitCode: 1, runner: 'vitest', status: 'failed', passed: 1, failed: 1, names: ['calc.test.js > multiplies'], source: 'https://github.com/ohdearquant/khive/pull/2410 (coloured output must still be read)' },
  { file: 'mocha-12-none.txt', exitCode: 0, runner: 'mocha', status: 'no_tests', source: 'https://github.com/chaijs/chai/issues/1301 ("0 passing" at exit 0)' },
  { file: 'pytest-9.0-deselected.txt', exitCode: 5, runner: 'pytest', status: 'no_tests', source: 'https://github.com/GetStream/stream-py/pull/257 (all deselected, exit 5)' },
  { file: 'go-1.19-norun.txt', exitCode: 0, runner: 'go', status: 'no_tests', source: 'https://github.com/golang/go/issues/64500 (-run matches nothing: ok ... [no tests to run])' },
  { file: 'go-1.19-norun.jsonl', exitCode: 0, runner: 'go', status: 'no_tests', source: 'https://github.com/mikkelchokolate/Veil/issues/367 (the same through go test -json)' },
  { file: 'go-1.19-notestfiles.txt', exitCode: 0, runner: 'go', status: 'no_tests', source: 'https://github.com/golang/go/issues/39426 ([no test files] exits 0)' },
  { file: 'cargo-1.95-zero.txt', exitCode: 0, runner: 'cargo', status: 'no_tests', source: 'https://github.com/anthropics/claude-code/issues/3929 (running 0 tests read as success)' },
  { file: 'node-22-none-tap.txt', exitCode: 0, runner: 'node', status: 'no_tests', source: 'https://github.com/abstxn/lunch-uncle/issues/22 (node --test: tests 0, exit 0)' },
  { file: 'surefire-3.2-none.txt', exitCode: 0, runner: 'other', status: 'no_tests', source: 'https://github.com/apache/maven-surefire/issues/1290 (Tests run: 0 ... BUILD SUCCESS)' },
  { file: 'surefire-3.2-fail.txt', exitCode: 1, runner: 'other', status: 'failed', passed: 1, failed: 1, names: ['CalcTest.multiplies'], source: 'https://github.com/apache/maven-surefire/issues/1384 (Tests run: N, Failures: N; not "Tests run:" as a test)' },
  { file: 'dotnet-8-none.txt', exitCode: 0, runner: 'other', status: 'no_tests', source: 'https://github.com/microsoft/vstest/issues/479 (No test is available in ..., exit 0)' },
  // Neighbours added after the fixes (not in the first-contact count): the same runners without --passWithNoTests.
  { file: 'jest-30-none-exit1.txt', exitCode: 1, runner: 'jest', status: 'no_tests', source: 'https://github.com/react/create-react-app/issues/5283 (No tests found, exiting with code 1)' },
  { file: 'vitest-4.1-none-exit1.txt', exitCode: 1, runner: 'vitest', status: 'no_tests', source: 'https://github.com/SocketDev/socket-sdk-js/pull/598 (No test files found, exit 1)' },
  { file: 'mocha-12-nofiles.txt', exitCode: 1, runner: 'mocha', status: 'no_tests', source: 'https://github.com/js-primer/js-primer/issues/723 (Error: No test files found: "test")' },
  { file: 'eslint-10-lint-fails.txt', exitCode: 1, runner: 'jest', status: 'error', names: [], source: 'https://github.com/keystonejs/generator-keystone/issues/202 (a test script that lints first fails on lint)' },
  // Build tools and monorepo task runners (third round; transcribed from the reports they cite, since
  // Gradle, turbo and nx are not installed here): a cache or an up-to-date check is not a run, and a
  // task id is not a test.
  { file: 'gradle-8-uptodate.txt', exitCode: 0, runner: 'other', status: 'no_tests', source: 'https://github.com/PocketShell-io/pocketshell/issues/1646 (test tasks UP-TO-DATE / NO-SOURCE, BUILD SUCCESSFUL with zero tests executed)' },
  { file: 'gradle-8-fail.txt', exitCode: 1, runner: 'other', status: 'failed', passed: 1, failed: 1, names: ['CalcTest > multiplies()'], source: 'https://github.com/microsoft/azure-pipelines-tasks/issues/961 ("57 tests completed, 4 failed", "There were failing tests")' },
  { file: 'turbo-2-cached-suppressed.txt', exitCode: 0, runner: 'other', status: 'no_tests', source: 'https://github.com/vercel/next.js/pull/93355 ("cache hit, suppressing logs": a replayed pass, no test ran; https://github.com/synnaxlabs/synnax/pull/2465)' },
  { file: 'turbo-2-vitest-fail.txt', exitCode: 1, runner: 'other', status: 'failed', names: ['src/calc.test.ts > multiplies'], source: 'https://github.com/votingworks/vxsuite/pull/9296 (turbo\'s `pkg:task: ` prefix on every line; `Failed: pkg#task` is a task, not a test)' },
  { file: 'nx-19-cached.txt', exitCode: 0, runner: 'other', status: 'no_tests', source: 'https://github.com/brimdata/zui/pull/2865 ("Nx read the output from the cache instead of running the command for 6 out of 6 tasks")' },
  // Neighbours added after those fixes (not in the first-contact count).
  { file: 'gradle-8-fromcache.txt', exitCode: 0, runner: 'other', status: 'no_tests', source: 'https://github.com/PocketShell-io/pocketshell/issues/1646 (FROM-CACHE: no test executed, no report written)' },
  { file: 'nx-19-vitest-fail.txt', exitCode: 1, runner: 'other', status: 'failed', passed: 1, failed: 1, names: ['src/calc.test.ts > multiplies'], source: 'https://github.com/brimdata/zui/pull/2865 (nx\'s `✖  nx run web:test` is a task, not a test)' },
];

describe('runner corpus: each runner\'s "nothing ran" is no_tests, and only tests are listed', () => {
  for (const c of OUTPUT_CASES) {
    it(`${c.file} (exit ${c.exitCode}) is ${c.status} (${c.source})`, () => {
      const got = verdict(c.file, c.exitCode, c.runner);
      assert.equal(got.status, c.status, JSON.stringify(got));
      if (c.passed !== undefined) assert.equal(got.passed, c.passed, JSON.stringify(got));
      if (c.failed !== undefined) assert.equal(got.failed, c.failed, JSON.stringify(got));
      if (c.names !== undefined) assert.deepEqual(got.names, c.names);
    });
  }
});

function tempProject(prefix: string, files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('layout corpus: commands run through the package manager that owns the workspace', () => {
  const PNP = { 'package.json': JSON.stringify({ name: 'app', packageManager: 'yarn@4.5.0' }), '.pnp.cjs': '// Yarn Plug\'n\'Play runtime\n', 'yarn.lock': '', '.yarnrc.yml': 'nodeLinker: pnp\n' };

  it('Yarn PnP, a configured `jest`: runs as `yarn jest` (no node_modules/.bin) with its JSON report (https://github.com/kavod-io/vscode-jest-test-adapter/issues/138)', () => {
    const dir = tempProject('sprout-pnp-', PNP);
    try {
      const plan = planRun('jest --ci', dir, '/state/r');
      assert.equal(plan.runner, 'jest');
      assert.match(plan.shell, /^yarn jest --ci --json --outputFile='\/state\/r'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Yarn PnP, a configured `npx vitest run` in a package folder: runs as `yarn vitest run` (https://github.com/firsttris/vscode-jest-runner/issues/110)', () => {
    const dir = tempProject('sprout-pnp-', { ...PNP, 'packages/web/package.json': JSON.stringify({ name: 'web' }) });
    try {
      const plan = planRun('npx vitest run', join(dir, 'packages', 'web'), '/state/r');
      assert.equal(plan.runner, 'vitest');
      assert.match(plan.shell, /^yarn vitest run /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Yarn PnP, a jest config and no test script: the detected command is `yarn jest`, not npx (https://github.com/jest-community/vscode-jest/issues/780)', () => {
    const dir = tempProject('sprout-pnp-', { ...PNP, 'jest.config.js': 'module.exports = {};\n' });
    try {
      assert.equal(detectTestCommand(dir), 'yarn jest');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pnpm, a vitest config and no test script: the detected command is `pnpm exec vitest run` (https://github.com/pnpm/pnpm/issues/5176)', () => {
    const dir = tempProject('sprout-pnpm-', { 'package.json': JSON.stringify({ name: 'app' }), 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n", 'vitest.config.ts': 'export default {};\n' });
    try {
      assert.equal(detectTestCommand(dir), 'pnpm exec vitest run');
      assert.equal(planRun('pnpm exec vitest run', dir, '/state/r').runner, 'vitest');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a test script whose runner watches by default (react-scripts test) runs once: CI=true (https://github.com/react/create-react-app/issues/1137)', () => {
    const dir = tempProject('sprout-cra-', { 'package.json': JSON.stringify({ name: 'app', scripts: { test: 'react-scripts test' } }) });
    try {
      assert.equal(planRun('npm test', dir, '/state/r').env.CI, 'true');
      assert.equal(planRun('npx react-scripts test --env=jsdom', dir, '/state/r').env.CI, 'true');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).status === 0;
}

async function run(command: string, cwd: string, stateDir: string): Promise<CommandOutcome> {
  return startCommandRun({ cwd, command, timeoutMs: 120_000, reportDir: join(stateDir, 'reports') }).outcome;
}

const PYTEST = 'def test_adds():\n    assert 1 + 1 == 2\n\n\ndef test_multiplies():\n    assert 2 * 2 == 5\n';
const CMAKE = ['cmake_minimum_required(VERSION 3.13)', 'project(calc NONE)', 'enable_testing()', 'add_test(NAME adds COMMAND sh -c "test 2 -eq 2")', 'add_test(NAME multiplies COMMAND sh -c "echo expected 5 got 4; test 4 -eq 5")', ''].join('\n');
const hasPytest = spawnSync('python3', ['-c', 'import pytest'], { encoding: 'utf8' }).status === 0;

describe('report corpus: machine reports asked for, and the JUnit XML a configured command leaves is read', () => {
  it('pytest with its own --junitxml: the user\'s file is the report, written where they asked and kept (https://github.com/kondratyev-nv/vscode-python-test-adapter/issues/172)', { skip: hasPytest ? false : 'pytest is not installed (Debian: python3-pytest)' }, async () => {
    const dir = tempProject('sprout-pyjunit-', { 'test_calc.py': PYTEST });
    const state = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-state-')));
    try {
      const outcome = await run('python3 -m pytest -p no:cacheprovider --junitxml=reports/junit.xml', dir, state);
      assert.equal(outcome.status, 'failed');
      assert.equal(outcome.report?.format, 'pytest-junit');
      assert.deepEqual([outcome.report?.passed, outcome.report?.failed], [1, 1]);
      assert.equal(outcome.report?.failures[0]?.file, 'test_calc.py');
      assert.ok(existsSync(join(dir, 'reports', 'junit.xml')), 'the report the user asked for is still there');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('pytest with `addopts = --junitxml=...` in the project\'s pytest.ini: that file is the report, written where the project asked and kept (https://github.com/pytest-dev/pytest/issues/3072)', { skip: hasPytest ? false : 'pytest is not installed (Debian: python3-pytest)' }, async () => {
    const dir = tempProject('sprout-pyaddopts-', { 'test_calc.py': PYTEST, 'pytest.ini': '[pytest]\naddopts = -p no:cacheprovider --junitxml=reports/ci.xml\n' });
    const state = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-state-')));
    try {
      const outcome = await run('python3 -m pytest', dir, state);
      assert.equal(outcome.status, 'failed');
      assert.deepEqual([outcome.report?.passed, outcome.report?.failed], [1, 1]);
      assert.equal(outcome.report?.failures[0]?.file, 'test_calc.py');
      assert.ok(existsSync(join(dir, 'reports', 'ci.xml')), 'the report the project asks for in its addopts is written, as in CI');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('pytest with `addopts` naming --junitxml in pyproject.toml: the same (https://github.com/pantsbuild/pants/pull/16614)', { skip: hasPytest ? false : 'pytest is not installed (Debian: python3-pytest)' }, async () => {
    const dir = tempProject('sprout-pyproject-', { 'test_calc.py': PYTEST, 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider --junitxml=build/junit.xml"\n' });
    const state = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-state-')));
    try {
      const outcome = await run('python3 -m pytest', dir, state);
      assert.equal(outcome.status, 'failed');
      assert.deepEqual([outcome.report?.passed, outcome.report?.failed], [1, 1]);
      assert.ok(existsSync(join(dir, 'build', 'junit.xml')), 'the report pyproject.toml asks for is written');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('ctest (>= 3.21) is asked for --output-junit: the failing test, its output as the message (https://github.com/microsoft/vscode-cmake-tools/issues/4336)', { skip: installed('cmake') && installed('ctest') ? false : 'cmake/ctest are not installed (Debian: cmake)' }, async () => {
    const dir = tempProject('sprout-ctest-', { 'CMakeLists.txt': CMAKE });
    const state = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-state-')));
    try {
      assert.equal(spawnSync('cmake', ['-S', '.', '-B', 'build'], { cwd: dir, encoding: 'utf8' }).status, 0);
      const outcome = await run('ctest --test-dir build', dir, state);
      assert.equal(outcome.report?.format, 'ctest-junit');
      assert.equal(outcome.status, 'failed');
      assert.deepEqual([outcome.report?.passed, outcome.report?.failed], [1, 1]);
      assert.deepEqual(outcome.report?.failures.map((f) => f.name), ['multiplies']);
      assert.match(outcome.report?.failures[0]?.message ?? '', /expected 5 got 4/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('ctest with its own --output-junit: that file is read and kept (https://github.com/pika-org/pika/pull/1335)', { skip: installed('cmake') && installed('ctest') ? false : 'cmake/ctest are not installed (Debian: cmake)' }, async () => {
    const dir = tempProject('sprout-ctest-', { 'CMakeLists.txt': CMAKE });
    const state = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-state-')));
    try {
      assert.equal(spawnSync('cmake', ['-S', '.', '-B', 'build'], { cwd: dir, encoding: 'utf8' }).status, 0);
      const outcome = await run('cd build && ctest --output-junit results.xml', dir, state);
      assert.equal(outcome.status, 'failed');
      assert.deepEqual(outcome.report?.failures.map((f) => f.name), ['multiplies']);
      assert.ok(existsSync(join(dir, 'build', 'results.xml')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('Surefire\'s XML left in target/surefire-reports by `mvn test` is read: the failing test with its file and message (https://github.com/SonarOpenCommunity/sonar-cxx/issues/2404)', () => {
    const dir = tempProject('sprout-mvn-', { 'pom.xml': '<project/>\n', 'src/test/java/calc/CalcTest.java': 'package calc;\n' });
    try {
      const before = Date.now() - 1000;
      mkdirSync(join(dir, 'target', 'surefire-reports'), { recursive: true });
      copyFileSync(join(OUTPUTS, 'surefire-3.2-TEST-calc.CalcTest.xml'), join(dir, 'target', 'surefire-reports', 'TEST-calc.CalcTest.xml'));
      const report = readLeftReports('mvn -B test', dir, before);
      assert.equal(report?.format, 'surefire-junit');
      assert.deepEqual([report?.passed, report?.failed], [1, 1]);
      assert.equal(report?.failures[0]?.name, 'calc.CalcTest > multiplies');
      assert.equal(report?.failures[0]?.file, 'src/test/java/calc/CalcTest.java');
      assert.equal(report?.failures[0]?.line, 6);
      assert.match(report?.failures[0]?.message ?? '', /expected: <5> but was: <4>/);
      assert.equal(readLeftReports('mvn -B test', dir, Date.now() + 60_000), undefined, 'a report older than the run is not this run\'s');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
