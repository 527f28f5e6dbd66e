import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastCommand, planRun, runnerOf } from '../../../src/servers/tests/runnerPlan';

describe('runnerPlan', () => {
  let dir: string;
  const report = '/state dir/reports/run-1.report';
  const script = (test: string, extra: Record<string, unknown> = {}): void =>
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test }, ...extra }));
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sprout-plan-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the runner of a command line by its last command, past env prefixes, npx and cross-env', () => {
    assert.deepEqual(lastCommand('tsc -p . && NODE_ENV=test cross-env A=1 npx jest --ci'), ['jest', '--ci']);
    assert.equal(runnerOf(lastCommand('npx --no vitest run')), 'vitest');
    assert.equal(runnerOf(lastCommand('node --test test/')), 'node');
    assert.equal(runnerOf(lastCommand('node test.js')), 'other');
    assert.equal(runnerOf(lastCommand('python3.11 -m pytest -x')), 'pytest');
    assert.equal(runnerOf(lastCommand('python -m unittest discover -s tests')), 'unittest');
    assert.equal(runnerOf(lastCommand('./node_modules/.bin/mocha')), 'mocha');
    assert.equal(runnerOf(lastCommand('jest && eslint .')), 'other');
  });

  it('asks each runner for its machine report, in a file outside the workspace, quoted', () => {
    assert.equal(planRun('npx jest', dir, report).shell, "npx jest --json --outputFile='/state dir/reports/run-1.report' --testLocationInResults");
    assert.equal(planRun('vitest run', dir, report).shell, "vitest run --reporter=default --reporter=json --outputFile.json='/state dir/reports/run-1.report'");
    assert.equal(planRun('mocha', dir, report).shell, "mocha --reporter json --reporter-option output='/state dir/reports/run-1.report'");
    const pytest = planRun('python3 -m pytest -q', dir, report);
    assert.match(pytest.shell, /^python3 -m pytest -q -rfE --tb=short --junitxml='\/state dir\/reports\/run-1\.report' -o junit_family=xunit1$/);
    assert.deepEqual(pytest.env, { COLUMNS: '200', PYTHONDONTWRITEBYTECODE: '1' });
    assert.equal(pytest.reportFile, report);
  });

  it('runs every cargo test binary and asks go for JSON, keeping harness arguments in place', () => {
    assert.equal(planRun('cargo test', dir, report).shell, 'cargo test --no-fail-fast 2>&1');
    assert.equal(planRun('cargo test --workspace -- --nocapture', dir, report).shell, 'cargo test --workspace --no-fail-fast -- --nocapture 2>&1');
    assert.equal(planRun('cargo test --no-fail-fast', dir, report).shell, 'cargo test --no-fail-fast 2>&1');
    assert.equal(planRun('go test ./...', dir, report).shell, 'go test -json ./...');
    assert.equal(planRun('go test -json ./...', dir, report).shell, 'go test -json ./...');
  });

  it('passes reporter flags to an npm test script that ends in a runner, and to nothing else', () => {
    script('tsc && jest --coverage');
    const jest = planRun('npm test', dir, report);
    assert.equal(jest.runner, 'jest');
    assert.equal(jest.shell, "npm test -- --json --outputFile='/state dir/reports/run-1.report' --testLocationInResults");
    assert.equal(planRun('npm test -- --ci', dir, report).shell, "npm test -- --ci --json --outputFile='/state dir/reports/run-1.report' --testLocationInResults");
    script('jest && eslint .');
    assert.deepEqual([planRun('npm test', dir, report).shell, planRun('npm test', dir, report).reportFile], ['npm test', undefined]);
    script('node --test');
    assert.deepEqual([planRun('npm test', dir, report).shell, planRun('npm test', dir, report).runner], ['npm test', 'node']);
  });

  it('runs pnpm and yarn scripts as they are (their argument passing differs by version) and reads the text', () => {
    script('vitest run');
    for (const pm of ['pnpm test', 'yarn test']) {
      const plan = planRun(pm, dir, report);
      assert.deepEqual([plan.shell, plan.runner, plan.reportFile], [pm, 'vitest', undefined]);
    }
  });

  it('runs unknown commands exactly as given', () => {
    const plan = planRun('make test', dir, report);
    assert.deepEqual([plan.shell, plan.runner, plan.reportFile, plan.env], ['make test', 'other', undefined, {}]);
  });
});
