/**
 * Retry only what can succeed, end to end (docs/model-servers.md): billing errors (OpenAI's 429
 * insufficient_quota, OpenRouter's 402) end the turn at once and say it is not rate limiting; a
 * server that is not set up for tools says what to change, even when it answers 500; Groq's
 * tool_use_failed (as an HTTP 400 or as an error event in the stream) is worth exactly one more
 * round; a CDN's or proxy's 5xx page is transient at an endpoint that has answered before, and a
 * wrong URL on the first request. Every retry names its cause and carries the provider's words.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import type { Rig } from '../loop/loopHarness';
import { checkTurn, openTurn, TWO_ECHOES } from './serverHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The turn fails at once with `message`; nothing was retried; the next prompt runs a whole turn. */
async function failsOnce(first: FakeResponse, message: RegExp): Promise<void> {
  rig = await openTurn({ toolRounds: [first, fakeReply.toolCalls(TWO_ECHOES)] });
  const failed = await rig.runtime.session.run('echo twice');
  assert.equal(failed.reason, 'error');
  assert.match(failed.message ?? '', message);
  assert.equal(rig.fake.chatRequests().length, 1, 'not retried');
  assert.deepEqual(rig.of('retry'), []);
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
}

test("OpenAI's 429 insufficient_quota is billing, not rate limiting: never retried", async () => {
  const body = { error: { message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } };
  await failsOnce(fakeReply.error(429, '', { body, headers: { 'retry-after': '1' } }), /for billing reasons \(HTTP 429\): You exceeded your current quota.*This is not rate limiting, so it was not retried/);
});

test("OpenRouter's 402 for credits is billing: never retried", async () => {
  const body = { error: { message: 'This request requires more credits, or fewer max_tokens. You requested up to 16384 tokens, but can only afford 3919. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account', code: 402 } };
  await failsOnce(fakeReply.error(402, '', { body }), /for billing reasons \(HTTP 402\): This request requires more credits/);
});

test('a server not set up for tools (llama-server without --jinja, answering 500) says what to change: never retried', async () => {
  const body = { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } };
  await failsOnce(fakeReply.error(500, '', { body }), /cannot serve tool calls as it is set up \(HTTP 500\): tools param requires --jinja flag\. llama-server needs its --jinja flag/);
});

const TOOL_USE_FAILED = { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: '<function=tools__echo>{"text": "first"</function>' };

test("Groq's 400 tool_use_failed: the round is asked once more, saying why, and goes on", async () => {
  rig = await openTurn({ toolRounds: [fakeReply.error(400, '', { body: { error: TOOL_USE_FAILED } }), fakeReply.toolCalls(TWO_ECHOES)] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  const [retry] = rig.of('retry');
  assert.equal(retry?.cause, 'malformed_tool_call');
  assert.match(retry?.reason ?? '', /malformed tool call \(HTTP 400\): Failed to call a function/);
});

test("Groq's tool_use_failed as an error event in the stream: the same one more round", async () => {
  const streamError = { error: { ...TOOL_USE_FAILED, status_code: 400 } };
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { errorAfterChunks: 1, namedErrorEvent: true, streamError }), fakeReply.toolCalls(TWO_ECHOES)] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  assert.deepEqual(rig.of('retry').map((e) => e.cause), ['malformed_tool_call']);
});

test('tool_use_failed twice: the turn ends saying the model failed again after one more try', async () => {
  const failed = fakeReply.error(400, '', { body: { error: TOOL_USE_FAILED } });
  rig = await openTurn({ toolRounds: [failed, failed, fakeReply.toolCalls(TWO_ECHOES)] });
  const outcome = await rig.runtime.session.run('echo twice');
  assert.equal(outcome.reason, 'error');
  assert.match(outcome.message ?? '', /produced a malformed tool call \(HTTP 400\): Failed to call a function.*again after one more try/);
  assert.equal(rig.fake.chatRequests().length, 2);
});

const cloudflare524 = (host: string) =>
  `<!DOCTYPE html>\n<html lang="en-US"><head><title>${host} | 524: A timeout occurred</title></head><body><h1>A timeout occurred</h1><p>Cloudflare</p></body></html>`;

test("a Cloudflare 524 page at an endpoint that answered before is transient: retried with backoff, named as the proxy's", async () => {
  const page = fakeReply.error(524, '', { text: cloudflare524('api.example.com'), contentType: 'text/html; charset=UTF-8' });
  const nginx = fakeReply.error(504, '', { text: '<html><head><title>504 Gateway Time-out</title></head><body><center><h1>504 Gateway Time-out</h1></center><hr><center>nginx</center></body></html>', contentType: 'text/html' });
  rig = await openTurn({ after: [page, nginx, fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'again' } }]), fakeReply.text('ok')] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  assert.equal((await rig.runtime.session.run('once more')).reason, 'end_turn');
  const retries = rig.of('retry');
  assert.deepEqual(retries.map((e) => e.cause), ['proxy_page', 'proxy_page']);
  assert.match(retries[0]?.reason ?? '', /HTTP 524 from a proxy or CDN \(an HTML page \("api\.example\.com \| 524: A timeout occurred"\)\) at an endpoint that answered before: transient/);
  assert.ok(retries.every((e) => e.delayMs > 0), 'with backoff');
});

test('the same page on the very first request: probably not an OpenAI-compatible endpoint, not retried', async () => {
  await failsOnce(fakeReply.error(524, '', { text: cloudflare524('wrong.example.com'), contentType: 'text/html' }), /with HTTP 524: an HTML page .*probably not an OpenAI-compatible \/v1 endpoint/);
});
