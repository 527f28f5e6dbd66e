/**
 * Words for what went wrong with a connection, safe to show: fetch failures with their real cause,
 * and URLs without credentials or query (tokens often hide there).
 */
import type { McpServerConfig } from './config';

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause. */
export function describeFetchError(error: TypeError): string {
  const cause = error.cause;
  const code = cause !== null && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
  return code === undefined ? error.message : `${error.message}: ${code}`;
}

/** The URL without credentials or query, for error messages. */
export function safeUrl(url: string): string {
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
  const raw = error instanceof Error ? error.message : String(error);
  const cause = raw.includes(`MCP server "${config.name}"`) ? raw : `MCP server "${config.name}" (${target}) failed to start: ${raw}`;
  return exit && !cause.includes(exit) ? `${cause} (${exit})` : cause;
}
