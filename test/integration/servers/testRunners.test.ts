/**
 * The tests server on real suites: for each runner, a real project (test/fixtures/runners) run by
 * the real runner under the real server process. Red: exact counts of the whole suite, every failing
 * test named with its file and line, messages with expected and actual, `_Stop` objecting with that
 * evidence within the hook timeout. After the fix: the old result is called stale (with its age), a
 * background run started by the edit lands, and `_Stop` adopts it (no objection, no new run).
 * Runners missing on this machine are skipped with the reason in the test name.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFix, copyFixture, RUNNER_FIXTURES, type RunnerFixture } from './runnerFixtures';
import { startServer, type ServerProcess } from './serverProcess';

interface Failure {
  name: string;
  file?: string;
  line?: number;
  message: string;
}

interface LastRun {
  status: string;
  finishedAt: number;
  fingerprint: string;
  outputTail?: string;
}

function lastRun(stateDir: string): LastRun | undefined {
  const file = join(stateDir, 'last-test-run.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LastRun) : undefined;
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function checkFailures(fixture: RunnerFixture, failures: Failure[]): void {
  for (const expected of fixture.red.failures) {
    const found = failures.find((f) => expected.name.test(f.name));
    assert.ok(found, `${fixture.runner}: a failure named ${expected.name} in ${JSON.stringify(failures.map((f) => f.name))}`);
    assert.equal(found.file, expected.file, `${found.name}: file`);
    if (expected.line !== undefined) assert.equal(found.line, expected.line, `${found.name}: line`);
    for (const line of expected.message) assert.match(found.message, line, `${found.name}: message shows ${line}`);
  }
}

for (const fixture of RUNNER_FIXTURES) {
  const reason = fixture.unavailable();
  describe(`tests server on a real ${fixture.runner} suite${reason ? ` (SKIPPED: ${reason})` : ''}`, { skip: reason ?? false }, () => {
    let base: string;
    let root: string;
    let stateDir: string;
    let server: ServerProcess;
    const extra: ServerProcess[] = [];

    before(async () => {
      base = realpathSync(mkdtempSync(join(tmpdir(), `sprout-runner-${fixture.runner.replace(/\W/g, '')}-`)));
      root = join(base, 'project');
      stateDir = join(base, 'state');
      copyFixture(fixture, root);
      server = await startServer('tests', ['--root', root, '--state-dir', stateDir, '--watch-debounce-ms', '300']);
    });
    after(async () => {
      for (const s of [server, ...extra]) await s?.close().catch(() => undefined);
      rmSync(base, { recursive: true, force: true });
    });

    it('red: exact counts of the whole suite, each failing test with file, line and expected/actual', async () => {
      const result = await server.call('run_tests');
      assert.equal(result.isError, false, result.text);
      const s = result.structured as { status: string; passed: number; failed: number; skipped: number; command: string; format: string; failures: Failure[] };
      assert.ok(s, 'structured content');
      const { passed, failed, skipped } = fixture.red;
      assert.deepEqual({ status: s.status, passed: s.passed, failed: s.failed, skipped: s.skipped, command: s.command }, { status: 'failed', passed, failed, skipped, command: fixture.command });
      assert.match(s.format, fixture.format);
      checkFailures(fixture, s.failures);
      assert.match(result.text, new RegExp(`^Tests FAILED: ${fixture.red.failed} failed, ${fixture.red.passed} passed${fixture.red.skipped > 0 ? `, ${fixture.red.skipped} skipped` : ''}`));
    });

    it('_Stop on red: objects within the hook timeout, naming each failure with file:line and its message', async () => {
      // Within the hook timeout because it answers from the stored run and runs nothing: shown by the
      // stored run being the same after the call, not by how long the call took.
      const stored = lastRun(stateDir);
      const value = await server.call('_Stop');
      assert.deepEqual(lastRun(stateDir), stored, 'answered from the stored run; no run started');
      assert.match(value.text, /tests fail on the current state.*a fresh result: the run finished (just now|.* ago)/s);
      for (const f of fixture.red.failures) assert.match(value.text, new RegExp(`\\(${f.file.replace(/[.]/g, '\\.')}${f.line !== undefined ? `:${f.line}` : ''}\\)`), `names ${f.file}:${f.line}`);
      for (const line of fixture.red.failures.flatMap((f) => f.message)) assert.match(value.text, line);
      const s = value.structured as { status: string; stale: boolean; failures: Failure[] };
      assert.equal(s.status, 'failed');
      assert.equal(s.stale, false);
      checkFailures(fixture, s.failures);
    });

    it('a filter that matches no test: "no tests ran", an objection once, never a pass', async () => {
      const zeroState = join(base, 'zero-state');
      const zero = await startServer('tests', ['--root', root, '--state-dir', zeroState, '--watch', 'off', '--command', fixture.zero]);
      extra.push(zero);
      const result = await zero.call('run_tests');
      const s = result.structured as { status: string; passed: number; failed: number };
      assert.deepEqual({ status: s.status, passed: s.passed, failed: s.failed }, { status: 'no_tests', passed: 0, failed: 0 }, result.text);
      assert.match(result.text, /^NO TESTS RAN: 0 failed, 0 passed/);
      const first = await zero.call('_Stop');
      assert.match(first.text, /^No tests ran on the current state of the workspace.*remove it and run the tests/s);
      const second = await zero.call('_Stop');
      assert.equal(second.text, '', 'said once');
      assert.equal((second.structured as { status: string }).status, 'no_tests', 'still not a pass');
    });

    it('after an edit: the old result is stale (with its age), a background run lands, and _Stop adopts it', async () => {
      const red = lastRun(stateDir);
      applyFix(fixture, root);
      // A second server that may not wait at all shows what _Stop says while no fresh result exists.
      // It works on a copy of the fixed project: the run its _Stop starts must not share the project
      // with the background run (two tap runs in one folder share .tap/ and fail each other's coverage).
      const probeRoot = join(base, 'probe-project');
      cpSync(root, probeRoot, { recursive: true });
      const probeState = join(base, 'probe-state');
      mkdirSync(probeState);
      cpSync(join(stateDir, 'last-test-run.json'), join(probeState, 'last-test-run.json'));
      const probe = await startServer('tests', ['--root', probeRoot, '--state-dir', probeState, '--watch', 'off', '--hook-budget-ms', '1']);
      extra.push(probe);
      const stale = await probe.call('_Stop');
      assert.match(stale.text, /have not passed on the current state.*The last result is stale: it is from (just now|.* ago), and the workspace has changed since/s);
      assert.equal((stale.structured as { stale: boolean }).stale, true);

      // The first result for the fixed state is the verdict: a failed one fails here with its output.
      const green = await waitFor('the background run for the fixed state', () => {
        const run = lastRun(stateDir);
        return run && run.finishedAt !== red?.finishedAt && run.fingerprint !== red?.fingerprint ? run : undefined;
      });
      assert.equal(green.status, 'passed', `the background run for the fixed state: ${green.outputTail ?? ''}`);
      const value = await server.call('_Stop');
      assert.deepEqual(lastRun(stateDir), green, 'answered from the stored run; no run started');
      assert.equal(value.text, '', 'green: no objection');
      const s = value.structured as { status: string; passed: number; skipped: number; failed: number; stale: boolean };
      assert.deepEqual({ status: s.status, passed: s.passed, failed: s.failed, skipped: s.skipped, stale: s.stale }, { status: 'passed', ...fixture.green, failed: 0, stale: false });
      assert.equal(lastRun(stateDir)?.finishedAt, green.finishedAt, '_Stop used the background result instead of running again');
    });
  });
}
