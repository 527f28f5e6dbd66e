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

/**
 * The wait an error body asks for, in ms: Google's structured `RetryInfo` (`"retryDelay": "26s"`,
 * also when a relay passed the body on as an escaped string) first, then the words servers use
 * ("Please retry in 47.43s", "Please retry after 33 seconds", "try again in 20s", "in 650ms").
 */
export function bodyRetryDelayMs(text: string): number | undefined {
  const info = /\\?"retryDelay\\?"\s*:\s*\\?"(\d+(?:\.\d+)?)s\\?"/.exec(text);
  if (info?.[1] !== undefined) return Math.ceil(Number(info[1]) * 1000);
  const said = /(?:retry|try again)\s+(?:in|after)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)\b/i.exec(text);
  if (said?.[1] === undefined) return undefined;
  const value = Number(said[1]);
  return Math.ceil(/^m/i.test(said[2] ?? '') ? value : value * 1000);
}

/** Whether the body carries a structured retry hint (Google's RetryInfo). */
export function hasRetryInfo(text: string): boolean {
  return /\\?"retryDelay\\?"\s*:/.test(text);
}

/** Delay before retry number `attempt` (1-based). */
export function backoffDelayMs(attempt: number, options: BackoffOptions, serverDelayMs?: number): number {
  if (serverDelayMs !== undefined) return Math.min(serverDelayMs, Math.max(options.maxDelayMs, MAX_SERVER_DELAY_MS));
  const random = options.random ?? Math.random;
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  // Up to 25% below the nominal delay, so clients that failed together do not retry together.
  return Math.max(0, Math.round(exponential * (1 - 0.25 * random())));
}
