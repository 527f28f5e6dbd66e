/**
 * Turns whatever a model call threw (an SDK APIError, a connection failure, a cut stream, an error
 * event inside the stream) into a ModelError whose message gives the provider's own words and what
 * to do, plus whether (and why) a retry may help. The signature table (rejectionSignatures.ts) reads
 * the provider's words first: billing is never retried and says it is not rate limiting, a server
 * not set up for tools says what to change, a malformed tool call the model produced is worth one
 * more round. A wrong URL (an HTML page, a 404/405/501 that is not about the model) says so and shows
 * what was tried, unless the endpoint has answered before: then a proxy's or CDN's 5xx page
 * (Cloudflare 502/524, nginx 504) is transient. The API key is scrubbed from every message,
 * including text the provider echoed back.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError, type ModelErrorKind, type RetryCause } from '../agent/ports';
import { bodyRetryDelayMs, hasRetryInfo, serverRetryDelayMs } from './retryPolicy';
import { errorMessage } from '../agent/errorMessage';
import { verdictOf, type Rejection, type Verdict } from './rejectionSignatures';
import { isModelNotFound, trimMessage } from './providerErrors';
import type { GuardedErrorInfo } from './responseGuard';
import { StreamErrorEvent } from './streamAccumulator';
import { redactEndpointIn } from './endpointSecrets';

export interface ErrorContext {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The endpoint gave a real answer before: an HTML error page from it is a proxy's, not a wrong URL. */
  answeredBefore?: boolean;
}

export interface ClassifiedError {
  error: ModelError;
  retryable: boolean;
  /** Why a retry may help (undefined when it may not). */
  cause?: RetryCause;
  /** What the server asked for with retry-after, if anything. */
  serverDelayMs?: number;
  /** One line for the retry notice, with the provider's own words. */
  reason: string;
}

/** Raised by the client itself when a stream ends without a finish reason. */
export class StreamCutError extends Error {
  constructor(detail = 'the response stream ended before the model finished') {
    super(detail);
    this.name = 'StreamCutError';
  }
}

export function redact(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** The first network error code along the `cause` chain (fetch hides it two levels down). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_CODES) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What the response guard recorded about a rewritten error body. */
function guardInfo(error: APIError): GuardedErrorInfo | undefined {
  const info = (error.error as { sprout?: unknown } | undefined)?.sprout;
  return typeof info === 'object' && info !== null ? (info as GuardedErrorInfo) : undefined;
}

function providerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message.trim()) return trimMessage(body.message);
  return trimMessage(error.message.replace(/^\d{3}\s+/, '')) || 'no details';
}

