/**
 * The rules the real Chat Completions API enforces on a request body, as the fake server applies
 * them: a rejected request gets status 400 and the real error JSON, with messages worded like
 * OpenAI's own (typos included), so a history bug in the agent fails a test the way it would fail
 * against the real service.
 */
import { checkContentParts } from './contentParts';
import { openAiErrorBody } from './fakeOpenAiTypes';

export interface Rejection {
  status: number;
  /** The body as the real API words it (OpenAI's `{error}`, Mistral's `{object: "error"}`, Gemini's array). */
  body: unknown;
  /** The message, for the request record. */
  message: string;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;
/** The most tools one request may carry. */
export const MAX_TOOLS = 128;
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

function reject(message: string, param: string | null = null, code: string | null = null): Rejection {
  return { status: 400, body: openAiErrorBody(message, 'invalid_request_error', param, code), message };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkToolName(name: unknown, param: string): Rejection | undefined {
  if (typeof name !== 'string' || name.length === 0) {
    return reject(`Invalid '${param}': expected a non-empty string.`, param, 'invalid_type');
  }
  if (name.length > 64) {
    return reject(
      `Invalid '${param}': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
      param,
      'string_above_max_length',
    );
  }
  if (!TOOL_NAME.test(name)) {
    return reject(`Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, param, 'invalid_value');
  }
  return undefined;
}

function checkTools(tools: unknown, maxTools: number): Rejection | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return reject("Invalid type for 'tools': expected an array, but got an object instead.", 'tools', 'invalid_type');
  if (tools.length === 0) return reject("Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'tools', 'empty_array');
  // OpenAI's limit and words, as users meet them: https://github.com/vishalmysore/Tools4AI/issues/16
  if (tools.length > maxTools) {
    return reject(`Invalid 'tools': array too long. Expected an array with maximum length ${maxTools}, but got an array with length ${tools.length} instead.`, 'tools', 'array_above_max_length');
  }
  for (const [i, tool] of tools.entries()) {
    if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function)) {
      return reject(`Missing required parameter: 'tools[${i}].function'.`, `tools[${i}].function`, 'missing_required_parameter');
    }
    const bad = checkToolName(tool.function.name, `tools[${i}].function.name`);
    if (bad) return bad;
    const missing = arrayWithoutItems(tool.function.parameters, []);
    if (missing !== undefined) {
      const context = missing.map((k) => `'${k}'`).join(', ');
      return reject(`Invalid schema for function '${String(tool.function.name)}': In context=(${context}), array schema missing items.`, `tools[${i}].function.parameters`, 'invalid_function_parameters');
    }
  }
  return undefined;
}

