/**
 * The real-runner fixtures under test/fixtures/runners: one small cart project per runner, red as
 * shipped (a `+ 1` in the total and a label that never says "1 item"), with the edit that turns it
 * green and what each runner must report either way. A fixture is copied to a temp dir before use;
 * JavaScript ones get the repo's node_modules (jest, vitest and mocha are devDependencies), cargo
 * gets its lockfile up front so the first run does not change the tree. `unavailable()` says why a
 * runner cannot be tried on this machine, so the suite can say so instead of passing silently.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runnerToolbox } from './runnerToolbox';
import { REPO_ROOT } from './serverProcess';

export interface ExpectedFailure {
  name: RegExp;
  file: string;
  /** Undefined where the runner's report gives no line (ava's TAP). */
  line?: number;
  /** Lines the message must show: the expected and the actual value. */
  message: RegExp[];
}

export interface RunnerFixture {
  runner: string;
  /** The command detection must find in the fixture. */
  command: string;
  format: RegExp;
  unavailable(): string | undefined;
  red: { passed: number; failed: number; skipped: number; failures: ExpectedFailure[] };
  green: { passed: number; skipped: number };
  fix: { file: string; from: string; to: string }[];
  /** A command that runs this runner on the fixture with a filter that matches no test. */
  zero: string;
}

function missing(command: string, args: string[], what: string): string | undefined {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `${what} is not installed here (\`${command} ${args.join(' ')}\` failed)`;
}

const JS_FIX = (file: string): RunnerFixture['fix'] => [
  { file, from: ', 0) + 1', to: ', 0)' },
  { file, from: '`${count} items`', to: "count === 1 ? '1 item' : `${count} items`" },
];

const PY_FIX = (file: string): RunnerFixture['fix'] => [
  { file, from: ' + 1\n', to: '\n' },
  { file, from: 'return f"{count} items"', to: 'return "1 item" if count == 1 else f"{count} items"' },
];

const jsExpected = (file: string, emptyFile: string, sep: string, lines: [number, number, number]): RunnerFixture['red'] => ({
  passed: 1,
  failed: 3,
  skipped: 1,
  failures: [
    { name: new RegExp(`cart${sep}totals prices`), file, line: lines[0], message: [/11/, /12/] },
    { name: new RegExp(`cart${sep}labels one item`), file, line: lines[1], message: [/1 item\b/, /1 items/] },
    { name: /an empty cart costs nothing/, file: emptyFile, line: lines[2], message: [/0/, /1/] },
  ],
});

/** The runners from the toolbox (runnerToolbox.ts): each fixture's `npm test` runs the runner the toolbox installed. */
const TOOLBOX_RUNNERS = ['ava', 'tape', 'tap', 'uvu', 'jasmine', 'playwright', 'bun', 'deno'];

function toolboxExpected(files: [string, string], lines: [number, number, number] | undefined, names: [RegExp, RegExp, RegExp], skipped: number): RunnerFixture['red'] {
  const at = (i: number): { line?: number } => (lines ? { line: lines[i] } : {});
  return {
    passed: 1,
    failed: 3,
    skipped,
    failures: [
      { name: names[0], file: files[0], ...at(0), message: [/12/, /11/] },
      { name: names[1], file: files[0], ...at(1), message: [/1[ ·]items/, /1[ ·]item\b/] },
      { name: names[2], file: files[1], ...at(2), message: [/1/, /0/] },
    ],
  };
}