function stringField(body: unknown, key: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The status, code, type and every text of a rejected request (or an error event in a stream). */
export function rejectionOf(error: unknown): Rejection | undefined {
  if (error instanceof StreamErrorEvent) return { status: error.code, code: error.errorCode, type: error.errorType, text: error.message };
  if (!(error instanceof APIError)) return undefined;
  const body = error.error;
  // An error event inside a stream has no HTTP status; Groq names one in the body (`status_code`).
  const status = typeof error.status === 'number' ? error.status : Number(stringField(body, 'status_code') ?? NaN);
  const text = `${providerMessage(error)}\n${guardInfo(error)?.raw ?? ''}`;
  const retryHint = serverRetryDelayMs(error.headers) !== undefined || hasRetryInfo(text);
  return { status: Number.isFinite(status) ? status : undefined, code: stringField(body, 'code'), type: stringField(body, 'type'), text, ...(retryHint ? { retryHint } : {}) };
}

/** The provider's text as a sentence, so ours can follow it without a doubled full stop. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

const NOT_AN_ENDPOINT =
  'This URL is probably not an OpenAI-compatible /v1 endpoint: check the base URL (it usually ends in /v1, for example http://127.0.0.1:11434/v1 for Ollama or http://127.0.0.1:1234/v1 for LM Studio).';

/** Words of a server that has no such route at all (the fake's and OpenAI's "Invalid URL", nginx, FastAPI, Express). */
const NO_SUCH_ROUTE = /invalid url|no route|route .*not (found|defined)|unknown (url|path|route|endpoint)|^\s*(404 )?(page )?not found\.?\s*$|page not found|cannot (post|get) \/|method not allowed|unsupported method|requested url was not found/i;

/**
 * A 404/405/501 or an HTML page means the URL is wrong, unless the body is an API error about
 * something else. An error is attributed only to what the evidence shows: a JSON 404 whose words
 * are not "no such route" is the API answering about the request (the model, a router with no
 * provider for it), not a sign that the URL is no API.
 */
function wrongUrl(status: number, info: GuardedErrorInfo | undefined, said: string, code: unknown): boolean {
  if (info?.kind === 'html') return true;
  if (status !== 404 && status !== 405 && status !== 501) return false;
  const kind = info?.kind ?? 'json';
  if (isModelNotFound({ kind, message: said, code: typeof code === 'string' ? code : undefined })) return false;
  return status !== 404 || kind !== 'json' || NO_SUCH_ROUTE.test(said);
}

function httpError(error: APIError, status: number, ctx: ErrorContext): ClassifiedError {
  const said = providerMessage(error);
  const info = guardInfo(error);
  const make = (kind: ModelErrorKind, message: string, cause?: RetryCause): ClassifiedError => ({
    error: new ModelError(kind, message, status),
    retryable: cause !== undefined,
    cause,
    serverDelayMs: cause === undefined ? undefined : (serverRetryDelayMs(error.headers) ?? bodyRetryDelayMs(`${said}\n${info?.raw ?? ''}`)),
    reason: `HTTP ${status}: ${said}`,
  });
  const rejection = rejectionOf(error);
  const verdict = rejection === undefined ? undefined : verdictOf(rejection);
  if (verdict !== undefined) return judged(verdict, status, said, ctx, make);
  if (info?.kind === 'html' && status >= 500 && ctx.answeredBefore) {
    const page = make('server', `The model endpoint ${ctx.baseUrl} answered with an error page from a proxy or CDN (HTTP ${info.status}: ${said}).`, 'proxy_page');
    return { ...page, reason: `HTTP ${info.status} from a proxy or CDN (${said}) at an endpoint that answered before: transient` };
  }
  if (wrongUrl(status, info, said, error.code)) {
    const tried = info?.tried === undefined ? '' : ` ${info.tried}`;
    return make('config', `The model endpoint ${ctx.baseUrl} answered${tried} with HTTP ${info?.status ?? status}: ${sentence(said)} ${NOT_AN_ENDPOINT}`);
  }
  // A relay reported a failure with HTTP 200: the status the body named decides what it is.
  const answered = info !== undefined && info.status !== status ? `answered HTTP ${info.status} with an error (HTTP ${status} by its own account)` : undefined;
  if (status === 401) return make('auth', `The model endpoint ${ctx.baseUrl} rejected the API key (HTTP 401): ${sentence(said)} ${keyAdvice(said)}`);
  // The key was accepted but may not do this: a project without access to the model, an unsupported region.
  if (status === 403) {
    return make('auth', `The model endpoint ${ctx.baseUrl} refused access (HTTP 403): ${sentence(said)} Check that the API key's account or project may use the model "${ctx.model}".`);
  }
  if (status === 404) {
    return make('config', `The model endpoint ${ctx.baseUrl} does not know the model "${ctx.model}" (HTTP 404): ${sentence(said)} Check the model name and the base URL.`);
  }
  if (status === 429) return make('rate_limit', `The model endpoint ${ctx.baseUrl} is rate limiting requests (HTTP 429): ${sentence(said)}`, 'rate_limit');
  if (isRetryableStatus(status)) return make('server', `The model endpoint ${ctx.baseUrl} ${answered ?? `failed (HTTP ${status})`}: ${sentence(said)}`, 'server');
  return make('bad_request', `The model endpoint ${ctx.baseUrl} ${answered ?? `rejected the request (HTTP ${status})`}: ${sentence(said)}`);
}

/** An Azure API Management gateway wants the key in `api-key`, which only the azure compatibility sends everywhere. */
function keyAdvice(said: string): string {
  if (/subscription key|application credentials/i.test(said)) {
    return 'Check the API key. Behind an Azure API Management gateway, set sprout.model.compatibility (SPROUT_AGENT_MODEL_COMPAT) to "azure": the key then goes in the api-key header.';
  }
  return 'Check the API key.';
}

/** An error the signature table recognised: what it is and whether one more attempt can help. */
function judged(verdict: Verdict, status: number | undefined, said: string, ctx: ErrorContext, make: (kind: ModelErrorKind, message: string, cause?: RetryCause) => ClassifiedError): ClassifiedError {
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  switch (verdict.kind) {
    case 'billing':
      return make('billing', `The model endpoint ${ctx.baseUrl} refused the request for billing reasons${http}: ${sentence(said)} This is not rate limiting, so it was not retried: add credits or check the plan and billing of the key's account.`);
    case 'setup':
      return make('config', `The model endpoint ${ctx.baseUrl} cannot serve tool calls as it is set up${http}: ${sentence(said)} ${verdict.advice}`);
    case 'capacity':
      return make(verdict.what === 'memory' ? 'server' : 'bad_request', `The model endpoint ${ctx.baseUrl} cannot take this request as it is${http}: ${sentence(said)} Not retried: the same request would fail the same way. ${verdict.advice}`);
    case 'quota_window':
      return make('rate_limit', `The model endpoint ${ctx.baseUrl} refused the request: a daily quota is used up${http}: ${sentence(said)} Not retried, since the quota does not reset within seconds: wait for it to reset, or use another key or plan.`);
    case 'malformed_tool_call':
      return {
        ...make('bad_request', `The model at ${ctx.baseUrl} produced a malformed tool call${http}: ${sentence(said)}`, 'malformed_tool_call'),
        reason: `the model produced a malformed tool call${http}: ${said}`,
      };
  }
}

/** A status worth another attempt: the server failed, timed out, conflicted or rate limited (429 is answered before it is asked). */
function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 409 || status === 429;
}

