/**
 * The response guard over a scripted fetch (canned Response objects, no network): streams pass
 * through untouched, every other answer to a chat request reaches the SDK in a shape it handles.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callSignalOption, guardedFetch } from '../../../src/model/responseGuard';

const CHAT = 'http://127.0.0.1:9/v1/chat/completions?api-version=1';
const post = { method: 'POST', body: '{}' };

function scriptedFetch(response: Response) {
  return async (): Promise<Response> => response;
}

async function errorOf(response: Response): Promise<{ message: string; sprout: { kind: string; tried: string; status: number; raw: string } }> {
  return ((await response.json()) as { error: { message: string; sprout: { kind: string; tried: string; status: number; raw: string } } }).error;
}

test('an event stream is passed through as the very same object', async () => {
  const stream = new Response('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  assert.equal(await guardedFetch(scriptedFetch(stream))(CHAT, post), stream);
});

test('an error answer of any shape becomes {error: {message}} with its kind, what was tried (no query) and its status', async () => {
  const mistral = new Response('{"object":"error","message":"Invalid model: x"}', { status: 400, headers: { 'content-type': 'application/json', 'retry-after': '2' } });
  const guarded = await guardedFetch(scriptedFetch(mistral))(CHAT, post);
  assert.equal(guarded.status, 400);
  assert.equal(guarded.headers.get('retry-after'), '2', 'headers (retry-after) survive');
  const error = await errorOf(guarded);
  assert.equal(error.message, 'Invalid model: x');
  assert.deepEqual([error.sprout.kind, error.sprout.tried, error.sprout.status], ['json', 'POST http://127.0.0.1:9/v1/chat/completions', 400]);
  const html = await errorOf(await guardedFetch(scriptedFetch(new Response('<html><title>Oops</title></html>', { status: 404, headers: { 'content-type': 'text/html' } })))(CHAT, post));
  assert.deepEqual([html.sprout.kind, html.message], ['html', 'an HTML page ("Oops")']);
});

test('HTTP 200 on a chat request: a JSON error takes the status it names, HTML is an error, other JSON too', async () => {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const relay = await guardedFetch(scriptedFetch(json({ error: { message: 'Upstream overloaded', code: 503 } })))(CHAT, post);
  assert.equal(relay.status, 503);
  assert.equal((await errorOf(relay)).sprout.status, 200);
  assert.equal((await guardedFetch(scriptedFetch(json({ error: { message: 'no' } })))(CHAT, post)).status, 400);
  const page = await guardedFetch(scriptedFetch(new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } })))(CHAT, post);
  assert.equal(page.status, 404);
  assert.equal((await guardedFetch(scriptedFetch(json({ hello: 'world' })))(CHAT, post)).status, 502);
});

test('a whole chat.completion for a streaming request becomes the stream it stands for', async () => {
  const completion = {
    id: 'c1',
    object: 'chat.completion',
    model: 'm',
    choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, reasoning_content: 'hm', tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }] } }],
    usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
  };
  const res = await guardedFetch(scriptedFetch(new Response(JSON.stringify(completion), { headers: { 'content-type': 'application/json' } })))(CHAT, post);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const events = (await res.text()).split('\n\n').filter((e) => e !== '');
  assert.equal(events.at(-1), 'data: [DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)) as { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown });
  assert.deepEqual(chunks[0]?.choices[0]?.delta.tool_calls, [{ index: 0, id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }]);
  assert.equal(chunks[0]?.choices[0]?.delta.reasoning_content, 'hm');
  assert.equal(chunks[1]?.choices[0]?.finish_reason, 'tool_calls');
  assert.deepEqual(chunks[2]?.usage, completion.usage);
});

test('a 200 JSON answer to anything but a chat request (GET /models) is left alone', async () => {
  const models = new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } });
  assert.equal(await guardedFetch(scriptedFetch(models))('http://127.0.0.1:9/v1/models', { method: 'GET' }), models);
});

test('an endless error body is read only up to its cap', async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
    },
  });
  const res = await guardedFetch(scriptedFetch(new Response(endless, { status: 500, headers: { 'content-type': 'text/plain' } })))(CHAT, post);
  const error = await errorOf(res);
  assert.equal(res.status, 500);
  assert.equal(error.message.length, 400);
  assert.ok(pulled < 40, `stopped reading after about 1 MB (${pulled} pieces of 64 KB)`);
});

test("a call's signal given as a fetch option reaches fetch joined with the SDK's, and the option itself does not", async () => {
  const seen: (RequestInit | undefined)[] = [];
  const fetchSeen = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push(init);
    return new Response('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } });
  };
  const call = new AbortController();
  const sdk = new AbortController();
  await guardedFetch(fetchSeen)(CHAT, { ...post, signal: sdk.signal, ...callSignalOption(call.signal) });
  const sent = seen[0]?.signal;
  assert.ok(sent);
  assert.equal(Object.getOwnPropertySymbols(seen[0] ?? {}).length, 0);
  assert.equal(sent.aborted, false);
  call.abort();
  assert.equal(sent.aborted, true);
  const other = new AbortController();
  await guardedFetch(fetchSeen)(CHAT, { ...post, signal: other.signal, ...callSignalOption(new AbortController().signal) });
  other.abort();
  assert.equal(seen[1]?.signal?.aborted, true);
});
