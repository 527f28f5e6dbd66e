/**
 * Small helpers that make a server connection's error messages say what went wrong without leaking
 * what must not be shown (tokens in a URL).
 */

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause. */
export function describeFetchError(error: TypeError): string {
  const cause = error.cause;
  const code = cause !== null && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
  return code === undefined ? error.message : `${error.message}: ${code}`;
}

/** The URL without credentials or query (tokens often hide there) for error messages. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
