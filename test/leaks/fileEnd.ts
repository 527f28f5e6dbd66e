/**
 * Runs a check once a test file is done: after its last test and after every hook the file registered
 * at the top level (`after(() => server.close())`), so the check sees what the file's own clean-up left.
 *
 * node:test runs a file's top-level `after` hooks in the order they were registered, and a preload
 * registers first. So each top-level `after` is followed by a slot of ours, and only the slot
 * registered last runs the check. "Top level" is what node:test means by it: a call outside any test,
 * suite or hook body (node:test would attach a call inside one to that test). The bodies are marked
 * with an AsyncLocalStorage, so a call is top-level when no mark is in scope.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Fn = Function;
type Hook = (fn: (...args: unknown[]) => unknown, options?: Record<string, unknown>) => unknown;

const insideBody = new AsyncLocalStorage<true>();

/** `fn` run with the mark; same `length` (node:test passes `done` by arity) and name (a test's default name). */
export function marked<F>(fn: F): F {
  if (typeof fn !== 'function') return fn;
  const original = fn as Fn;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    return insideBody.run(true, () => original.apply(this, args) as unknown);
  };
  Object.defineProperty(wrapped, 'length', { value: original.length });
  Object.defineProperty(wrapped, 'name', { value: original.name });
  return wrapped as F;
}

/** Every function among `args` marked (a test's or suite's body, a hook's function). */
export const markedArgs = (args: unknown[]): unknown[] => args.map((arg) => marked(arg));

export const atTopLevel = (): boolean => insideBody.getStore() === undefined;

let slots = 0;
let fileEndCheck: (() => Promise<void>) | undefined;

function addSlot(after: Hook, timeout: number): void {
  const mine = ++slots;
  after(
    async () => {
      if (mine === slots && fileEndCheck) await fileEndCheck();
    },
    { timeout },
  );
}

/**
 * node:test's `after` as the file sees it: the hook as given, then (at the top level) a slot, so the
 * check stays last. `check` runs once, after the file's last top-level hook.
 */
export function withFileEndCheck(after: Hook, check: () => Promise<void>, timeout: number): Hook {
  fileEndCheck = check;
  addSlot(after, timeout);
  return (fn, options) => {
    const result = after(fn, options);
    if (atTopLevel()) addSlot(after, timeout);
    return result;
  };
}
