/**
 * The rules the fake applies when it plays Mistral, DeepSeek, Kimi, Gemini or vLLM, on top of OpenAI's (sources
 * in docs/model-servers.md). Each rejection is worded and shaped as that API's own: Mistral's
 * `{object: "error"}` with a pydantic `detail` for fields it does not know, DeepSeek's OpenAI-shaped
 * 400, Gemini's array of errors. The fake remembers what it sent (the reasoning of each reply, the
 * signature of each call) so it can check that exactly that came back.
 */
import type { FakeProvider } from './fakeOpenAiTypes';
import type { Rejection } from './validateChatRequest';

type Json = Record<string, unknown>;

/** What the fake sent that must come back: reasoning by reply (its first call id, or `text:` + its text), signatures by call id. */
export interface IssuedProviderData {
  reasoning: Map<string, string>;
  signatures: Map<string, string>;
}

const SKIP_SIGNATURE = 'skip_thought_signature_validator';

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
const MISTRAL_MESSAGE_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'prefix']);
const MISTRAL_CALL_KEYS = new Set(['id', 'type', 'function', 'index']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messagesOf(body: Json): Json[] {
  return Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

function callsOf(message: Json): Json[] {
  return Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
}

/** The key under which the fake remembers the reasoning of the reply that became this message. */
export function replyKey(message: { content?: unknown; tool_calls?: unknown }): string {
  const first = Array.isArray(message.tool_calls) && isObject(message.tool_calls[0]) ? message.tool_calls[0].id : undefined;
  return typeof first === 'string' ? `call:${first}` : `text:${String(message.content ?? '')}`;
}

function mistralExtraField(loc: (string | number)[], input: unknown): Rejection {
  const detail = [{ type: 'extra_forbidden', loc: ['body', ...loc], msg: 'Extra inputs are not permitted', input }];
  return { status: 422, body: { object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null }, message: `${loc.join('.')}: Extra inputs are not permitted` };
}

function mistralBadId(id: string): Rejection {
  const message = `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`;
  return { status: 400, body: { object: 'error', message, type: 'invalid_function_call', param: null, code: '3280', raw_status_code: 400 }, message };
}

function mistralMessage(message: Json, i: number): Rejection | undefined {
  const role = String(message.role);
  for (const key of Object.keys(message)) if (!MISTRAL_MESSAGE_KEYS.has(key)) return mistralExtraField(['messages', i, role, key], message[key]);
  for (const [j, call] of callsOf(message).entries()) {
    for (const key of Object.keys(call)) if (!MISTRAL_CALL_KEYS.has(key)) return mistralExtraField(['messages', i, role, 'tool_calls', j, key], call[key]);
    if (typeof call.id === 'string' && !MISTRAL_ID.test(call.id)) return mistralBadId(call.id);
  }
  if (role === 'tool' && typeof message.tool_call_id === 'string' && !MISTRAL_ID.test(message.tool_call_id)) return mistralBadId(message.tool_call_id);
  return undefined;
}

/** Mistral checks the request's shape before anything else. */
export function providerRequestRejection(provider: FakeProvider, body: unknown): Rejection | undefined {
  if (provider !== 'mistral' || !isObject(body)) return undefined;
  if (body.stream_options !== undefined) return mistralExtraField(['stream_options'], body.stream_options);
  for (const [i, message] of messagesOf(body).entries()) {
    const bad = mistralMessage(message, i);
    if (bad) return bad;
  }
  return undefined;
}

function deepSeekRejection(messages: Json[], issued: IssuedProviderData, kimi: boolean): Rejection | undefined {
  // Between two user messages with a tool call in between, every assistant message must send its reasoning_content back.
  let segment: number[] = [];
  const check = (): Rejection | undefined => {
    if (!segment.some((i) => callsOf(messages[i] as Json).length > 0)) return undefined;
    for (const i of segment) {
      const message = messages[i] as Json;
      const sent = message.reasoning_content;
      const expected = issued.reasoning.get(replyKey(message));
      let error: string | undefined;
      if (typeof sent !== 'string') {
        error = kimi
          ? `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${i}`
          : `Missing \`reasoning_content\` field in the assistant message at message index ${i}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;
      } else if (expected !== undefined && sent !== expected) error = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
      if (error !== undefined) return { status: 400, body: { error: { message: error, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }, message: error };
    }
    return undefined;
  };
  for (const [i, message] of messages.entries()) {
    if (message.role === 'user') {
      const bad = check();
      if (bad) return bad;
      segment = [];
    } else if (message.role === 'assistant') segment.push(i);
  }
  return check();
}

function geminiRejection(messages: Json[], issued: IssuedProviderData): Rejection | undefined {
  // Gemini validates the current turn (since the last user message): the first call of each step carries its signature.
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  for (let i = lastUser + 1; i < messages.length; i++) {
    const first = callsOf(messages[i] as Json)[0];
    if (first === undefined) continue;
    const extra = first.extra_content as { google?: { thought_signature?: unknown } } | undefined;
    const sent = extra?.google?.thought_signature;
    const expected = typeof first.id === 'string' ? issued.signatures.get(first.id) : undefined;
    if (sent === SKIP_SIGNATURE || (expected !== undefined && sent === expected)) continue;
    const name = isObject(first.function) ? String(first.function.name) : '?';
    const message =
      sent === undefined
        ? `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`
        : `Corrupted thought signature for function call \`default_api:${name}\` , position ${i + 1}.`;
    return { status: 400, body: [{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }], message };
  }
  return undefined;
}

/**
 * vLLM parses every earlier call's `arguments` while rendering the chat template, so text that is not
 * JSON fails the whole request (vllm-project/vllm#43995, #48922); an empty string passes as `{}`.
 */
function vllmRejection(messages: Json[]): Rejection | undefined {
  for (const message of messages) {
    for (const call of callsOf(message)) {
      const args = isObject(call.function) ? call.function.arguments : undefined;
      if (typeof args !== 'string' || args === '') continue;
      try {
        JSON.parse(args);
      } catch (error) {
        const text = (error as Error).message;
        return { status: 400, body: { error: { message: text, type: 'BadRequestError', param: null, code: 400 } }, message: text };
      }
    }
  }
  return undefined;
}

/** DeepSeek's (and Kimi's), Gemini's and vLLM's round-trip rules, checked once the request is valid for OpenAI. */
export function providerHistoryRejection(provider: FakeProvider, body: unknown, issued: IssuedProviderData): Rejection | undefined {
  if (!isObject(body)) return undefined;
  if (provider === 'vllm') return vllmRejection(messagesOf(body));
  if (provider === 'deepseek' || provider === 'kimi') return deepSeekRejection(messagesOf(body), issued, provider === 'kimi');
  if (provider === 'gemini') return geminiRejection(messagesOf(body), issued);
  return undefined;
}
