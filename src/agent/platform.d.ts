/**
 * The only host globals the pure core may use. Its tsconfig (src/agent/tsconfig.json) loads neither
 * the DOM nor Node's types, so `process`, `setTimeout`, `fetch` and the like do not exist for it:
 * time comes through the Clock port, everything else through the other ports. Cancellation is the
 * exception: AbortController and AbortSignal are standard in every runtime the core runs in (Node,
 * browsers, workers), so the members the core uses are declared here, as lib.dom and @types/node
 * declare them. Only the core's own tsconfig reads this file.
 */

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare const AbortController: { prototype: AbortController; new (): AbortController };