function toolboxFixtures(): RunnerFixture[] {
  const js: [string, string] = ['test/cart.test.js', 'test/empty.test.js'];
  const base = (runner: string, format: RegExp, red: RunnerFixture['red'], zero: string, fixFile = 'lib/cart.js'): RunnerFixture => ({
    runner,
    command: 'npm test',
    format,
    unavailable: () => undefined,
    red,
    green: { passed: 4, skipped: red.skipped },
    fix: JS_FIX(fixFile),
    zero,
  });
  const plain: [RegExp, RegExp, RegExp] = [/cart totals prices/, /cart labels one item/, /an empty cart costs nothing/];
  const nested: [RegExp, RegExp, RegExp] = [/cart (?:›|>) totals prices/, /cart (?:›|>) labels one item/, /an empty cart costs nothing/];
  return [
    base('ava', /^tap$/, toolboxExpected(js, undefined, [/cart › cart totals prices/, /cart › cart labels one item/, /empty › an empty cart costs nothing/], 1), 'node_modules/.bin/ava --match no-such-test'),
    base('tape', /^tape$/, toolboxExpected(js, [5, 15, 5], plain, 0), "node_modules/.bin/tape 'test/no-such-*.test.js'"),
    base('tap', /^tap$/, toolboxExpected(js, [5, 13, 5], plain, 1), 'node_modules/.bin/tap --grep=no-such-test'),
    base('uvu', /^uvu-text$/, toolboxExpected(js, [8, 16, 6], nested, 1), 'node_modules/.bin/uvu test no-such-pattern'),
    base('jasmine', /^jasmine-text$/, toolboxExpected(['spec/cartSpec.js', 'spec/emptySpec.js'], [5, 13, 5], plain, 1), 'node_modules/.bin/jasmine --filter=no-such-test'),
    base('playwright', /^playwright-json$/, toolboxExpected(['tests/cart.spec.js', 'tests/empty.spec.js'], [6, 14, 5], nested, 1), 'node_modules/.bin/playwright test -g no-such-test'),
    base('bun', /^bun-junit$/, toolboxExpected(js, [6, 14, 5], nested, 1), 'node_modules/.bin/bun test -t no-such-test'),
    base('deno', /^deno-junit$/, toolboxExpected(['test/cart_test.js', 'test/empty_test.js'], [5, 13, 5], plain, 1), 'node_modules/.bin/deno test --filter no-such-test'),
  ];
}

