/**
 * OpenAiModelClient against FakeOpenAiServer over real HTTP: streaming, tool calls, usage, retries
 * (429 with retry-after, 5xx give-up, transport errors), no retry after visible text, auth, cancel
 * (mid-stream and during backoff), listModels. Every test ends with the fake's validity check.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { ModelError, type Clock, type ModelRequest, type RetryInfo } from '../../../src/agent/ports';
import { OpenAiModelClient, type OpenAiModelClientOptions } from '../../../src/model/openAiModelClient';
import { nodeClock } from '../../../src/platform/nodeClock';
import { fakeReply, startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../../fakes/fakeOpenAiServer';
import { waitFor } from '../../waitFor';

const request: ModelRequest = { model: 'fake-model', messages: [{ role: 'user', content: 'hello' }], tools: [] };
const fast: OpenAiModelClientOptions = { retryBaseDelayMs: 10, retryMaxDelayMs: 50 };
/** Six hours: a wait no test outlives, so only a cancel can end it before the test's hang guard fails it. */
const HOURS = 6 * 3_600_000;
const neverTimesOut: OpenAiModelClientOptions = { requestTimeoutMs: HOURS, streamIdleTimeoutMs: HOURS };

async function fakeFor(t: TestContext, options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const fake = await startFakeOpenAi(options);
  t.after(() => fake.close());
  return fake;
}

function run(client: OpenAiModelClient, req = request, signal = new AbortController().signal) {
  const deltas: string[] = [];
  const retries: RetryInfo[] = [];
  const promise = client.complete(req, { signal, onTextDelta: (d) => deltas.push(d), onRetry: (r) => retries.push(r) });
  return { promise, deltas, retries };
}

async function rejected(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

function assertAllValid(fake: FakeOpenAi): void {
  for (const r of fake.requests) assert.equal(r.valid, true, `request ${r.seq} was rejected: ${r.error}`);
}

test('streams text deltas in order, captures usage, sends include_usage and no tools field', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('The quick brown fox.', { deltaSize: 4, usage: { prompt_tokens: 21, completion_tokens: 6 } })] });
  const { promise, deltas, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, ...fast }));
  const reply = await promise;
  assert.deepEqual(deltas, ['The ', 'quic', 'k br', 'own ', 'fox.']);
  assert.equal(reply.content, 'The quick brown fox.');
  assert.equal(reply.finishReason, 'stop');
  assert.deepEqual(reply.usage, { promptTokens: 21, completionTokens: 6, totalTokens: 27 });
  assert.deepEqual(retries, []);
  const body = fake.chatRequests()[0]?.body as Record<string, unknown>;
  assert.equal(body.stream, true);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.equal('tools' in body, false);
  assert.equal(fake.chatRequests()[0]?.headers.authorization, undefined, 'no key configured: no Authorization header');
  assertAllValid(fake);
});

test('assembles interleaved streamed tool calls and sends the tools', async (t) => {
  const fake = await fakeFor(t, {
    responses: [
      fakeReply.toolCalls(
        [
          { id: 'call_1', name: 'ws__read', arguments: { path: 'src/a long file name.ts' } },
          { id: 'call_2', name: 'todo__plan', arguments: { items: ['one', 'two'] } },
        ],
        { interleaveToolCalls: true, deltaSize: 2 },
      ),
    ],
  });
  const client = new OpenAiModelClient({ baseUrl: fake.url, apiKey: 'sk-local-test', ...fast });
  const tools = [{ name: 'ws__read', description: 'Read', parameters: { type: 'object' } }];
  const reply = await run(client, { ...request, tools }).promise;
  assert.equal(reply.finishReason, 'tool_calls');
  assert.equal(reply.content, null);
  assert.deepEqual(reply.toolCalls, [
    { id: 'call_1', name: 'ws__read', arguments: JSON.stringify({ path: 'src/a long file name.ts' }) },
    { id: 'call_2', name: 'todo__plan', arguments: JSON.stringify({ items: ['one', 'two'] }) },
  ]);
  const sent = fake.chatRequests()[0];
  assert.equal(sent?.headers.authorization, 'Bearer sk-local-test');
  assert.deepEqual((sent?.body as { tools: unknown }).tools, [{ type: 'function', function: { name: 'ws__read', description: 'Read', parameters: { type: 'object' } } }]);
  assertAllValid(fake);
});

test('429 then success: the retry is reported and retry-after-ms is honoured', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.error(429, 'Rate limit reached for requests', { headers: { 'retry-after-ms': '400' } }), fakeReply.text('ok')] });
  // The Node clock itself, watched: what it was asked to wait, and how many requests the server had
  // seen when that wait ended. The retry must come after the wait, whatever the machine's speed.
  const waits: { ms: number; requestsWhenDone: number }[] = [];
  const clock: Clock = { now: () => nodeClock.now(), sleep: async (ms, signal) => { await nodeClock.sleep(ms, signal); waits.push({ ms, requestsWhenDone: fake.chatRequests().length }); } };
  const { promise, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, ...fast, clock }));
  const reply = await promise;
  assert.equal(reply.content, 'ok');
  assert.equal(retries.length, 1);
  assert.equal(retries[0]?.attempt, 1);
  assert.equal(retries[0]?.delayMs, 400, 'the server-requested delay, not our 10 ms base');
  assert.match(retries[0]?.reason ?? '', /429.*Rate limit reached/);
  assert.deepEqual(waits, [{ ms: 400, requestsWhenDone: 1 }], 'waited out the server-requested delay before sending the retry');
  assert.equal(fake.chatRequests().length, 2);
  assertAllValid(fake);
});

