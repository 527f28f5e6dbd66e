/**
 * Words for what went wrong with a connection, safe to show: fetch failures with their real cause,
 * and URLs without credentials or query (tokens often hide there).
 */
import { SdkHttpError } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './config';
import { eraMismatch } from './protocolEra';

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause. */
function describeFetchError(error: TypeError): string {
  const cause = error.cause;
  const code = cause !== null && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
  return code === undefined ? error.message : `${error.message}: ${code}`;
}

/** The URL without credentials or query (tokens often hide there) for error messages. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** "MCP server "x" (command "y") failed to start: why (exited with code 1; last stderr: ...)". */
export function startFailureMessage(config: McpServerConfig, error: unknown, exit: string): string {
  const t = config.transport;
  const target = t.type === 'stdio' ? `command "${t.command}"` : `URL ${safeUrl(t.url)}`;
  const raw = eraMismatch(error) ?? (error instanceof Error ? error.message : String(error));
  const cause = raw.includes(`MCP server "${config.name}"`) ? raw : `MCP server "${config.name}" (${target}) failed to start: ${raw}`;
  return exit && !cause.includes(exit) ? `${cause} (${exit})` : cause;
}

/**
 * Streamable HTTP has no process to watch: the session is gone when the server cannot be reached or
 * answers 404 (it restarted and no longer knows the session, which the MCP spec says calls for a new one).
 */
export function httpLoss(error: unknown): { kind: 'unknown_session' | 'unreachable'; what: string } | undefined {
  if (error instanceof SdkHttpError && error.status === 404) return { kind: 'unknown_session', what: 'no longer knows this session (HTTP 404: restarted?)' };
  if (error instanceof TypeError) return { kind: 'unreachable', what: `cannot be reached (${describeFetchError(error)})` };
  return undefined;
}
