/**
 * The vocabulary of the fake OpenAI server: what a test scripts (FakeResponse), what the server
 * records (FakeRequestRecord) and the builders tests use to write scripts briefly (`fakeReply`).
 * Plain JSON data, so a script can also come from a file for the standalone process.
 */
import type { FakeServerRule } from './serverRules';

export interface FakeToolCall {
  /** Defaults to `call_<n>` unique within the server. */
  id?: string;
  name: string;
  /** A string is sent verbatim (it may be invalid JSON on purpose); anything else is JSON-encoded. */
  arguments?: string | Record<string, unknown>;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
}

export interface FakeReplyResponse {
  type: 'reply';
  text?: string | null;
  toolCalls?: FakeToolCall[];
  /** Any string, even one the real API never sends. Default: `tool_calls` with calls, else `stop`. */
  finishReason?: string;
  /** Default: made-up numbers derived from the request and reply sizes. */
  usage?: FakeUsage;
  /** Characters per text delta and per arguments fragment (default 3), so replies arrive in pieces. */
  deltaSize?: number;
  /** Stream fragments of all tool calls round-robin, so indices interleave. */
  interleaveToolCalls?: boolean;
  /** Wait before the status line. */
  delayMs?: number;
  /** Wait between SSE chunks. */
  chunkDelayMs?: number;
  /** Destroy the socket after this many SSE chunks (a stream cut mid-way). */
  cutAfterChunks?: number;
  /** Stop writing after this many SSE chunks and keep the connection open until the client leaves. */
  hangAfterChunks?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  // Quirks of real servers, one switch each (docs/model-servers.md says which server does what).
  /** Thinking streamed before the answer. */
  reasoning?: string;
  /** Where the thinking goes: DeepSeek's `reasoning_content` (default), vLLM/OpenRouter/Ollama `reasoning`, OpenRouter's `reasoning_details` list, or `<think>` tags in the content. */
  reasoningAs?: 'reasoning_content' | 'reasoning' | 'reasoning_details' | 'think_tags';
  /** Thinking and text as typed content parts, as Mistral's Magistral streams them. */
  contentParts?: boolean;
  /** `index` on tool-call deltas: per call as OpenAI does (default), left out, or 0 for every call. */
  toolCallIndex?: 'each' | 'omitted' | 'zero';
  /** Each tool call whole in one delta. */
  wholeToolCalls?: boolean;
  /** Repeat id, type and name in every delta of a call. */
  repeatCallHeader?: boolean;
  /** Send id, type and name again as empty strings in the later deltas of a call. */
  blankLaterHeaders?: boolean;
  /** Leave `type` out of tool-call deltas. */
  omitCallType?: boolean;
  /** Tool-call ids as scripted (default), left out, or empty strings. */
  callIds?: 'scripted' | 'omitted' | 'empty';
  /** Send `arguments` as a JSON object instead of a string (in one delta). */
  argumentsAsObject?: boolean;
  /** Usage in a final chunk when asked (default; Mistral: on the finish chunk, asked or not), in every chunk as a running total, inside the finish chunk's choice (Kimi), or never. */
  usageIn?: 'final' | 'every' | 'choice' | 'none';
  /** SSE comment lines and blank keep-alives between the chunks. */
  sseComments?: boolean;
  /** End the stream without `data: [DONE]`. */
  omitDone?: boolean;
  /** Leave out the chunk carrying the finish reason (`[DONE]` still comes). */
  omitFinish?: boolean;
  /** After this many chunks send an error event (`streamError`, default OpenAI's shape) and end the stream. */
  errorAfterChunks?: number;
  streamError?: unknown;
  /** Name the error event (`event: error`), as Groq does. */
  namedErrorEvent?: boolean;
  /** Answer a streaming request with a whole `chat.completion` object (a server that ignores `stream`). */
  ignoreStream?: boolean;
}

