/** Every error-body shape of docs/model-servers.md read for the provider's own message. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeBody, isErrorBody, isModelNotFound } from '../../../src/model/providerErrors';

test("OpenAI's, Mistral's, Gemini's and FastAPI's JSON shapes give the provider's message and status", () => {
  assert.deepEqual(describeBody('{"error":{"message":"Bad key","type":"invalid_request_error","code":"invalid_api_key"}}'), {
    kind: 'json',
    message: 'Bad key',
    raw: '{"error":{"message":"Bad key","type":"invalid_request_error","code":"invalid_api_key"}}',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  });
  assert.equal(describeBody('{"object":"error","message":"Invalid model: x","type":"invalid_model","code":"1500"}').message, 'Invalid model: x');
  const pydantic = '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true}]}}';
  assert.equal(describeBody(pydantic).message, 'body.stream_options.include_usage: Extra inputs are not permitted');
  const gemini = describeBody('[{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}]');
  assert.deepEqual([gemini.message, gemini.status], ['Resource has been exhausted', 429]);
  assert.equal(describeBody('[{"error":{"message":"Down","status":"UNAVAILABLE"}}]').status, 503);
  assert.equal(describeBody('{"detail":"Not Found"}').message, 'Not Found');
  assert.equal(describeBody('{"error":"model \\"llama9\\" not found, try pulling it first"}').message, 'model "llama9" not found, try pulling it first');
  assert.equal(describeBody('{"unexpected":true}').message, '{"unexpected":true}');
});

test('plain text is trimmed and capped; HTML gives its title; an empty body says so', () => {
  assert.deepEqual([describeBody('  Bad   Gateway \n').kind, describeBody('  Bad   Gateway \n').message], ['text', 'Bad Gateway']);
  assert.equal(describeBody('x'.repeat(1000)).message.length, 400);
  const html = describeBody('<!DOCTYPE html><html><head><title>404 Not Found &amp; gone</title></head></html>', 'text/html');
  assert.deepEqual([html.kind, html.message], ['html', 'an HTML page ("404 Not Found & gone")']);
  assert.equal(describeBody('<html><body>nothing</body></html>').message, 'an HTML page');
  assert.equal(describeBody('').kind, 'empty');
});

test('an error body is told from an answer; a 404 about the model from one about the URL', () => {
  assert.equal(isErrorBody({ error: { message: 'x' } }), true);
  assert.equal(isErrorBody([{ error: { message: 'x' } }]), true);
  assert.equal(isErrorBody({ object: 'error', message: 'x' }), true);
  assert.equal(isErrorBody({ object: 'chat.completion', choices: [] }), false);
  assert.equal(isModelNotFound({ kind: 'json', message: 'The model `x` does not exist', code: undefined }), true);
  assert.equal(isModelNotFound({ kind: 'json', message: 'whatever', code: 'model_not_found' }), true);
  assert.equal(isModelNotFound({ kind: 'json', message: 'Not Found', code: undefined }), false);
  assert.equal(isModelNotFound({ kind: 'text', message: '404 page not found', code: undefined }), false);
});