test('500 on every attempt: gives up after maxRetries with a clear server error', async (t) => {
  const fake = await fakeFor(t);
  fake.setResponder(() => fakeReply.error(500, 'The server had an error while processing your request.'));
  const { promise, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, maxRetries: 2, ...fast }));
  const error = await rejected(promise);
  assert.equal(error.kind, 'server');
  assert.equal(error.status, 500);
  assert.match(error.message, /failed \(HTTP 500\): The server had an error while processing your request\. Gave up after 3 attempts/);
  assert.ok(error.message.includes(fake.url));
  assert.deepEqual(retries.map((r) => r.attempt), [1, 2]);
  assert.equal(fake.chatRequests().length, 3);
});

test('401 fails at once, without retry and without the key in the message', async (t) => {
  const fake = await fakeFor(t, { apiKey: 'sk-the-right-key-000000', responses: [fakeReply.text('never')] });
  const wrongKey = 'sk-the-wrong-key-1234567890';
  const { promise, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, apiKey: wrongKey, ...fast }));
  const error = await rejected(promise);
  assert.equal(error.kind, 'auth');
  assert.equal(error.status, 401);
  assert.match(error.message, /^The model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 rejected the API key \(HTTP 401\): Incorrect API key provided: .*Check the API key\.$/);
  assert.equal(error.message.includes(wrongKey), false);
  assert.deepEqual(retries, []);
  assert.equal(fake.requests.length, 1);
});

test('403 (the key may not use the model) fails at once and says what to check', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.error(403, 'Project `proj_abc` does not have access to model `fake-model`')] });
  const { promise, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, apiKey: 'sk-a-valid-key-but-no-access', ...fast }));
  const error = await rejected(promise);
  assert.equal(error.kind, 'auth');
  assert.equal(error.status, 403);
  assert.match(error.message, /refused access \(HTTP 403\): Project `proj_abc` does not have access to model `fake-model`\. Check that the API key's account or project may use the model "fake-model"\.$/);
  assert.deepEqual(retries, []);
  assert.equal(fake.requests.length, 1);
});

test('a reset connection is retried; a server that is gone fails as transport naming the base URL', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.destroy(), fakeReply.text('back')] });
  const { promise, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, ...fast }));
  assert.equal((await promise).content, 'back');
  assert.equal(retries.length, 1);
  await fake.close();
  const gone = run(new OpenAiModelClient({ baseUrl: fake.url, maxRetries: 1, ...fast }));
  const error = await rejected(gone.promise);
  assert.equal(error.kind, 'transport');
  assert.match(error.message, /Could not reach the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1: connection refused/);
  assert.equal(gone.retries.length, 1);
});

test('a stream cut before any text is retried', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('lost', { cutAfterChunks: 1 }), fakeReply.text('whole')] });
  const { promise, deltas, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, ...fast }));
  assert.equal((await promise).content, 'whole');
  assert.equal(deltas.join(''), 'whole');
  assert.equal(retries.length, 1);
});

test('a stream cut after text was shown is not retried (no duplicated text)', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('Hello, this will break', { cutAfterChunks: 4 }), fakeReply.text('must not be requested')] });
  const { promise, deltas, retries } = run(new OpenAiModelClient({ baseUrl: fake.url, ...fast }));
  const error = await rejected(promise);
  assert.equal(error.kind, 'transport');
  assert.match(error.message, /after part of the reply was shown\. Not retried/);
  assert.equal(deltas.join(''), 'Hello, th');
  assert.deepEqual(retries, []);
  assert.equal(fake.chatRequests().length, 1);
  assert.equal(fake.pending(), 1);
});

test('cancel mid-stream rejects with cancelled promptly', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('streaming forever...', { hangAfterChunks: 3 })] });
  const controller = new AbortController();
  const client = new OpenAiModelClient({ baseUrl: fake.url, ...fast, ...neverTimesOut });
  const deltas: string[] = [];
  const promise = client.complete(request, { signal: controller.signal, onTextDelta: (d) => { deltas.push(d); if (deltas.length === 2) controller.abort(); } });
  // No timeout of the client's could end this call: only the cancel can, or the test's hang guard fails it.
  const error = await rejected(promise);
  assert.equal(error.kind, 'cancelled');
  assert.equal(fake.chatRequests().length, 1);
});