export const RUNNER_FIXTURES: RunnerFixture[] = [
  {
    runner: 'jest',
    command: 'npm test',
    format: /^jest-json$/,
    unavailable: () => undefined,
    red: jsExpected('src/cart.test.js', 'src/empty.test.js', ' › ', [5, 13, 4]),
    green: { passed: 4, skipped: 1 },
    fix: JS_FIX('src/cart.js'),
    zero: 'node_modules/.bin/jest -t no-such-test',
  },
  {
    runner: 'vitest',
    command: 'npm test',
    format: /^vitest-json$/,
    unavailable: () => undefined,
    red: jsExpected('src/cart.test.js', 'src/empty.test.js', ' > ', [6, 14, 5]),
    green: { passed: 4, skipped: 1 },
    fix: JS_FIX('src/cart.js'),
    zero: 'node_modules/.bin/vitest run -t no-such-test',
  },
  {
    runner: 'mocha',
    command: 'npm test',
    format: /^mocha-json$/,
    unavailable: () => undefined,
    red: jsExpected('test/cart.spec.js', 'test/empty.spec.js', ' ', [6, 14, 5]),
    green: { passed: 4, skipped: 1 },
    fix: JS_FIX('lib/cart.js'),
    zero: 'node_modules/.bin/mocha --grep no-such-test',
  },
  {
    runner: 'node:test',
    command: 'npm test',
    format: /^(tap|node-spec)$/,
    unavailable: () => undefined,
    red: jsExpected('test/cart.test.js', 'test/empty.test.js', ' > ', [7, 15, 6]),
    green: { passed: 4, skipped: 1 },
    fix: JS_FIX('lib/cart.js'),
    zero: 'node --test --test-name-pattern=no-such-test',
  },
  {
    runner: 'pytest',
    command: 'python3 -m pytest',
    format: /^pytest-junit$/,
    unavailable: () => missing('python3', ['-c', 'import pytest'], 'pytest'),
    red: {
      passed: 1,
      failed: 3,
      skipped: 1,
      failures: [
        { name: /^tests\/test_cart\.py::test_totals_prices$/, file: 'tests/test_cart.py', line: 7, message: [/12 == 11/] },
        { name: /^tests\/test_cart\.py::test_labels\[1-1 item\]$/, file: 'tests/test_cart.py', line: 12, message: [/'1 items' == '1 item'/] },
        { name: /^tests\/test_cart\.py::test_empty_cart_costs_nothing$/, file: 'tests/test_cart.py', line: 21, message: [/1 == 0/] },
      ],
    },
    green: { passed: 4, skipped: 1 },
    fix: PY_FIX('cart/__init__.py'),
    zero: 'python3 -m pytest -k no_such_test',
  },
  {
    runner: 'unittest',
    command: 'python3 -m unittest',
    format: /^unittest$/,
    unavailable: () => missing('python3', ['--version'], 'python3'),
    red: {
      passed: 1,
      failed: 3,
      skipped: 1,
      failures: [
        { name: /CartTest\.test_totals_prices$/, file: 'tests/test_cart.py', line: 8, message: [/12 != 11/] },
        { name: /CartTest\.test_labels_one_item$/, file: 'tests/test_cart.py', line: 14, message: [/'1 items' != '1 item'/] },
        { name: /CartTest\.test_empty_cart_costs_nothing$/, file: 'tests/test_cart.py', line: 21, message: [/1 != 0/] },
      ],
    },
    green: { passed: 4, skipped: 1 },
    fix: PY_FIX('cart.py'),
    zero: 'python3 -m unittest -k no_such_test',
  },
  {
    runner: 'cargo',
    command: 'cargo test',
    format: /^cargo$/,
    unavailable: () => missing('cargo', ['--version'], 'cargo'),
    red: {
      passed: 1,
      failed: 4,
      skipped: 1,
      failures: [
        { name: /^tests::totals_prices$/, file: 'src/lib.rs', line: 22, message: [/left: `?12/, /right: `?11/] },
        { name: /^labels_one_item$/, file: 'tests/labels.rs', line: 3, message: [/"1 items"/, /"1 item"/] },
        { name: /^empty_cart_costs_nothing$/, file: 'tests/labels.rs', line: 8, message: [/left: `?1/, /right: `?0/] },
        { name: /^src\/lib\.rs - total \(line \d+\)$/, file: 'src/lib.rs', line: 5, message: [/left: `?7/, /right: `?6/] },
      ],
    },
    green: { passed: 5, skipped: 1 },
    fix: [
      { file: 'src/lib.rs', from: '.sum::<u32>() + 1', to: '.sum::<u32>()' },
      { file: 'src/lib.rs', from: 'format!("{count} items")', to: 'if count == 1 { "1 item".to_string() } else { format!("{count} items") }' },
    ],
    zero: 'cargo test no_such_test',
  },
  {
    runner: 'go',
    command: 'go test ./...',
    format: /^go-json$/,
    unavailable: () => missing('go', ['version'], 'go'),
    red: {
      passed: 1,
      failed: 3,
      skipped: 1,
      failures: [
        { name: /cart TestTotal$/, file: 'cart_test.go', line: 7, message: [/Total\(\) = 12, want 11/] },
        { name: /cart TestEmptyCart$/, file: 'cart_test.go', line: 13, message: [/Total\(nil\) = 1, want 0/] },
        { name: /format TestLabel\/1_item$/, file: 'format/label_test.go', line: 13, message: [/Label\(1\) = "1 items", want "1 item"/] },
      ],
    },
    green: { passed: 4, skipped: 1 },
    fix: [
      { file: 'cart.go', from: 'return sum + 1', to: 'return sum' },
      { file: 'format/label.go', from: 'return fmt.Sprintf', to: 'if count == 1 {\n\t\treturn "1 item"\n\t}\n\treturn fmt.Sprintf' },
    ],
    zero: 'go test -run NoSuchTest ./...',
  },
  ...toolboxFixtures(),
];

const FIXTURE_DIR: Record<string, string> = { 'node:test': 'node' };

/** Copies the fixture to `dir` and prepares it to run there. */
export function copyFixture(fixture: RunnerFixture, dir: string): void {
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'runners', FIXTURE_DIR[fixture.runner] ?? fixture.runner), dir, { recursive: true });
  if (['jest', 'vitest', 'mocha', 'node:test'].includes(fixture.runner)) symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (TOOLBOX_RUNNERS.includes(fixture.runner)) symlinkSync(runnerToolbox(), join(dir, 'node_modules'));
  if (fixture.runner === 'cargo') execFileSync('cargo', ['generate-lockfile', '--offline'], { cwd: dir, stdio: 'ignore' });
}

export function applyFix(fixture: RunnerFixture, dir: string): void {
  for (const { file, from, to } of fixture.fix) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(from)) throw new Error(`fixture ${fixture.runner}: ${file} has no "${from}"`);
    writeFileSync(path, text.replace(from, to));
  }
}
