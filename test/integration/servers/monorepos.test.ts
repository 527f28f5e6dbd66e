/**
 * The tests server on real monorepos (test/fixtures/monorepos), each run by its real runners under
 * the real server process: npm and pnpm workspaces whose root script fans out (jest, vitest and
 * node's runner side by side, a package with no test script), vitest and jest `projects` roots, a
 * Cargo workspace, Go modules and two Python projects. Green: exact merged totals and each package's
 * own. Then a red test in each package in turn: one failure, named with its package and its file
 * relative to the root, `_Stop` objecting with both. Runners missing here skip with the reason.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, startServer, type ServerProcess } from './serverProcess';

interface Break {
  package: string;
  file: string;
  from: string;
  to: string;
  failure: { name: RegExp; line: number };
}

export interface MonorepoFixture {
  name: string;
  command: string;
  /** Each package's own test count when green (run by the server's plan). */
  packages: Record<string, number>;
  skipped?: string[];
  breaks: Break[];
  needs?: [string, string[]];
  prepare?: (dir: string) => void;
}

const linkNodeModules = (dir: string): void => symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));

const JS_BREAKS: Break[] = [
  { package: '@mono/cart', file: 'packages/cart/src/cart.test.js', from: 'toBe(11)', to: 'toBe(12)', failure: { name: /^totals prices$/, line: 4 } },
  { package: '@mono/labels', file: 'packages/labels/src/label.test.js', from: "toBe('3 items')", to: "toBe('3 things')", failure: { name: /labels many items$/, line: 9 } },
  { package: '@mono/shop', file: 'packages/shop/test/checkout.test.js', from: ', 6)', to: ', 7)', failure: { name: /^checkout charges the cart total$/, line: 6 } },
];

export const MONOREPOS: MonorepoFixture[] = [
  { name: 'npm-workspaces', command: 'npm test', packages: { '@mono/cart': 3, '@mono/labels': 2, '@mono/shop': 2 }, skipped: ['@mono/docs'], breaks: JS_BREAKS, prepare: linkNodeModules },
  {
    name: 'pnpm-workspaces',
    command: 'npm test',
    packages: { '@mono/cart': 3, '@mono/labels': 2, '@mono/shop': 2 },
    skipped: ['@mono/docs'],
    breaks: JS_BREAKS,
    // The same packages as the npm fixture, declared by pnpm-workspace.yaml and fanned out by `pnpm -r test`.
    prepare: (dir) => {
      cpSync(join(REPO_ROOT, 'test', 'fixtures', 'monorepos', 'npm-workspaces', 'packages'), join(dir, 'packages'), { recursive: true });
      linkNodeModules(dir);
    },
  },
  {
    name: 'vitest-projects',
    command: 'npm test',
    packages: { '@vp/cart': 2, '@vp/labels': 3 },
    breaks: [
      { package: '@vp/cart', file: 'packages/cart/src/cart.test.js', from: 'toBe(11)', to: 'toBe(12)', failure: { name: /totals prices$/, line: 5 } },
      { package: '@vp/labels', file: 'packages/labels/src/label.test.js', from: "toBe('0 items')", to: "toBe('no items')", failure: { name: /labels no items$/, line: 13 } },
    ],
    prepare: linkNodeModules,
  },
  {
    name: 'jest-projects',
    command: 'npm test',
    packages: { '@jp/cart': 3, '@jp/labels': 2 },
    breaks: [
      { package: '@jp/cart', file: 'packages/cart/src/cart.test.js', from: 'toBe(11)', to: 'toBe(12)', failure: { name: /^totals prices$/, line: 4 } },
      { package: '@jp/labels', file: 'packages/labels/src/label.test.js', from: "toBe('1 item')", to: "toBe('one item')", failure: { name: /^labels one item$/, line: 4 } },
    ],
    prepare: linkNodeModules,
  },
  {
    name: 'cargo-workspace',
    command: 'cargo test',
    packages: { 'mono-cart': 2, 'mono-shop': 3 },
    needs: ['cargo', ['--version']],
    breaks: [
      { package: 'mono-cart', file: 'crates/cart/src/lib.rs', from: '[6, 5]), 11', to: '[6, 5]), 12', failure: { name: /^tests::totals_prices$/, line: 11 } },
      { package: 'mono-shop', file: 'crates/shop/tests/checkout.rs', from: '"charged 6"', to: '"charged 7"', failure: { name: /^checkout_charges_the_total$/, line: 3 } },
    ],
    prepare: (dir) => execFileSync('cargo', ['generate-lockfile', '--offline'], { cwd: dir, stdio: 'ignore' }),
  },
  {
    name: 'go-modules',
    command: 'go test ./... (in each module)',
    packages: { 'example.com/cart': 2, 'example.com/shop': 3 },
    needs: ['go', ['version']],
    breaks: [
      { package: 'example.com/cart', file: 'cart/cart_test.go', from: 'got != 11', to: 'got != 12', failure: { name: /TestTotal$/, line: 7 } },
      { package: 'example.com/shop', file: 'shop/shop_test.go', from: 'got != "charged 6"', to: 'got != "charged 7"', failure: { name: /TestCheckout$/, line: 7 } },
    ],
  },
  {
    name: 'python-projects',
    command: 'python tests (in each project)',
    packages: { billing: 2, inventory: 3 },
    needs: ['python3', ['-c', 'import pytest']],
    breaks: [
      { package: 'billing', file: 'billing/tests/test_billing.py', from: '== 11', to: '== 12', failure: { name: /test_totals_prices$/, line: 5 } },
      { package: 'inventory', file: 'inventory/tests/test_inventory.py', from: '"3 items")', to: '"3 things")', failure: { name: /test_many_items$/, line: 11 } },
    ],
  },
];

