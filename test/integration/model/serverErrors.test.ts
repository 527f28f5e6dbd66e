/**
 * Error answers of real servers, end to end through the real openai client and the loop: whatever
 * shape the body has, the turn ends with the provider's own message and what to do, a wrong URL says
 * so and shows what was tried, retryable failures are retried and others are not, and the next
 * prompt goes through (with the `_Stop` hook objecting once, as in every turn of these suites).
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

/** The turn fails with a message matching `message` after `requests` requests; the next prompt runs a whole turn. */
async function failsThenRecovers(first: FakeResponse[], message: RegExp, requests = 1): Promise<string> {
  rig = await openTurn({ toolRounds: [...first, fakeReply.toolCalls(TWO_ECHOES)] });
  const failed = await rig.runtime.session.run('echo twice');
  assert.equal(failed.reason, 'error');
  assert.match(failed.message ?? '', message);
  assert.equal(rig.fake.chatRequests().length, requests);
  const next = await rig.runtime.session.run('echo twice');
  checkTurn(rig, next, { echoes: ['first', 'second'], requests: requests + 4 });
  return failed.message ?? '';
}

const html404 = '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>';

test("Mistral's {object: error, message} body: the provider's message, not \"status code (no body)\"", async () => {
  const body = { object: 'error', message: 'Invalid model: mistral-huge-latest', type: 'invalid_model', param: null, code: '1500' };
  const message = await failsThenRecovers([fakeReply.error(400, '', { body })], /rejected the request \(HTTP 400\): Invalid model: mistral-huge-latest\./);
  assert.doesNotMatch(message, /no body/);
});

test("Mistral's 422 with a pydantic detail as its message: each field and what is wrong with it", async () => {
  const detail = [{ type: 'string_pattern_mismatch', loc: ['body', 'tools', 0, 'function', 'name'], msg: "String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", input: 'a b' }];
  await failsThenRecovers(
    [fakeReply.error(422, '', { body: { object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null } })],
    /HTTP 422\): body\.tools\.0\.function\.name: String should match pattern/,
  );
});

test("Gemini's array of errors: the message, and a 429 RESOURCE_EXHAUSTED is retried", async () => {
  const invalid = [{ error: { code: 400, message: 'Please ensure that function call turn comes immediately after a user turn.', status: 'INVALID_ARGUMENT' } }];
  await failsThenRecovers([fakeReply.error(400, '', { body: invalid })], /HTTP 400\): Please ensure that function call turn comes immediately after a user turn\./);
  await rig?.close();
  const exhausted = [{ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }];
  rig = await openTurn({ toolRounds: [fakeReply.error(429, '', { body: exhausted }), fakeReply.toolCalls(TWO_ECHOES)] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  assert.match(rig.of('retry')[0]?.reason ?? '', /HTTP 429: Resource has been exhausted/);
});

test('a plain-text 502 is retried, then reported with its text', async () => {
  const bad = fakeReply.error(502, '', { text: 'Bad Gateway: upstream connect error' });
  await failsThenRecovers([bad, bad, bad], /failed \(HTTP 502\): Bad Gateway: upstream connect error\. Gave up after 3 attempts/, 3);
});

test('an HTML 404 (a wrong URL): not an OpenAI-compatible /v1 endpoint, with what was tried, not retried', async () => {
  const message = await failsThenRecovers(
    [fakeReply.error(404, '', { text: html404, contentType: 'text/html' })],
    /answered POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions with HTTP 404: an HTML page \("404 Not Found"\)\. This URL is probably not an OpenAI-compatible \/v1 endpoint/,
  );
  assert.match(message, /check the base URL/);
});

test('405 and 501 from a server that is not a chat API: the same advice', async () => {
  await failsThenRecovers([fakeReply.error(405, '', { body: { detail: 'Method Not Allowed' } })], /with HTTP 405: Method Not Allowed\. This URL is probably not an OpenAI-compatible \/v1 endpoint/);
  await rig?.close();
  await failsThenRecovers([fakeReply.error(501, '', { text: 'Unsupported method (\'POST\')' })], /with HTTP 501: Unsupported method \('POST'\)\. This URL is probably not/);
});

test('a 404 about the model names the model, not the URL', async () => {
  const message = await failsThenRecovers(
    [fakeReply.error(404, 'The model `fake-model` does not exist or you do not have access to it.', { body: { error: { message: 'The model `fake-model` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } } })],
    /does not know the model "fake-model" \(HTTP 404\): The model `fake-model` does not exist/,
  );
  assert.doesNotMatch(message, /not an OpenAI-compatible/);
});

test('HTTP 200 whose body is a JSON error (a relay): an error with its message, not retried blindly', async () => {
  await failsThenRecovers([fakeReply.error(200, '', { body: { error: { message: 'Provider returned error: invalid tool schema' } } })], /answered HTTP 200 with an error \(HTTP 400 by its own account\): Provider returned error: invalid tool schema\./);
});

test('HTTP 200 whose JSON error names a 503: retried, and the retry answers', async () => {
  rig = await openTurn({ toolRounds: [fakeReply.error(200, '', { body: { error: { message: 'Upstream overloaded', code: 503 } } }), fakeReply.toolCalls(TWO_ECHOES)] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  assert.match(rig.of('retry')[0]?.reason ?? '', /HTTP 503: Upstream overloaded/);
});

test('HTTP 200 with an HTML page (a proxy or login page): not an OpenAI-compatible endpoint', async () => {
  await failsThenRecovers(
    [fakeReply.error(200, '', { text: '<html><head><title>Sign in - Corporate Proxy</title></head><body>...</body></html>', contentType: 'text/html; charset=utf-8' })],
    /with HTTP 200: an HTML page \("Sign in - Corporate Proxy"\)\. This URL is probably not an OpenAI-compatible \/v1 endpoint/,
  );
});
