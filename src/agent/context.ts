/**
 * What one session's moving parts share while a prompt runs: the ports, the live settings, the event
 * sink (the only way history changes, so the transcript and the UI see every change) and the state
 * rebuilt from those events. Plus the two abort helpers every waiting step uses.
 */
import type { HookCaller } from './hookCaller';
import type { HistoryLedger } from './historyLedger';
import type { Clock, Logger, ModelClient, ModelConversation, ToolHost, ToolListOptions } from './ports';
import type { ReplayState } from './sessionState';
import type { AgentEvent, SessionStartSource } from './events';
import type { AgentSettings } from './settings';
import type { ChatMessage } from './messages';
import { errorMessage } from './errorMessage';

export interface CoreContext {
  readonly sessionId: string;
  settings(): AgentSettings;
  readonly model: ModelClient;
  /** This session as a conversation of the (possibly shared) model client. */
  readonly conversation?: ModelConversation;
  readonly tools: ToolHost;
  readonly clock: Clock;
  readonly logger?: Logger;
  readonly hookCaller: HookCaller;
  /** Applies the event to the state, writes it to the transcript and tells every listener. */
  emit(event: AgentEvent): void;
  state(): ReplayState;
  /** Servers already told "hooks present but not enabled" in this session. */
  readonly hintedServers: Set<string>;
  /** Running size and validity of the history, so a round does not re-walk all of it. */
  readonly historyLedger?: HistoryLedger;
  /** Where the session stands between `_SessionStart` and `_SessionEnd`. */
  readonly lifecycle: SessionLifecycle;
  /** Set once the session listed tools: only that first listing may wait the longer startup wait. */
  readonly toolWait?: { listedOnce: boolean };
}

export interface SessionLifecycle {
  /** `_SessionStart` is due before the next prompt's first model call, with this source; null once made. */
  sessionStart: SessionStartSource | null;
  /** A prompt ran in this process, so `_SessionEnd` is owed to the servers that saw it. */
  promptRan: boolean;
  /** `_SessionEnd` was made (once per session). */
  ended: boolean;
}

/**
 * How long this listing may wait for servers that are not ready, and the notice saying which: the
 * first listing of a session gets the startup wait, every later one the short grace (SPEC 4's bound).
 */
export function toolListOptions(ctx: CoreContext): Required<Pick<ToolListOptions, 'waitMs' | 'onWaiting' | 'onWaited'>> {
  const settings = ctx.settings();
  const first = ctx.toolWait !== undefined && !ctx.toolWait.listedOnce;
  if (ctx.toolWait !== undefined) ctx.toolWait.listedOnce = true;
  const waitMs = first ? Math.max(settings.firstPromptServerWaitMs, settings.serverReadyGraceMs) : settings.serverReadyGraceMs;
  return {
    waitMs,
    onWaiting: (servers) => ctx.emit({ type: 'servers_waiting', servers, waitMs }),
    onWaited: (servers, late, waitedMs) => ctx.emit({ type: 'servers_waited', servers, late, waitedMs }),
  };
}

export function appendMessage(ctx: CoreContext, message: ChatMessage): void {
  ctx.emit({ type: 'message', message });
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

const abortCallbacks = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `callback` once when `signal` aborts (at once if it already has); the returned function stops
 * that. Every waiting step of every round listens on the same prompt signal, so the signal gets one
 * real listener that relays to a plain set: adding and removing is a set operation, not an EventTarget one.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => undefined;
  }
  let callbacks = abortCallbacks.get(signal);
  if (callbacks === undefined) {
    const relay = new Set<() => void>();
    signal.addEventListener('abort', () => {
      for (const relayed of [...relay]) relayed();
      relay.clear();
    }, { once: true });
    abortCallbacks.set(signal, relay);
    callbacks = relay;
  }
  const own = (): void => callback();
  callbacks.add(own);
  const set = callbacks;
  return () => void set.delete(own);
}

/**
 * Settles with `promise`, or rejects with `reason()` (a CancelledError unless the caller names its
 * own) as soon as `signal` aborts. Without a signal it is the promise itself.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, reason: () => Error = () => new CancelledError()): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const stop = onAbort(signal, () => reject(reason()));
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export type TimedResult<T> = { kind: 'done'; value: T } | { kind: 'failed'; message: string } | { kind: 'timeout' } | { kind: 'cancelled' };

/**
 * Runs `work` with its own AbortController, racing `timeoutMs` on the clock and the outer `signal`.
 * On timeout or cancel the work's signal is aborted (the tool host then cancels the request) and the
 * result comes back at once, without waiting for the work to notice.
 */
export async function runWithTimeout<T>(
  clock: Clock,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<TimedResult<T>> {
  if (signal?.aborted) return { kind: 'cancelled' };
  const call = new AbortController();
  const wait = new AbortController();
  const stopRelay = signal === undefined ? undefined : onAbort(signal, () => wait.abort());
  try {
    const done: Promise<TimedResult<T>> = Promise.resolve()
      .then(() => work(call.signal))
      .then(
        (value) => ({ kind: 'done' as const, value }),
        (error: unknown) => ({ kind: 'failed' as const, message: errorMessage(error) }),
      );
    const timer: Promise<TimedResult<T>> = clock.sleep(timeoutMs, wait.signal).then(() => ({ kind: 'timeout' as const }));
    const first = await Promise.race([done, timer]);
    if (first.kind === 'timeout' && signal?.aborted) {
      call.abort();
      return { kind: 'cancelled' };
    }
    if (first.kind === 'timeout') call.abort();
    if (first.kind !== 'timeout' && signal?.aborted) return { kind: 'cancelled' };
    return first;
  } finally {
    wait.abort();
    stopRelay?.();
  }
}
