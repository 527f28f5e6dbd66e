import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { classifyError, rejectionOf, StreamCutError } from '../../../src/model/modelErrors';
import { StreamErrorEvent } from '../../../src/model/streamAccumulator';

const ctx = { baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-test', apiKey: 'sk-test-SECRET-1234567890' };

function httpError(status: number, message: string, headers: Record<string, string> = {}): APIError {
  return APIError.generate(status, { error: { message, type: 'x' } }, undefined, new Headers(headers));
}

test('401 and 403 are auth errors, not retried, with the provider message and what to do', () => {
  const rejected = classifyError(httpError(401, 'Incorrect API key provided'), ctx);
  assert.equal(rejected.error.message, `The model endpoint ${ctx.baseUrl} rejected the API key (HTTP 401): Incorrect API key provided. Check the API key.`);
  const refused = classifyError(httpError(403, 'Project `proj_1` does not have access to model `gpt-test`'), ctx);
  assert.equal(
    refused.error.message,
    `The model endpoint ${ctx.baseUrl} refused access (HTTP 403): Project \`proj_1\` does not have access to model \`gpt-test\`. Check that the API key's account or project may use the model "gpt-test".`,
  );
  for (const [c, status] of [[rejected, 401], [refused, 403]] as const) {
    assert.equal(c.error.kind, 'auth');
    assert.equal(c.retryable, false);
    assert.equal(c.error.status, status);
  }
});

test('404 names the model and base URL; other 4xx are bad requests with the provider text', () => {
  const missing = classifyError(httpError(404, 'The model `gpt-test` does not exist'), ctx);
  assert.equal(missing.error.kind, 'config');
  assert.match(missing.error.message, /"gpt-test"/);
  assert.ok(missing.error.message.includes(ctx.baseUrl));
  const bad = classifyError(httpError(400, "Invalid 'tools[0].function.name'"), ctx);
  assert.equal(bad.error.kind, 'bad_request');
  assert.equal(bad.retryable, false);
  assert.ok(bad.error.message.includes("Invalid 'tools[0].function.name'"));
});

test('429 and 5xx are retryable and carry the server-requested delay', () => {
  const limited = classifyError(httpError(429, 'Rate limit reached', { 'retry-after': '3' }), ctx);
  assert.equal(limited.error.kind, 'rate_limit');
  assert.equal(limited.retryable, true);
  assert.equal(limited.serverDelayMs, 3000);
  const down = classifyError(httpError(503, 'overloaded'), ctx);
  assert.equal(down.error.kind, 'server');
  assert.equal(down.retryable, true);
  assert.equal(down.serverDelayMs, undefined);
});

test('connection refused is a retryable transport error naming the base URL', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const c = classifyError(new APIConnectionError({ message: 'Connection error.', cause: new TypeError('fetch failed', { cause: refused }) }), ctx);
  assert.equal(c.error.kind, 'transport');
  assert.equal(c.retryable, true);
  assert.match(c.error.message, /connection refused \(ECONNREFUSED\)/);
  assert.ok(c.error.message.includes(ctx.baseUrl));
});

test('a cut stream and a body read failure are transport errors; abort is cancelled', () => {
  assert.equal(classifyError(new StreamCutError(), ctx).error.kind, 'transport');
  assert.equal(classifyError(new TypeError('terminated'), ctx).retryable, true);
  const aborted = classifyError(new APIUserAbortError(), ctx);
  assert.equal(aborted.error.kind, 'cancelled');
  assert.equal(aborted.retryable, false);
});

test('the API key never appears in a message, even when the provider echoes it', () => {
  const c = classifyError(httpError(401, `Incorrect API key provided: ${ctx.apiKey}`), ctx);
  assert.equal(c.error.message.includes(ctx.apiKey), false);
  assert.equal(c.reason.includes(ctx.apiKey), false);
  assert.match(c.error.message, /\[redacted\]/);
});

/** An APIError as the SDK builds it from a body the response guard rewrote. */
function guarded(status: number, message: string, sprout: Record<string, unknown>, code: string | null = null): APIError {
  return APIError.generate(status, { error: { message, type: null, code, param: null, sprout: { raw: '', tried: 'POST http://127.0.0.1:9/v1/chat/completions', ...sprout } } }, undefined, new Headers());
}