/**
 * An error object inside an otherwise good stream: the provider failed mid-answer. Worth a retry
 * (before any text was shown) unless the signature table or its status says the request itself was
 * wrong (Groq sends a malformed tool call as an error event with `status_code: 400`).
 */
function streamError(error: APIError | StreamErrorEvent, ctx: ErrorContext): ClassifiedError {
  const said = error instanceof APIError ? providerMessage(error) : trimMessage(error.message);
  const rejection = rejectionOf(error);
  const status = rejection?.status;
  const make = (kind: ModelErrorKind, message: string, cause?: RetryCause): ClassifiedError => ({ error: new ModelError(kind, message, status), retryable: cause !== undefined, cause, reason: said });
  const verdict = rejection === undefined ? undefined : verdictOf(rejection);
  if (verdict !== undefined) return judged(verdict, status, said, ctx, make);
  const retryable = status === undefined || isRetryableStatus(status);
  const message = `The model endpoint ${ctx.baseUrl} reported an error while streaming: ${sentence(said)}`;
  return make(retryable ? 'server' : 'bad_request', message, retryable ? 'stream_error' : undefined);
}

function transport(message: string, reason: string): ClassifiedError {
  return { error: new ModelError('transport', message), retryable: true, cause: 'transport', reason };
}

function classifyRaw(error: unknown, ctx: ErrorContext): ClassifiedError {
  if (error instanceof ModelError) return { error, retryable: false, reason: error.message };
  if (error instanceof APIUserAbortError) return { error: new ModelError('cancelled', 'The model call was cancelled.'), retryable: false, reason: 'cancelled' };
  if (error instanceof APIConnectionTimeoutError) {
    return transport(`The model endpoint ${ctx.baseUrl} did not answer in time. Check that it is running, or raise the request timeout.`, 'request timed out');
  }
  if (error instanceof StreamCutError) {
    return transport(`The connection to the model endpoint ${ctx.baseUrl} broke: ${error.message}.`, error.message);
  }
  const code = networkCode(error);
  if (error instanceof APIConnectionError || code) {
    const what = code ? `${NETWORK_CODES[code]} (${code})` : 'connection error';
    return transport(`Could not reach the model endpoint ${ctx.baseUrl}: ${what}. Check that the server is running and the base URL is right.`, what);
  }
  if (error instanceof APIError && typeof error.status === 'number') return httpError(error, error.status, ctx);
  if (error instanceof APIError || error instanceof StreamErrorEvent) return streamError(error, ctx);
  const text = errorMessage(error);
  // Anything else thrown while reading the body (undici's "terminated", a half-written JSON line) is a broken stream.
  return transport(`The connection to the model endpoint ${ctx.baseUrl} broke: ${text}.`, text);
}

export function classifyError(error: unknown, ctx: ErrorContext): ClassifiedError {
  const classified = classifyRaw(error, ctx);
  const { kind, status } = classified.error;
  // The endpoint as printed carries no secret of its URL (`?api-key=`), and no key anywhere.
  const message = redact(redactEndpointIn(classified.error.message, ctx.baseUrl), ctx.apiKey);
  return { ...classified, error: new ModelError(kind, message, status), reason: redact(redactEndpointIn(classified.reason, ctx.baseUrl), ctx.apiKey) };
}
