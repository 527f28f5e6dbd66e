/**
 * The vocabulary of the fake OpenAI server: what a test scripts (FakeResponse), what the server
 * records (FakeRequestRecord) and the builders tests use to write scripts briefly (`fakeReply`).
 * Plain JSON data, so a script can also come from a file for the standalone process.
 */

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
}

export interface FakeErrorResponse {
  type: 'error';
  status: number;
  /** The JSON body; default is the real error shape with `message`. */
  body?: unknown;
  message?: string;
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

export type FakeResponse = FakeReplyResponse | FakeErrorResponse | FakeHangResponse | FakeDestroyResponse;

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
  /** What the server answered: the scripted response type, `rejected`, `unscripted` or `models`. */
  outcome?: string;
}

export type FakeResponder = (request: FakeRequestRecord, index: number) => FakeResponse | undefined;

export interface FakeOpenAiOptions {
  /** Scripted responses for chat completion requests, in order. */
  responses?: FakeResponse[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get the real 401. */
  apiKey?: string;
  /** Ids listed by `GET /v1/models`. */
  models?: string[];
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