interface Structured {
  status: string;
  passed: number;
  failed: number;
  command: string;
  failures: { name: string; file?: string; line?: number; package?: string }[];
  packages?: { name: string; status: string; passed: number; failed: number }[];
  skippedPackages?: { name: string }[];
}

export function copyMonorepo(fixture: MonorepoFixture, dir: string): void {
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'monorepos', fixture.name), dir, { recursive: true });
  fixture.prepare?.(dir);
}

export function editFile(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  assert.ok(text.includes(from), `${file} has "${from}"`);
  writeFileSync(path, text.replace(from, to));
}

function unavailable(fixture: MonorepoFixture): string | undefined {
  if (!fixture.needs) return undefined;
  const [command, args] = fixture.needs;
  return spawnSync(command, args).status === 0 ? undefined : `${command} is not installed here`;
}

for (const fixture of MONOREPOS) {
  const reason = unavailable(fixture);
  describe(`tests server on the ${fixture.name} monorepo${reason ? ` (SKIPPED: ${reason})` : ''}`, { skip: reason ?? false }, () => {
    let base: string;
    let root: string;
    let server: ServerProcess;
    const total = Object.values(fixture.packages).reduce((a, b) => a + b, 0);

    before(async () => {
      base = realpathSync(mkdtempSync(join(tmpdir(), `sprout-mono-${fixture.name}-`)));
      root = join(base, 'repo');
      copyMonorepo(fixture, root);
      server = await startServer('tests', ['--root', root, '--state-dir', join(base, 'state'), '--watch', 'off']);
    });
    after(async () => {
      await server?.close().catch(() => undefined);
      rmSync(base, { recursive: true, force: true });
    });

    it('green: exact merged totals, every package with its own count, skipped packages named', async () => {
      const result = await server.call('run_tests');
      const s = result.structured as unknown as Structured;
      assert.deepEqual({ status: s.status, passed: s.passed, failed: s.failed, command: s.command }, { status: 'passed', passed: total, failed: 0, command: fixture.command }, result.text);
      const own = Object.fromEntries((s.packages ?? []).map((p) => [p.name, p.passed]));
      assert.deepEqual(own, fixture.packages);
      assert.deepEqual((s.skippedPackages ?? []).map((p) => p.name), fixture.skipped ?? []);
      assert.equal((await server.call('_Stop')).text, '', 'green: no objection');
    });

    for (const broken of fixture.breaks) {
      it(`a red test in ${broken.package}: named with its package and root-relative file, exact totals, _Stop objects`, async () => {
        editFile(root, broken.file, broken.from, broken.to);
        try {
          const result = await server.call('run_tests');
          const s = result.structured as unknown as Structured;
          assert.deepEqual({ status: s.status, passed: s.passed, failed: s.failed }, { status: 'failed', passed: total - 1, failed: 1 }, result.text);
          assert.equal(s.failures.length, 1, JSON.stringify(s.failures));
          const [failure] = s.failures;
          assert.match(failure?.name ?? '', broken.failure.name);
          assert.deepEqual({ package: failure?.package, file: failure?.file, line: failure?.line }, { package: broken.package, file: broken.file, line: broken.failure.line });
          assert.equal(s.packages?.find((p) => p.name === broken.package)?.status, 'failed');
          const stop = await server.call('_Stop');
          assert.match(stop.text, /^The tests fail on the current state/);
          assert.ok(stop.text.includes(`[${broken.package}] `) && stop.text.includes(`(${broken.file}:${broken.failure.line})`), stop.text);
        } finally {
          editFile(root, broken.file, broken.to, broken.from);
        }
      });
    }
  });
}