test('an HTML page or a 404/405/501 that is not about the model: the URL is probably not a /v1 endpoint, with what was tried', () => {
  for (const [status, kind] of [[404, 'html'], [405, 'json'], [501, 'text'], [200, 'html']] as const) {
    const c = classifyError(guarded(status === 200 ? 404 : status, 'an HTML page ("Not Found")', { kind, status }), ctx);
    assert.equal(c.error.kind, 'config');
    assert.equal(c.retryable, false);
    assert.match(c.error.message, new RegExp(`answered POST http://127\\.0\\.0\\.1:9/v1/chat/completions with HTTP ${status}: .*probably not an OpenAI-compatible /v1 endpoint`));
  }
  const model = classifyError(guarded(404, 'model "qwen9" not found, try pulling it first', { kind: 'json', status: 404 }), ctx);
  assert.match(model.error.message, /does not know the model "gpt-test"/);
});

test('HTTP 200 with an error body: the status it names decides, and the message says what came', () => {
  const bad = classifyError(guarded(400, 'invalid tool schema', { kind: 'json', status: 200 }), ctx);
  assert.equal(bad.retryable, false);
  assert.match(bad.error.message, /answered HTTP 200 with an error \(HTTP 400 by its own account\): invalid tool schema\./);
  const busy = classifyError(guarded(503, 'overloaded', { kind: 'json', status: 200 }), ctx);
  assert.equal(busy.retryable, true);
});

test('an error event in the stream is retryable unless its code says the request was wrong', () => {
  assert.equal(classifyError(new StreamErrorEvent('overloaded', 503), ctx).retryable, true);
  assert.equal(classifyError(new StreamErrorEvent('odd', undefined), ctx).retryable, true);
  const wrong = classifyError(new StreamErrorEvent('context too long', 400), ctx);
  assert.deepEqual([wrong.retryable, wrong.error.kind], [false, 'bad_request']);
  assert.match(wrong.error.message, /reported an error while streaming: context too long\./);
});

test('the rejection text for the dialect carries the message and the raw body', () => {
  const r = rejectionOf(guarded(422, 'body.stream_options: Extra inputs are not permitted', { kind: 'json', status: 422, raw: '{"loc":["body","stream_options"]}' }));
  assert.equal(r?.status, 422);
  assert.match(r?.text ?? '', /stream_options: Extra inputs[\s\S]*"loc"/);
  assert.equal(rejectionOf(new Error('x')), undefined);
});

function apiError(status: number | undefined, body: Record<string, unknown>): APIError {
  return status === undefined ? new APIError(undefined, body, undefined, new Headers()) : APIError.generate(status, { error: body }, undefined, new Headers());
}

test('billing is never retried and says it is not rate limiting', () => {
  const quota = classifyError(apiError(429, { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' }), ctx);
  assert.equal(quota.error.kind, 'billing');
  assert.equal(quota.retryable, false);
  assert.match(quota.error.message, /billing reasons \(HTTP 429\): You exceeded your current quota.*This is not rate limiting, so it was not retried/);
  const credits = classifyError(apiError(402, { message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits', code: 402 }), ctx);
  assert.deepEqual([credits.error.kind, credits.retryable], ['billing', false]);
});

test('a server not set up for tools says what to change, not retried even as a 500', () => {
  const jinja = classifyError(apiError(500, { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' }), ctx);
  assert.deepEqual([jinja.error.kind, jinja.retryable], ['config', false]);
  assert.match(jinja.error.message, /restart it with --jinja/);
  const vllm = classifyError(apiError(400, { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError' }), ctx);
  assert.match(vllm.error.message, /--enable-auto-tool-choice --tool-call-parser NAME/);
});

test("a malformed tool call (Groq's tool_use_failed) is worth one more round, as an HTTP error or a stream event", () => {
  const body = { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed' };
  const http = classifyError(apiError(400, body), ctx);
  assert.deepEqual([http.retryable, http.cause], [true, 'malformed_tool_call']);
  const event = classifyError(apiError(undefined, { ...body, status_code: 400 }), ctx);
  assert.deepEqual([event.retryable, event.cause], [true, 'malformed_tool_call']);
  assert.match(event.reason, /malformed tool call \(HTTP 400\): Failed to call a function/);
  assert.deepEqual(rejectionOf(apiError(undefined, { ...body, status_code: 400 })), { status: 400, code: 'tool_use_failed', type: 'invalid_request_error', text: `${body.message}\n` });
});

test('an Azure API Management 401 says how to send the key in api-key', () => {
  const apim = classifyError(apiError(401, { message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.' }), ctx);
  assert.deepEqual([apim.error.kind, apim.retryable], ['auth', false]);
  assert.match(apim.error.message, /set sprout\.model\.compatibility \(SPROUT_AGENT_MODEL_COMPAT\) to "azure"/);
});
