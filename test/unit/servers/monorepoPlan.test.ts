/**
 * Monorepo planning, pure and on small temp trees: which root commands fan out (and to which script),
 * the packages each ecosystem's manifests declare with their dependency graph, which packages an
 * edit affects, how a plan narrows to them with the rest carried over, and the per-package
 * fingerprints that tell them apart.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runScope } from '../../../src/servers/tests/runScope';
import { fanOutScript, planSuite, workspaceCommand } from '../../../src/servers/tests/suitePlan';
import type { TestRunResult } from '../../../src/servers/tests/testResult';
import { REST, workspaceState } from '../../../src/servers/tests/workspaceFingerprint';
import { findWorkspace, packageOf, withDependants } from '../../../src/servers/tests/workspaceLayout';

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const pkg = (name: string, test?: string, deps: Record<string, string> = {}): string => JSON.stringify({ name, ...(test ? { scripts: { test } } : {}), dependencies: deps });

describe('fanOutScript: root commands that run every package', () => {
  const cases: [string, string | undefined][] = [
    ['npm test --workspaces', 'test'],
    ['npm run test --workspaces --if-present', 'test'],
    ['npm run test:unit -ws', 'test:unit'],
    ['pnpm -r test', 'test'],
    ['pnpm --recursive --no-bail run test', 'test'],
    ['pnpm run -r test', 'test'],
    ['yarn workspaces run test', 'test'],
    ['yarn workspaces foreach -A run test', 'test'],
    ['yarn workspaces foreach --all -pt run test', 'test'],
    ['turbo run test', 'test'],
    ['turbo test --continue', 'test'],
    ['npx nx run-many -t test', 'test'],
    ['nx run-many --target=test --parallel=3', 'test'],
    ['lerna run test --stream', 'test'],
    ['pnpm --filter @demo/api test', undefined],
    ['turbo run test --filter=web', undefined],
    ['pnpm -r test && echo done', undefined],
    ['npm test', undefined],
    ['jest', undefined],
  ];
  for (const [line, script] of cases) it(`${line} -> ${script ?? 'no fan-out'}`, () => assert.equal(fanOutScript(line), script));
});

describe('workspace layouts from the manifests', () => {
  let root: string;
  beforeEach(() => (root = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-layout-')))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('npm workspaces: packages by glob, names, scripts and the dependency graph; a fan-out plan skips packages without the script', () => {
    write(root, {
      'package.json': JSON.stringify({ workspaces: ['packages/*', '!packages/old'], scripts: { test: 'npm test --workspaces --if-present' } }),
      'packages/core/package.json': pkg('@d/core', 'jest'),
      'packages/web/package.json': pkg('@d/web', 'vitest run', { '@d/core': '*', react: '^19' }),
      'packages/docs/package.json': pkg('@d/docs'),
      'packages/old/package.json': pkg('@d/old', 'jest'),
    });
    const layout = findWorkspace(root);
    assert.equal(layout?.kind, 'npm');
    assert.deepEqual(layout?.packages.map((p) => [p.name, p.dir, p.dependsOn]), [
      ['@d/core', 'packages/core', []],
      ['@d/docs', 'packages/docs', []],
      ['@d/web', 'packages/web', ['@d/core']],
    ]);
    const plan = planSuite(root, 'npm test', layout);
    assert.equal(plan.kind, 'packages');
    if (plan.kind !== 'packages') return;
    assert.deepEqual(plan.runs.map((r) => [r.dir, r.command, r.binDirs]), [
      ['packages/core', 'jest', ['packages/core', 'packages', '']],
      ['packages/web', 'vitest run', ['packages/web', 'packages', '']],
    ]);
    assert.deepEqual(plan.skipped, [{ name: '@d/docs', dir: 'packages/docs', reason: 'no "test" script' }]);
    assert.deepEqual([...withDependants(layout!, new Set(['@d/core']))].sort(), ['@d/core', '@d/web']);
    assert.equal(packageOf(layout, 'packages/web/src/a.test.js')?.name, '@d/web');
    assert.equal(planSuite(root, 'npx jest', layout).kind, 'whole', 'one runner at the root runs as given');
  });

  it('pnpm-workspace.yaml, and a workspace without a root script gets the command that tests every package', () => {
    write(root, { 'package.json': '{}', 'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n", 'apps/a/package.json': pkg('a', 'node --test') });
    const layout = findWorkspace(root);
    assert.equal(layout?.kind, 'pnpm');
    assert.equal(workspaceCommand(root, layout!), 'pnpm -r test');
    assert.equal(planSuite(root, 'pnpm -r test', layout).kind, 'packages');
  });

  it('a Cargo workspace: members and path dependencies, one `cargo test --workspace`, -p when narrowed', () => {
    write(root, {
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
      'crates/a/Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\n',
      'crates/b/Cargo.toml': '[package]\nname = "b"\nversion = "0.1.0"\n[dependencies]\na = { path = "../a" }\nserde = "1"\n',
    });
    const layout = findWorkspace(root);
    assert.deepEqual(layout?.packages.map((p) => [p.name, p.dependsOn]), [['a', []], ['b', ['a']]]);
    const whole = planSuite(root, 'cargo test', layout);
    assert.deepEqual(whole.kind === 'packages' && whole.runs.map((r) => r.command), ['cargo test --workspace']);
    const narrowed = planSuite(root, 'cargo test', layout, new Set(['b']));
    assert.deepEqual(narrowed.kind === 'packages' && narrowed.runs.map((r) => r.command), ['cargo test -p b']);
  });

  it('Go modules below the root and Python projects in subfolders', () => {
    write(root, { 'svc/go.mod': 'module example.com/svc\n\nrequire example.com/lib v0.0.0\n', 'lib/go.mod': 'module example.com/lib\n' });
    const go = findWorkspace(root);
    assert.deepEqual(go?.packages.map((p) => [p.name, p.dir, p.dependsOn]), [['example.com/lib', 'lib', []], ['example.com/svc', 'svc', ['example.com/lib']]]);
    rmSync(join(root, 'svc'), { recursive: true });
    rmSync(join(root, 'lib'), { recursive: true });
    write(root, { 'one/pyproject.toml': '[project]\nname = "one"\n', 'two/setup.py': '', 'two/tests/test_x.py': 'import unittest\n' });
    const py = findWorkspace(root);
    assert.equal(py?.kind, 'python');
    assert.deepEqual(py?.packages.map((p) => p.dir), ['one', 'two']);
    const plan = planSuite(root, workspaceCommand(root, py!) ?? '', py);
    assert.deepEqual(plan.kind === 'packages' && plan.runs.map((r) => [r.dir, r.command]), [['two', 'python3 -m unittest discover -s tests']]);
    assert.deepEqual(plan.kind === 'packages' && plan.skipped.map((s) => s.dir), ['one']);
  });

  it('a single package is no workspace', () => {
    write(root, { 'package.json': pkg('solo', 'jest'), 'go.mod': 'module x\n' });
    assert.equal(findWorkspace(root), undefined);
  });
});

describe('affected packages first', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-affected-')));
    write(root, {
      'package.json': JSON.stringify({ workspaces: ['packages/*'], scripts: { test: 'npm test -ws' } }),
      'packages/core/package.json': pkg('core', 'jest'),
      'packages/core/a.js': '1',
      'packages/web/package.json': pkg('web', 'jest', { core: '*' }),
      'packages/web/b.js': '1',
      'packages/cli/package.json': pkg('cli', 'jest'),
      'packages/cli/c.js': '1',
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function lastFor(): Promise<TestRunResult> {
    const layout = findWorkspace(root)!;
    const state = await workspaceState(root, layout.packages.map((p) => p.dir));
    const packages = layout.packages.map((p) => ({ name: p.name, dir: p.dir, command: 'jest', status: 'passed' as const, passed: 1, failed: 0, skipped: 0, exitCode: 0, durationMs: 1, fingerprint: state.parts.get(p.dir) ?? '', ranNow: true }));
    return { status: 'passed', passed: 3, failed: 0, skipped: 0, command: 'npm test', exitCode: 0, durationMs: 1, failures: [], omittedFailures: 0, finishedAt: 0, fingerprint: state.fingerprint, outputTail: '', packages, restFingerprint: state.parts.get(REST) ?? '' };
  }

  it('an edit in one package reruns it and its dependants, carrying the others; a root file reruns all', async () => {
    const last = await lastFor();
    const layout = findWorkspace(root)!;
    writeFileSync(join(root, 'packages/core/a.js'), '2');
    const dirs = layout.packages.map((p) => p.dir);
    const after = await workspaceState(root, dirs);
    assert.notEqual(after.parts.get('packages/core'), last.packages?.find((p) => p.name === 'core')?.fingerprint);
    assert.equal(after.parts.get('packages/cli'), last.packages?.find((p) => p.name === 'cli')?.fingerprint, 'an untouched package keeps its fingerprint');
    const scope = runScope(root, 'npm test', layout, after, last);
    assert.deepEqual(scope.checked, ['core', 'web']);
    assert.deepEqual(scope.plan.kind === 'packages' && scope.plan.runs.map((r) => r.dir), ['packages/core', 'packages/web']);
    assert.deepEqual(scope.carried?.packages.map((p) => [p.name, p.ranNow]), [['cli', false]]);
    writeFileSync(join(root, 'jest.config.js'), 'module.exports = {};');
    const rootEdit = runScope(root, 'npm test', layout, await workspaceState(root, dirs), last);
    assert.equal(rootEdit.checked, undefined, 'a file in no package: every package again');
  });
});
