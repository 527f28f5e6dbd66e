/**
 * Preloaded into every node:test process of the unit, integration and e2e suites (`--import`, see
 * package.json): each test and hook that names no timeout of its own gets a default one, so a test
 * that hangs fails the run with its own name instead of stalling it. Node 20's `--test-timeout` bounds
 * only whole files and names only the file (the scripts pass it too, as the backstop for a file that
 * hangs outside any test). A test that legitimately runs longer says so with `{ timeout }`.
 *
 * The default is long on purpose: it is for hangs, not a speed target, and the suite must pass on a
 * machine under heavy load. `SPROUT_TEST_TIMEOUT_MS` overrides it.
 *
 * It also registers the end-of-file leak check (test/leaks/fileEndCheck.ts): a file fails when a child
 * process, server, socket or timer it started is still alive after its last test and hooks.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

import { checkForLeaks, leakCheckEnabled } from './leaks/fileEndCheck';
import { markedArgs, withFileEndCheck } from './leaks/fileEnd';

type Runner = ((...args: unknown[]) => unknown) & Record<string, unknown>;

export const DEFAULT_TEST_TIMEOUT_MS = Number(process.env.SPROUT_TEST_TIMEOUT_MS) || 10 * 60_000;

const isOptions = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `test(name?, options?, fn?)` and `it`: the options, with a timeout unless they name one. */
function withTestTimeout(original: Runner): Runner {
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const at = args.findIndex(isOptions);
    if (at >= 0) {
      const options = args[at] as Record<string, unknown>;
      if (options.timeout === undefined) args[at] = { ...options, timeout: DEFAULT_TEST_TIMEOUT_MS };
    } else {
      args.splice(typeof args[0] === 'string' ? 1 : 0, 0, { timeout: DEFAULT_TEST_TIMEOUT_MS });
    }
    return original.apply(this, markedArgs(args));
  } as Runner;
  // test.skip, test.todo, test.only and the like keep working (skip and todo never run).
  for (const key of Object.keys(original)) wrapped[key] = VARIANTS.has(key) ? marking(original[key] as Runner) : original[key];
  return wrapped;
}

const VARIANTS = new Set(['only', 'skip', 'todo']);

/** `describe(name?, options?, fn?)`, `test.only(...)` and the like: their bodies marked (test/leaks/fileEnd.ts). */
function marking(original: Runner): Runner {
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    return original.apply(this, markedArgs(args));
  } as Runner;
  for (const key of Object.keys(original)) wrapped[key] = VARIANTS.has(key) ? marking(original[key] as Runner) : original[key];
  return wrapped;
}

/** `before(fn, options?)` and the other hooks. */
function withHookTimeout(original: Runner): Runner {
  return function (this: unknown, fn: unknown, options?: Record<string, unknown>): unknown {
    return original.call(this, markedArgs([fn])[0], { ...options, timeout: options?.timeout ?? DEFAULT_TEST_TIMEOUT_MS });
  } as Runner;
}

const nodeTest = createRequire(__filename)('node:test') as Runner;
const test = withTestTimeout(nodeTest.test as Runner);
nodeTest.test = test;
nodeTest.it = test;
for (const hook of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[hook] = withHookTimeout(nodeTest[hook] as Runner);
for (const suite of ['describe', 'suite']) nodeTest[suite] = marking(nodeTest[suite] as Runner);
// The leak check runs after the file's last test and top-level hook (test/leaks/fileEndCheck.ts).
if (leakCheckEnabled()) nodeTest.after = withFileEndCheck(nodeTest.after as never, checkForLeaks, DEFAULT_TEST_TIMEOUT_MS) as unknown as Runner;
// Files that `import { test } from 'node:test'` as ES modules see the same functions.
syncBuiltinESMExports();

/**
 * A test file's process reports each verdict to the runner over its stdout, a pipe; with
 * `--test-force-exit` it exits once its last test ends, and what the non-blocking pipe still held is
 * lost with exit code 0 (nodejs/node#64833): the runner then counts fewer tests than ran, and a late
 * failure is reported only as its file's. Blocking writes (Node's own idiom before an exit) keep every
 * verdict. A run of 40 files of 50 tests reported 1672-1801 of 2000 without this, 2000 with it.
 */
const stdoutHandle = (process.stdout as unknown as { _handle?: { setBlocking?: (blocking: boolean) => void } })._handle;
if (process.env.NODE_TEST_CONTEXT !== undefined && typeof stdoutHandle?.setBlocking === 'function') stdoutHandle.setBlocking(true);