export interface FakeErrorResponse {
  type: 'error';
  status: number;
  /** The JSON body; default is the real error shape with `message`. */
  body?: unknown;
  message?: string;
  /** A raw body instead of JSON (plain text, an HTML page), sent with `contentType`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Accept the request and never answer, until the client aborts or the server closes. */
export interface FakeHangResponse {
  type: 'hang';
}

/** Destroy the socket before any response byte (a connection reset). */
export interface FakeDestroyResponse {
  type: 'destroy';
  delayMs?: number;
}

/**
 * A scenario a real server played, byte for byte: an HTTP status and headers, then each event as
 * given (an object is sent as `data: <json>`, `[DONE]` as `data: [DONE]`, any other string as a raw
 * SSE block such as a `: comment` or `event: error`). The corpus of real reports scripts with it.
 */
export interface FakeScenarioResponse {
  type: 'scenario';
  status?: number;
  headers?: Record<string, string>;
  events: Array<Record<string, unknown> | unknown[] | string>;
}

export type FakeResponse = FakeReplyResponse | FakeErrorResponse | FakeHangResponse | FakeDestroyResponse | FakeScenarioResponse;

export interface FakeRequestRecord {
  /** 0-based position among all requests the server received. */
  seq: number;
  method: string;
  /** Without the query string; `url` has it. */
  path: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined for GET or an unparsable body; see `rawBody`). */
  body: unknown;
  rawBody: string;
  /** False when the server rejected the request as the real API would (400/401). */
  valid: boolean;
  /** Why the server answered with an error it generated itself (a rejection, or no scripted response). */
  error?: string;
  /** What the server answered: the scripted response type, `rejected`, `unscripted`, `models` or `unavailable` (a scripted 503 to `GET /v1/models`). */
  outcome?: string;
}

/** May answer later (a promise), so a test can hold one request until another has arrived. */
export type FakeResponder = (request: FakeRequestRecord, index: number) => FakeResponse | undefined | Promise<FakeResponse | undefined>;

/**
 * Which real API the fake plays, beyond OpenAI's own rules (always checked): `mistral` refuses
 * `stream_options` (422), tool-call ids other than 9 letters and digits (400) and unknown message
 * fields (422), makes 9-character ids and sends usage unasked; `deepseek` streams `reasoning_content`
 * and refuses tool rounds that do not send it back; `kimi` (Moonshot) the same in its own words, with
 * the usage inside the choice; `gemini` signs each reply's first tool call and refuses the current
 * turn's calls without their signature, with its array-shaped error bodies.
 */
export type FakeProvider = 'openai' | 'mistral' | 'deepseek' | 'kimi' | 'gemini' | 'vllm';

export interface FakeOpenAiOptions {
  /** Default `openai`. */
  provider?: FakeProvider;
  /** Scripted responses for chat completion requests, in order. */
  responses?: FakeResponse[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get the real 401 (with `apim-api-key`: without `api-key: <apiKey>`). */
  apiKey?: string;
  /** Strict rules of individual servers (serverRules.ts), checked before OpenAI's own. */
  rules?: FakeServerRule[];
  /** Listen on this port (one the OS gave an earlier fake, to be the same endpoint again); default a free one. */
  port?: number;
  /** Ids listed by `GET /v1/models`. */
  models?: string[];
  /** The first this many `GET /v1/models` answer 503 (a server still loading), the later ones list `models`. */
  modelsUnavailable?: number;
  /** The most tools a request may carry (default OpenAI's 128): higher for an endpoint without that cap, as a self-hosted server (the bench's all-tools side). */
  maxTools?: number;
  /** Called for every request as it is recorded (the standalone process logs with it). */
  onRequest?: (record: FakeRequestRecord) => void;
}

/** Short builders for scripts. */
export const fakeReply = {
  text: (text: string, extra: Partial<FakeReplyResponse> = {}): FakeReplyResponse => ({ type: 'reply', text, ...extra }),
  toolCalls: (calls: FakeToolCall[], extra: Partial<FakeReplyResponse> = {}): FakeReplyResponse => ({ type: 'reply', toolCalls: calls, ...extra }),
  error: (status: number, message = `fake error ${status}`, extra: Partial<FakeErrorResponse> = {}): FakeErrorResponse => ({
    type: 'error',
    status,
    message,
    ...extra,
  }),
  hang: (): FakeHangResponse => ({ type: 'hang' }),
  destroy: (delayMs?: number): FakeDestroyResponse => ({ type: 'destroy', delayMs }),
};

/** The real API's error body. */
export function openAiErrorBody(message: string, type = 'invalid_request_error', param: string | null = null, code: string | null = null) {
  return { error: { message, type, param, code } };
}
