/**
 * The fetch the SDK calls, so that every answer reaches it in a shape it handles and no server's
 * failure is reduced to "status code (no body)". An error answer's body, whatever its shape, is
 * rewritten to OpenAI's `{error: {message}}` with the provider's own message, what kind of body it
 * was and the URL that was tried (the SDK keeps only `body.error`, so Mistral's and Gemini's messages
 * were lost). A chat request answered with HTTP 200 but no event stream is handled here too: a JSON
 * error from a relay becomes an HTTP error with the status the body names, a whole `chat.completion`
 * (a server that ignored `stream: true`) becomes the stream it stands for, and an HTML page becomes
 * an error that says the URL is probably not an OpenAI-compatible endpoint. A streamed answer passes
 * through untouched: the guard reads one header per request and nothing per chunk.
 *
 * A call's own abort signal comes here as a fetch option (CALL_SIGNAL), not as the SDK's `signal`:
 * given a signal, the SDK composes it with its own by `AbortSignal.any`, which costs more than the
 * rest of the request's setup (tens of microseconds and the weak references the GC then tracks). Here
 * the two are joined by two listeners on signals that live only as long as the request.
 */
import type OpenAI from 'openai';
import { describeBody, isErrorBody, type ProviderBody } from './providerErrors';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The fetch option that carries a call's abort signal past the SDK (which hands fetch options on as
 * they are). The signal must be the one request's own, not a long-lived one: a listener is left on it.
 */
export const CALL_SIGNAL: unique symbol = Symbol('sprout.callSignal');

type FetchOptions = NonNullable<NonNullable<Parameters<OpenAI['chat']['completions']['create']>[1]>['fetchOptions']>;
type CallSignalInit = RequestInit & { [CALL_SIGNAL]?: AbortSignal };

/** The request's fetch options that carry `signal` to the guarded fetch. */
export function callSignalOption(signal: AbortSignal): FetchOptions {
  // The SDK's type has no room for a symbol-keyed option; it hands it to fetch all the same.
  return { [CALL_SIGNAL]: signal } as unknown as FetchOptions;
}

/** The init with the call's signal joined to the SDK's (its timeout and its own cancels) and the option taken out. */
function joinCallSignal(init: CallSignalInit | undefined): RequestInit | undefined {
  const call = init?.[CALL_SIGNAL];
  if (init === undefined || call === undefined) return init;
  const { [CALL_SIGNAL]: _call, ...rest } = init;
  const sdk = init.signal ?? undefined;
  if (sdk === undefined) return { ...rest, signal: call };
  const both = new AbortController();
  const abort = function (this: AbortSignal): void {
    both.abort(this.reason);
  };
  if (call.aborted || sdk.aborted) both.abort(call.aborted ? call.reason : sdk.reason);
  else {
    call.addEventListener('abort', abort, { once: true });
    sdk.addEventListener('abort', abort, { once: true });
  }
  return { ...rest, signal: both.signal };
}

/** What the guard adds under `error.sprout` of a rewritten body. */
export interface GuardedErrorInfo {
  kind: ProviderBody['kind'];
  raw: string;
  /** `POST https://host/v1/chat/completions`, without the query string. */
  tried: string;
  /** The status the server really sent (200 for a relay's error body). */
  status: number;
}

function urlOf(input: string | URL | Request): URL | undefined {
  try {
    return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  } catch {
    return undefined;
  }
}

function errorResponse(response: Response, body: ProviderBody, tried: string, status: number): Response {
  const sprout: GuardedErrorInfo = { kind: body.kind, raw: body.raw, tried, status: response.status };
  const error = { message: body.message, type: body.type ?? null, code: body.code ?? null, param: null, sprout };
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(JSON.stringify({ error }), { status, statusText: response.statusText, headers });
}

type Json = Record<string, unknown>;

/** More than any error body or single completion needs; a hostile endpoint cannot make us hold more. */
const BODY_MAX_BYTES = 1024 * 1024;

/** The body as text, read up to BODY_MAX_BYTES (the rest is dropped and the stream cancelled). */
async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
      if (bytes >= BODY_MAX_BYTES) {
        await reader.cancel();
        break;
      }
    }
  } catch {
    // A body that breaks off is described by what arrived.
  }
  return text + decoder.decode();
}

/** A non-streamed `chat.completion` as the event stream it stands for. */
function completionAsStream(body: Json, response: Response): Response | undefined {
  const choices = body.choices;
  const choice = Array.isArray(choices) ? (choices[0] as Json | undefined) : undefined;
  const message = choice?.message as Json | undefined;
  if (message === undefined || message === null || typeof message !== 'object') return undefined;
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]).map((call, index) => ({ index, ...call })) : undefined;
  const base = { id: body.id ?? 'chatcmpl', object: 'chat.completion.chunk', created: body.created ?? 0, model: body.model ?? '' };
  const delta = { ...message, role: 'assistant', ...(calls === undefined ? {} : { tool_calls: calls }) };
  const chunks: Json[] = [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: choice?.finish_reason ?? 'stop' }] },
  ];
  if (body.usage !== undefined && body.usage !== null) chunks.push({ ...base, choices: [], usage: body.usage });
  const text = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
  const headers = new Headers(response.headers);
  headers.set('content-type', 'text/event-stream');
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(text, { status: 200, headers });
}

async function guardChatAnswer(response: Response, tried: string, contentType: string): Promise<Response> {
  if (!/application\/json|text\/html/i.test(contentType)) return response;
  const text = await readCapped(response);
  const body = describeBody(text, contentType);
  if (body.kind === 'json') {
    const parsed = JSON.parse(text) as unknown; // describeBody parsed it already, so it parses
    if (!isErrorBody(parsed)) {
      const stream = typeof parsed === 'object' && parsed !== null ? completionAsStream(parsed as Json, response) : undefined;
      if (stream !== undefined) return stream;
      return errorResponse(response, { ...body, message: `JSON that is not a chat completion: ${body.message}` }, tried, 502);
    }
  }
  // Not retried unless the body says otherwise: a retry would only repeat an error nobody can read.
  return errorResponse(response, body, tried, body.status ?? (body.kind === 'json' ? 400 : 404));
}

export function guardedFetch(inner: Fetch = fetch): Fetch {
  return async (input, given) => {
    const init = joinCallSignal(given);
    const response = await inner(input, init);
    const contentType = response.headers.get('content-type') ?? '';
    if (response.ok && contentType.includes('text/event-stream')) return response;
    const url = urlOf(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const tried = `${method} ${url === undefined ? String(input) : `${url.origin}${url.pathname}`}`;
    if (!response.ok) {
      const text = await readCapped(response);
      return errorResponse(response, describeBody(text, contentType), tried, response.status);
    }
    const isChat = method === 'POST' && url !== undefined && url.pathname.endsWith('/chat/completions');
    return isChat ? guardChatAnswer(response, tried, contentType) : response;
  };
}
