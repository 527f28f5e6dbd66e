/**
 * When and how long to wait before retrying a model call: exponential backoff with jitter, unless
 * the server said how long (`retry-after-ms`, `retry-after` in seconds or as an HTTP date). The wait
 * itself is the Clock port's abortable sleep, so cancelling during a backoff is as prompt as
 * cancelling a request.
 */

export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

/** A server may ask for a longer wait than our own cap, but not for an unbounded one. */
export const MAX_SERVER_DELAY_MS = 60_000;

type HeaderSource = { get(name: string): string | null } | Record<string, string | undefined> | undefined | null;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/** The wait the server asked for, in ms, or undefined when it asked for none (or nonsense). */
export function serverRetryDelayMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.ceil(Number(ms));
  const after = header(headers, 'retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Delay before retry number `attempt` (1-based). */
export function backoffDelayMs(attempt: number, options: BackoffOptions, serverDelayMs?: number): number {
  if (serverDelayMs !== undefined) return Math.min(serverDelayMs, Math.max(options.maxDelayMs, MAX_SERVER_DELAY_MS));
  const random = options.random ?? Math.random;
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  // Up to 25% below the nominal delay, so clients that failed together do not retry together.
  return Math.max(0, Math.round(exponential * (1 - 0.25 * random())));
}