/** OpenAI's schema check: the path to the first array schema with no `items` (it rejects the request). */
function arrayWithoutItems(schema: unknown, path: string[]): string[] | undefined {
  if (!isObject(schema)) return undefined;
  const isArray = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
  if (isArray && !('items' in schema)) return path;
  const subs: [string[], unknown][] = [];
  if (isObject(schema.properties)) for (const [name, sub] of Object.entries(schema.properties)) subs.push([[...path, 'properties', name], sub]);
  for (const key of ['$defs', 'definitions']) if (isObject(schema[key])) for (const [name, sub] of Object.entries(schema[key] as Json)) subs.push([[...path, key, name], sub]);
  if (schema.items !== undefined) subs.push([[...path, 'items'], schema.items]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((sub, i) => subs.push([[...path, key, String(i)], sub]));
  for (const [at, sub] of subs) {
    const found = arrayWithoutItems(sub, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Walks the messages once, tracking the tool-call block opened by the latest assistant message. */
class HistoryChecker {
  private open: { at: number; unanswered: Set<string>; all: Set<string> } | undefined;
  private readonly seenCallIds = new Set<string>();

  check(messages: unknown[]): Rejection | undefined {
    for (const [i, message] of messages.entries()) {
      const bad = this.message(message, i);
      if (bad) return bad;
    }
    return this.closeBlock();
  }

  private message(message: unknown, i: number): Rejection | undefined {
    if (!isObject(message)) return reject(`Invalid type for 'messages[${i}]': expected an object, but got a string instead.`, `messages[${i}]`, 'invalid_type');
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      return reject(
        `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`,
        `messages[${i}].role`,
        'invalid_value',
      );
    }
    const parts = checkContentParts(message, i);
    if (parts) return parts;
    if (message.role === 'tool') return this.tool(message, i);
    const closed = this.closeBlock();
    if (closed) return closed;
    if (message.role === 'assistant') return this.assistant(message, i);
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      return reject(`Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got null instead.`, `messages[${i}].content`, 'invalid_type');
    }
    return undefined;
  }

  private assistant(message: Json, i: number): Rejection | undefined {
    const calls = message.tool_calls;
    const hasCalls = Array.isArray(calls) && calls.length > 0;
    if (!hasCalls && (message.content === null || message.content === undefined)) {
      return reject("Invalid value for 'content': expected a string, got null.", `messages.[${i}].content`, null);
    }
    if (!hasCalls) return undefined;
    const ids = new Set<string>();
    for (const [j, call] of (calls as unknown[]).entries()) {
      if (!isObject(call) || typeof call.id !== 'string' || !isObject(call.function) || call.type !== 'function') {
        return reject(`Missing required parameter: 'messages[${i}].tool_calls[${j}].function'.`, `messages[${i}].tool_calls[${j}]`, 'missing_required_parameter');
      }
      const badName = checkToolName(call.function.name, `messages[${i}].tool_calls[${j}].function.name`);
      if (badName) return badName;
      if (call.id.length > 40) {
        return reject(
          `Invalid 'messages[${i}].tool_calls[${j}].id': string too long. Expected a string with maximum length 40, but got a string with length ${call.id.length} instead.`,
          `messages[${i}].tool_calls[${j}].id`,
          'string_above_max_length',
        );
      }
      if (typeof call.function.arguments !== 'string') {
        return reject(`Invalid type for 'messages[${i}].tool_calls[${j}].function.arguments': expected a string.`, `messages[${i}].tool_calls[${j}].function.arguments`, 'invalid_type');
      }
      if (this.seenCallIds.has(call.id)) {
        return reject(`Invalid parameter: Duplicate value for 'tool_call_id' of ${call.id} in message[${i}]. Duplicate values are not allowed.`, `messages.[${i}].tool_calls`, null);
      }
      this.seenCallIds.add(call.id);
      ids.add(call.id);
    }
    this.open = { at: i, unanswered: new Set(ids), all: ids };
    return undefined;
  }

  private tool(message: Json, i: number): Rejection | undefined {
    if (!this.open) {
      return reject("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`, null);
    }
    const id = message.tool_call_id;
    if (typeof id !== 'string') return reject(`Missing required parameter: 'messages[${i}].tool_call_id'.`, `messages[${i}].tool_call_id`, 'missing_required_parameter');
    if (!this.open.all.has(id)) {
      return reject(`Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, `messages.[${i}].tool_call_id`, null);
    }
    if (!this.open.unanswered.has(id)) {
      return reject(`Invalid parameter: Duplicate value for 'tool_call_id' of ${id} in message[${i}]. Duplicate values are not allowed.`, `messages.[${i}].tool_call_id`, null);
    }
    this.open.unanswered.delete(id);
    return undefined;
  }

  private closeBlock(): Rejection | undefined {
    const open = this.open;
    this.open = undefined;
    if (!open || open.unanswered.size === 0) return undefined;
    return reject(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open.unanswered].join(', ')}`,
      `messages.[${open.at}].role`,
      null,
    );
  }
}

/** Returns the rejection the real API would give, or undefined for an acceptable request. */
export function validateChatRequest(body: unknown, maxTools = MAX_TOOLS): Rejection | undefined {
  if (!isObject(body)) return reject('We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.');
  if (typeof body.model !== 'string' || body.model.length === 0) return reject('you must provide a model parameter');
  if (body.messages === undefined) return reject("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(body.messages)) return reject("Invalid type for 'messages': expected an array, but got an object instead.", 'messages', 'invalid_type');
  if (body.messages.length === 0) return reject("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) {
    return reject("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options', null);
  }
  if (body.max_tokens !== undefined && body.max_tokens !== null && (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)) {
    return reject(`Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got ${JSON.stringify(body.max_tokens)} instead.`, 'max_tokens', 'integer_below_min_value');
  }
  return checkTools(body.tools, maxTools) ?? new HistoryChecker().check(body.messages);
}

export function authRejection(header: string | undefined, apiKey: string): Rejection | undefined {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  if (!match) {
    const message = "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    return { status: 401, body: openAiErrorBody(message, 'invalid_request_error'), message };
  }
  const given = match[1] ?? '';
  if (given === apiKey) return undefined;
  const masked = given.length > 8 ? `${given.slice(0, 3)}${'*'.repeat(given.length - 7)}${given.slice(-4)}` : '***';
  const message = `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  return { status: 401, body: openAiErrorBody(message, 'invalid_request_error', null, 'invalid_api_key'), message };
}