test('cancel during a hang before the first byte, and during a backoff sleep', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.hang(), fakeReply.error(503, 'busy', { headers: { 'retry-after': String(HOURS / 1000) } })] });
  // The hang and the backoff could each only be waited out in hours: only the cancel ends them in time
  // for the test's hang guard.
  const client = new OpenAiModelClient({ baseUrl: fake.url, ...fast, ...neverTimesOut, retryMaxDelayMs: HOURS });
  const hang = new AbortController();
  const hung = client.complete(request, { signal: hang.signal });
  await waitFor(() => fake.chatRequests().length === 1, 'the hung request to reach the server');
  hang.abort();
  assert.equal((await rejected(hung)).kind, 'cancelled');
  const backoff = new AbortController();
  const retries: RetryInfo[] = [];
  const promise = client.complete(request, { signal: backoff.signal, onRetry: (r) => { retries.push(r); backoff.abort(); } });
  assert.equal((await rejected(promise)).kind, 'cancelled');
  assert.equal(retries[0]?.delayMs, HOURS, 'the server asked for hours and was to be waited for');
  assert.equal(fake.chatRequests().length, 2, 'the cancelled backoff sent no retry');
});

test('404 names the model; a rejected history is a bad_request with the provider message', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.error(404, 'The model `nope` does not exist or you do not have access to it.')] });
  const client = new OpenAiModelClient({ baseUrl: fake.url, ...fast });
  const missing = await rejected(run(client, { ...request, model: 'nope' }).promise);
  assert.equal(missing.kind, 'config');
  assert.match(missing.message, /does not know the model "nope" \(HTTP 404\)/);
  const orphan: ModelRequest = { ...request, messages: [{ role: 'user', content: 'x' }, { role: 'tool', toolCallId: 'c9', content: 'r' }] };
  const bad = run(client, orphan);
  const error = await rejected(bad.promise);
  assert.equal(error.kind, 'bad_request');
  assert.match(error.message, /HTTP 400\): Invalid parameter: messages with role 'tool' must be a response/);
  assert.deepEqual(bad.retries, []);
});

test('configuration errors: no model name, bad base URL', async () => {
  const none = await rejected(new OpenAiModelClient({ baseUrl: 'http://127.0.0.1:1/v1' }).complete({ ...request, model: ' ' }, { signal: new AbortController().signal }));
  assert.equal(none.kind, 'config');
  assert.match(none.message, /No model name/);
  const badUrl = await rejected(new OpenAiModelClient({ baseUrl: 'not a url' }).complete(request, { signal: new AbortController().signal }));
  assert.equal(badUrl.kind, 'config');
  assert.equal((await rejected(new OpenAiModelClient({ baseUrl: '  ' }).listModels())).kind, 'config');
});

test('listModels returns the sorted ids; query strings and extra headers reach the endpoint', async (t) => {
  const fake = await fakeFor(t, { apiKey: 'sk-list-key-123456', models: ['zeta', 'alpha', 'mid'], responses: [fakeReply.text('hi')] });
  const client = new OpenAiModelClient({ baseUrl: `${fake.url}?api-version=2024-10-21`, apiKey: 'sk-list-key-123456', defaultHeaders: { 'x-team': 'sprout' }, ...fast });
  assert.deepEqual(await client.listModels(), ['alpha', 'mid', 'zeta']);
  assert.equal((await run(client).promise).content, 'hi');
  const chat = fake.chatRequests()[0];
  assert.equal(chat?.url, '/v1/chat/completions?api-version=2024-10-21');
  assert.equal(chat?.headers['x-team'], 'sprout');
  assertAllValid(fake);
  const denied = await rejected(new OpenAiModelClient({ baseUrl: fake.url, apiKey: 'sk-wrong-key-99999' }).listModels());
  assert.equal(denied.kind, 'auth');
});

test('a stream that goes silent is dropped: retried before any text, a transport error after', async (t) => {
  const fake = await fakeFor(t, {
    responses: [fakeReply.text('never arrives', { hangAfterChunks: 1 }), fakeReply.text('second try'), fakeReply.text('partial then silence', { hangAfterChunks: 3 })],
  });
  const client = new OpenAiModelClient({ baseUrl: fake.url, streamIdleTimeoutMs: 300, ...fast });
  const first = run(client);
  assert.equal((await first.promise).content, 'second try');
  assert.equal(first.retries.length, 1);
  assert.match(first.retries[0]?.reason ?? '', /sent nothing for 300 ms/);
  const second = run(client);
  const error = await rejected(second.promise);
  assert.equal(error.kind, 'transport');
  assert.match(error.message, /sent nothing for 300 ms after part of the reply was shown/);
  assert.equal(second.deltas.join(''), 'partia');
  assert.equal(fake.chatRequests().length, 3);
});

test('without a configured key nothing is taken from OPENAI_API_KEY in the environment', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('local')] });
  const saved = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = 'sk-from-the-environment-123';
  t.after(() => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  });
  assert.equal((await run(new OpenAiModelClient({ baseUrl: fake.url, ...fast })).promise).content, 'local');
  assert.equal(fake.chatRequests()[0]?.headers.authorization, undefined);
  assert.equal(fake.chatRequests()[0]?.rawBody.includes('sk-from-the-environment'), false);
});
