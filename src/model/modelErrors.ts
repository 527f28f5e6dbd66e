/**
 * Turns whatever a model call threw (an SDK APIError, a connection failure, a cut stream, an error
 * event inside the stream) into a ModelError whose message gives the provider's own words and what
 * to do, plus whether a retry may help: a wrong URL (an HTML page, a 404/405/501 that is not about the
 * model) says so and shows what was tried. The API key is scrubbed from every message, including
 * text the provider echoed back.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError, type ModelErrorKind } from '../agent/ports';
import { serverRetryDelayMs } from './retryPolicy';
import { errorMessage } from '../agent/errorMessage';
import type { Rejection } from './dialect';
import { isModelNotFound, trimMessage } from './providerErrors';
import type { GuardedErrorInfo } from './responseGuard';
import { StreamErrorEvent } from './streamAccumulator';

export interface ErrorContext {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

export interface ClassifiedError {
  error: ModelError;
  retryable: boolean;
  /** What the server asked for with retry-after, if anything. */
  serverDelayMs?: number;
  /** One line for the retry notice. */
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

/** The status and every text of a rejected request, for the dialect to recognise a rule it names. */
export function rejectionOf(error: unknown): Rejection | undefined {
  if (!(error instanceof APIError) || typeof error.status !== 'number') return undefined;
  return { status: error.status, text: `${providerMessage(error)}\n${guardInfo(error)?.raw ?? ''}` };
}

/** The provider's text as a sentence, so ours can follow it without a doubled full stop. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

const NOT_AN_ENDPOINT =
  'This URL is probably not an OpenAI-compatible /v1 endpoint: check the base URL (it usually ends in /v1, for example http://127.0.0.1:11434/v1 for Ollama or http://127.0.0.1:1234/v1 for LM Studio).';

/** A 404/405/501 or an HTML page means the URL is wrong, unless the body is an API error about the model. */
function wrongUrl(status: number, info: GuardedErrorInfo | undefined, said: string, code: unknown): boolean {
  if (info?.kind === 'html') return true;
  if (status !== 404 && status !== 405 && status !== 501) return false;
  return !isModelNotFound({ kind: info?.kind ?? 'json', message: said, code: typeof code === 'string' ? code : undefined });
}

function httpError(error: APIError, status: number, ctx: ErrorContext): ClassifiedError {
  const said = providerMessage(error);
  const info = guardInfo(error);
  const make = (kind: ModelErrorKind, message: string, retryable: boolean): ClassifiedError => ({
    error: new ModelError(kind, message, status),
    retryable,
    serverDelayMs: retryable ? serverRetryDelayMs(error.headers) : undefined,
    reason: `HTTP ${status}: ${said}`,
  });
  if (wrongUrl(status, info, said, error.code)) {
    const tried = info?.tried === undefined ? '' : ` ${info.tried}`;
    return make('config', `The model endpoint ${ctx.baseUrl} answered${tried} with HTTP ${info?.status ?? status}: ${sentence(said)} ${NOT_AN_ENDPOINT}`, false);
  }
  // A relay reported a failure with HTTP 200: the status the body named decides what it is.
  const answered = info !== undefined && info.status !== status ? `answered HTTP ${info.status} with an error (HTTP ${status} by its own account)` : undefined;
  if (status === 401) {
    return make('auth', `The model endpoint ${ctx.baseUrl} rejected the API key (HTTP 401): ${sentence(said)} Check the API key.`, false);
  }
  // The key was accepted but may not do this: a project without access to the model, an unsupported region.
  if (status === 403) {
    return make(
      'auth',
      `The model endpoint ${ctx.baseUrl} refused access (HTTP 403): ${sentence(said)} Check that the API key's account or project may use the model "${ctx.model}".`,
      false,
    );
  }
  if (status === 404) {
    return make(
      'config',
      `The model endpoint ${ctx.baseUrl} does not know the model "${ctx.model}" (HTTP 404): ${sentence(said)} Check the model name and the base URL.`,
      false,
    );
  }
  if (status === 429) return make('rate_limit', `The model endpoint ${ctx.baseUrl} is rate limiting requests (HTTP 429): ${sentence(said)}`, true);
  if (isRetryableStatus(status)) {
    return make('server', `The model endpoint ${ctx.baseUrl} ${answered ?? `failed (HTTP ${status})`}: ${sentence(said)}`, true);
  }
  return make('bad_request', `The model endpoint ${ctx.baseUrl} ${answered ?? `rejected the request (HTTP ${status})`}: ${sentence(said)}`, false);
}

/** A status worth another attempt: the server failed, timed out, conflicted or rate limited (429 is answered before it is asked). */
function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 409 || status === 429;
}

/**
 * An error object inside an otherwise good stream: the provider failed mid-answer. Worth a retry
 * (before any text was shown) unless its code says the request itself was wrong.
 */
function streamError(error: APIError | StreamErrorEvent, ctx: ErrorContext): ClassifiedError {
  const said = error instanceof APIError ? providerMessage(error) : trimMessage(error.message);
  const code = error instanceof APIError ? (error.error as { code?: unknown } | undefined)?.code : error.code;
  const status = typeof code === 'number' ? code : undefined;
  const retryable = status === undefined || isRetryableStatus(status);
  const message = `The model endpoint ${ctx.baseUrl} reported an error while streaming: ${sentence(said)}`;
  return { error: new ModelError(retryable ? 'server' : 'bad_request', message, status), retryable, reason: said };
}

function transport(message: string, reason: string): ClassifiedError {
  return { error: new ModelError('transport', message), retryable: true, reason };
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
  const message = redact(classified.error.message, ctx.apiKey);
  return { ...classified, error: new ModelError(kind, message, status), reason: redact(classified.reason, ctx.apiKey) };
}