function persisted(stateDir: string): { status: string; fingerprint: string; checked?: string[]; packages?: { name: string; ranNow: boolean }[] } | undefined {
  try {
    return JSON.parse(readFileSync(join(stateDir, 'last-test-run.json'), 'utf8')) as ReturnType<typeof persisted>;
  } catch {
    return undefined;
  }
}

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; ; i++) {
    const value = probe();
    if (value !== undefined) return value;
    if (i > 6000) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('affected packages first: after a one-package edit, _Stop answers from a fresh run of that package and its dependants', () => {
  const fixture = MONOREPOS[0] as MonorepoFixture;
  let base: string;
  let root: string;
  let stateDir: string;
  let server: ServerProcess;

  before(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-mono-affected-')));
    root = join(base, 'repo');
    stateDir = join(base, 'state');
    copyMonorepo(fixture, root);
    server = await startServer('tests', ['--root', root, '--state-dir', stateDir, '--watch', 'off']);
  });
  after(async () => {
    await server?.close().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  });

  it('checks @mono/cart and @mono/shop (its dependant), carries @mono/labels, says so; the whole suite follows', async () => {
    assert.equal(((await server.call('run_tests')).structured as { status: string }).status, 'passed');
    const broken = JS_BREAKS[0] as Break;
    editFile(root, broken.file, broken.from, broken.to);
    await server.call('_PostToolUse', {}, { 'sprout/hook': { event: '_PostToolUse', toolName: 'edit_file' } });
    const narrowed = await waitFor('the affected run', () => {
      const run = persisted(stateDir);
      return run?.checked ? run : undefined;
    });
    assert.deepEqual(narrowed.checked, ['@mono/cart', '@mono/shop']);
    assert.deepEqual(narrowed.packages?.map((p) => [p.name, p.ranNow]).sort(), [['@mono/cart', true], ['@mono/labels', false], ['@mono/shop', true]]);
    const stop = await server.call('_Stop');
    const s = stop.structured as { status: string; stale: boolean; passed: number; failed: number; checkedPackages?: string[] };
    // Either the narrowed result or the whole suite that followed it: both describe this state.
    assert.deepEqual({ status: s.status, stale: s.stale, passed: s.passed, failed: s.failed }, { status: 'failed', stale: false, passed: 6, failed: 1 });
    assert.match(stop.text, /^The tests fail on the current state of the workspace \(a fresh result/);
    if (s.checkedPackages) assert.match(stop.text, /Checked now: @mono\/cart, @mono\/shop \(the packages the edits touched/);
    assert.match(stop.text, /\[@mono\/cart\] totals prices \(packages\/cart\/src\/cart\.test\.js:4\)/);
    const whole = await waitFor('the whole suite after it', () => {
      const run = persisted(stateDir);
      return run && !run.checked ? run : undefined;
    });
    assert.equal(whole.fingerprint, narrowed.fingerprint, 'the same state, verified whole');
    assert.equal(whole.status, 'failed');
    assert.ok(whole.packages?.every((p) => p.ranNow));
  });
});
