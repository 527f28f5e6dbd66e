/**
 * Words for what went wrong with a connection, safe to show: fetch failures with their real cause,
 * HTTP failures with the status and the server's own words (cut short, control characters and markup
 * dropped: a body is untrusted), and URLs without credentials or query (tokens often hide there).
 */
import { SdkHttpError, SseError } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './config';
import { eraMismatch } from './protocolEra';
import { quotedName } from '../agent/nameText';

const MAX_WORDS = 300;

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause. */
function describeFetchError(error: TypeError): string {
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

/**
 * What a server said in an error body, as one short line: a JSON-RPC error's message, an HTML page's
 * title or text, else the text itself. Empty when it said nothing.
 */
export function serverWords(body: string | undefined): string {
  const text = (body ?? '').trim();
  let words = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'object' ? json.error?.message : (json.error ?? json.message);
    if (typeof message === 'string') words = message;
  } catch {
    if (text.startsWith('<')) words = /<title>([^<]*)<\/title>/i.exec(text)?.[1] ?? text.replace(/<[^>]*>/g, ' ');
  }
  // eslint-disable-next-line no-control-regex
  const flat = words.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > MAX_WORDS ? `${flat.slice(0, MAX_WORDS)}...` : flat;
}

function bodyOf(error: SdkHttpError): string | undefined {
  const text: unknown = error.data.text;
  return typeof text === 'string' ? text : undefined;
}

/** "HTTP 404 Not Found: "Cannot POST /mcp"", or "HTTP 502 Bad Gateway with no body". */
function httpStatusWords(status: number, statusText: string | undefined, body: string | undefined): string {
  const words = serverWords(body);
  return `HTTP ${status}${statusText ? ` ${statusText}` : ''}${words ? `: "${words}"` : ' with no body'}`;
}

/** Why a connection failed, in words: the era mismatch, the HTTP status and the server's words, or the error's own message. */
/**
 * A document that does not fit its schema (a zod error from the SDK: OAuth metadata, a server's
 * answer) as words naming each field and what is wrong with it, never the raw issue dump. A missing
 * `authorization_endpoint` says what it means: the authorization server offers no browser sign-in.
 */
export function schemaWords(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const fields = issues.slice(0, 5).map((issue: { path?: unknown; message?: unknown; code?: unknown }) => {
    const path = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.map(String).join('.') : '(the whole document)';
    const message = typeof issue.message === 'string' ? issue.message : 'invalid';
    return issue.code === 'invalid_type' && /undefined|required/i.test(message) ? `"${path}" is missing` : `"${path}": ${message}`;
  });
  const more = issues.length > 5 ? `, and ${issues.length - 5} more` : '';
  const names = issues.map((issue: { path?: unknown }) => (Array.isArray(issue.path) ? issue.path.join('.') : ''));
  const advice = names.includes('authorization_endpoint')
    ? ' The authorization server offers no browser sign-in (no authorization_endpoint: a client-credentials-only server), so Sprout cannot sign in to it: give the server a token in its "headers" instead, or ask its operator for an authorization-code endpoint.'
    : names.includes('token_endpoint')
      ? ' Without a token_endpoint no sign-in can complete: the server\'s OAuth setup is incomplete; tell its operator.'
      : '';
  return `a document the server published does not fit its schema: ${fields.join('; ')}${more}.${advice}`;
}

export function failureWords(error: unknown): string {
  const schema = schemaWords(error) ?? schemaWords((error as { cause?: unknown } | null)?.cause);
  if (schema !== undefined) return schema;
  const mismatch = eraMismatch(error);
  if (mismatch !== undefined) return mismatch;
  if (error instanceof SdkHttpError) return httpStatusWords(error.status, error.statusText, bodyOf(error));
  if (error instanceof SseError && error.code !== undefined) return `HTTP ${error.code} on the event stream: "${serverWords(error.message.replace(/^SSE error: /, ''))}"`;
  if (error instanceof TypeError) return describeFetchError(error);
  return error instanceof Error ? error.message : String(error);
}

/** `command "npx"` or `URL https://host/mcp`: where a server is, for messages. */
export function serverTarget(config: McpServerConfig): string {
  const t = config.transport;
  if (t.type === 'inProcess') return 'in-process';
  return t.type === 'stdio' ? `command "${t.command}"` : `URL ${safeUrl(t.url)}`;
}

/** "MCP server "x" (command "y") failed to start: why (exited with code 1; last stderr: ...)". */
export function startFailureMessage(config: McpServerConfig, error: unknown, exit: string): string {
  const raw = failureWords(error);
  const cause = raw.includes(`MCP server ${quotedName(config.name)}`) ? raw : `MCP server ${quotedName(config.name)} (${serverTarget(config)}) failed to start: ${raw}`;
  return exit && !cause.includes(exit) ? `${cause} (${exit})` : cause;
}

/** The words a server uses to say it lost the session: missing, unknown, invalid, expired, not found. */
const SESSION_GONE = /session/i;
const GONE_WORDS = /(missing|unknown|invalid|expired|not found|no valid|required|does not exist|terminated)/i;

/**
 * Streamable HTTP has no process to watch: the session is gone when the server cannot be reached, or
 * answers 404 (it restarted and no longer knows the session, which the MCP spec says calls for a new
 * one) or a 400 that says the session is missing or unknown (what many servers built from the v1
 * examples, server-everything among them, answer instead).
 */
export function httpLoss(error: unknown): { kind: 'unknown_session' | 'unreachable'; what: string } | undefined {
  if (error instanceof SdkHttpError) {
    const words = serverWords(bodyOf(error));
    const named = SESSION_GONE.test(words) && GONE_WORDS.test(words);
    // 400 (the v1 examples) or 401 (rmcp) with words that say the session is unknown: the same loss as the spec's 404.
    if (error.status === 404 || ((error.status === 400 || error.status === 401) && named)) {
      return { kind: 'unknown_session', what: `no longer knows this session, so it probably restarted (it answered ${httpStatusWords(error.status, error.statusText, bodyOf(error))})` };
    }
  }
  if (error instanceof TypeError) return { kind: 'unreachable', what: `cannot be reached (${describeFetchError(error)})` };
  return undefined;
}

/** Why a server that used up its restart attempts stays stopped, with its last problem. */
export function keepsStoppingMessage(server: string, maxAttempts: number, lastProblem: string | undefined): string {
  return (
    `MCP server ${quotedName(server)} was restarted ${maxAttempts} times and keeps stopping; it stays stopped until ` +
    `MCP servers are restarted.${lastProblem ? ` Last problem: ${lastProblem}` : ''}`
  );
}
