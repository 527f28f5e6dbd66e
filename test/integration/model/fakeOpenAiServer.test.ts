/**
 * The fake OpenAI server itself, over real HTTP: each rejection rule answers 400 with the real error
 * shape, a valid multi-round tool conversation is accepted, scripted and unscripted responses look
 * as documented, and the standalone process prints its URL and logs requests without the key.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fakeReply, startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../../fakes/fakeOpenAiServer';

const REPO = resolve(__dirname, '../../..');

async function fakeFor(t: TestContext, options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const fake = await startFakeOpenAi(options);
  t.after(() => fake.close());
  return fake;
}

async function post(fake: FakeOpenAi, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

type ErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

function assertRejected(result: { status: number; json: unknown }, message: RegExp | string, param?: string | null): void {
  assert.equal(result.status, 400);
  const body = result.json as ErrorBody;
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(body.error.type, 'invalid_request_error');
  if (typeof message === 'string') assert.equal(body.error.message, message);
  else assert.match(body.error.message, message);
  if (param !== undefined) assert.equal(body.error.param, param);
}

const user = { role: 'user', content: 'go' };
const callMsg = (...ids: string[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'ws__read', arguments: '{}' } })),
});
const answer = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const chat = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: 'm', messages, ...extra });

test('tool-message ordering rules are enforced with OpenAI-shaped 400s', async (t) => {
  const fake = await fakeFor(t);
  const orphan = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
  assertRejected(await post(fake, chat([user, answer('c1')])), orphan, 'messages.[1].role');
  assertRejected(await post(fake, chat([user, callMsg('c1'), answer('c1'), user, answer('c1')])), orphan, 'messages.[4].role');
  assertRejected(await post(fake, chat([user, callMsg('c1'), answer('c2')])), "Invalid parameter: 'tool_call_id' of 'c2' not found in 'tool_calls' of previous message.");
  const unanswered = /^An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\. The following tool_call_ids did not have response messages: c2$/;
  assertRejected(await post(fake, chat([user, callMsg('c1', 'c2'), answer('c1'), user])), unanswered, 'messages.[1].role');
  assertRejected(await post(fake, chat([user, callMsg('c1', 'c2'), answer('c1')])), unanswered);
  assert.ok(fake.requests.every((r) => !r.valid && r.outcome === 'rejected' && typeof r.error === 'string'));
});

test('assistant content, tool names, duplicate ids, required fields and stream_options are checked', async (t) => {
  const fake = await fakeFor(t);
  assertRejected(await post(fake, chat([user, { role: 'assistant', content: null }])), "Invalid value for 'content': expected a string, got null.");
  assertRejected(await post(fake, chat([user, { role: 'assistant' }])), "Invalid value for 'content': expected a string, got null.");
  const tool = (name: string) => ({ type: 'function', function: { name, description: '', parameters: {} } });
  assertRejected(await post(fake, chat([user], { tools: [tool('ok_name'), tool('bad name!')] })), /^Invalid 'tools\[1\]\.function\.name': string does not match pattern/, 'tools[1].function.name');
  assertRejected(await post(fake, chat([user], { tools: [tool('x'.repeat(65))] })), /string too long\. Expected a string with maximum length 64, but got a string with length 65 instead\.$/);
  // OpenAI's limit of 128 tools, in its words (https://github.com/vishalmysore/Tools4AI/issues/16).
  const many = Array.from({ length: 129 }, (_, i) => tool(`t${i}`));
  assertRejected(await post(fake, chat([user], { tools: many })), "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead.", 'tools');
  const badCall = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'a.b', arguments: '{}' } }] };
  assertRejected(await post(fake, chat([user, badCall, answer('c1')])), /^Invalid 'messages\[1\]\.tool_calls\[0\]\.function\.name'/);
  assertRejected(await post(fake, chat([user, callMsg('c1', 'c1'), answer('c1')])), /Duplicate value for 'tool_call_id' of c1/);
  assertRejected(await post(fake, chat([user, callMsg('c1'), answer('c1'), callMsg('c1'), answer('c1')])), /Duplicate value for 'tool_call_id' of c1/);
  assertRejected(await post(fake, chat([user, callMsg('c1'), answer('c1'), answer('c1')])), /Duplicate value for 'tool_call_id' of c1/);
  assertRejected(await post(fake, { messages: [user] }), 'you must provide a model parameter');
  assertRejected(await post(fake, { model: 'm' }), "Missing required parameter: 'messages'.", 'messages');
  assertRejected(await post(fake, chat([user], { stream_options: { include_usage: true } })), "The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  assert.equal(fake.requests.filter((r) => r.valid).length, 0);
});

test('a valid multi-round tool conversation is accepted, streaming and not', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('first'), fakeReply.toolCalls([{ id: 'n1', name: 'ws__list', arguments: {} }]), fakeReply.text('third')] });
  const history = [
    { role: 'system', content: 'sys' },
    user,
    { role: 'assistant', content: 'Looking.', tool_calls: callMsg('a1', 'a2').tool_calls },
    answer('a1'),
    answer('a2'),
    callMsg('b1'),
    answer('b1'),
    { role: 'assistant', content: 'Done.' },
    { role: 'user', content: 'and now?' },
    callMsg('sprout_hook__Stop_tests_1'),
    { role: 'tool', tool_call_id: 'sprout_hook__Stop_tests_1', content: '{"hook":"_Stop","server":"tests","text":"tests fail"}' },
  ];
  const streamed = await post(fake, chat(history, { stream: true, stream_options: { include_usage: true } }));
  assert.equal(streamed.status, 200);
  const plain = await post(fake, chat(history, { tools: [{ type: 'function', function: { name: 'ws__list', parameters: {} } }] }));
  assert.equal(plain.status, 200);
  const completion = plain.json as { object: string; choices: { message: { tool_calls: { id: string; function: { name: string } }[] }; finish_reason: string }[]; usage: { total_tokens: number } };
  assert.equal(completion.object, 'chat.completion');
  assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
  assert.equal(completion.choices[0]?.message.tool_calls[0]?.id, 'n1');
  assert.ok(completion.usage.total_tokens > 0);
  assert.equal((await post(fake, chat(history, { stream: true }))).status, 200);
  assert.ok(fake.requests.every((r) => r.valid));
  assert.deepEqual(fake.requests.map((r) => r.outcome), ['reply', 'reply', 'reply']);
});

test('streaming format: deltas, finish chunk, usage chunk only with include_usage, then [DONE]', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('abcdef', { deltaSize: 2, finishReason: 'length' }), fakeReply.text('xy')] });
  const events = (text: string) => text.split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
  const withUsage = events((await post(fake, chat([user], { stream: true, stream_options: { include_usage: true } }))).text);
  assert.equal(withUsage.at(-1), '[DONE]');
  const chunks = withUsage.slice(0, -1).map((e) => JSON.parse(e) as { object: string; choices: { delta: { content?: string }; finish_reason: string | null }[]; usage: unknown });
  assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
  assert.deepEqual(chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? '')).filter(Boolean), ['ab', 'cd', 'ef']);
  assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'length');
  assert.deepEqual(chunks.at(-1)?.choices, []);
  assert.ok(chunks.at(-1)?.usage);
  const without = events((await post(fake, chat([user], { stream: true }))).text);
  assert.ok(without.slice(0, -1).every((e) => !('usage' in (JSON.parse(e) as object))));
});

test('no scripted response: a clear 500; a responder sees each request and its index', async (t) => {
  const fake = await fakeFor(t, { responses: [fakeReply.text('only one')] });
  assert.equal((await post(fake, chat([user]))).status, 200);
  const missing = await post(fake, chat([user]));
  assert.equal(missing.status, 500);
  assert.equal((missing.json as ErrorBody).error.message, 'fake server: no scripted response for request 2 (chat completion requests counted from 1)');
  assert.equal(fake.requests[1]?.outcome, 'unscripted');
  const seen: number[] = [];
  fake.setResponder((request, index) => {
    seen.push(index);
    const last = (request.body as { messages: { content: string }[] }).messages.at(-1)?.content ?? '';
    return fakeReply.text(`echo ${last}`);
  });
  const echoed = await post(fake, chat([{ role: 'user', content: 'ping' }]));
  assert.equal((echoed.json as { choices: { message: { content: string } }[] }).choices[0]?.message.content, 'echo ping');
  assert.deepEqual(seen, [2]);
});

test('an API key can be required: missing and wrong keys get the real 401 shape', async (t) => {
  const fake = await fakeFor(t, { apiKey: 'sk-fake-required-key', responses: [fakeReply.text('in')] });
  const none = await post(fake, chat([user]));
  assert.equal(none.status, 401);
  assert.match((none.json as ErrorBody).error.message, /^You didn't provide an API key/);
  const wrong = await post(fake, chat([user]), { authorization: 'Bearer sk-wrong-key-abcdef' });
  assert.equal(wrong.status, 401);
  assert.equal((wrong.json as ErrorBody).error.code, 'invalid_api_key');
  assert.equal((wrong.json as ErrorBody).error.message.includes('sk-wrong-key-abcdef'), false, 'the key is masked as OpenAI does');
  assert.equal((await post(fake, chat([user]), { authorization: 'Bearer sk-fake-required-key' })).status, 200);
  const models = await fetch(`${fake.url}/models`, { headers: { authorization: 'Bearer sk-fake-required-key' } });
  assert.deepEqual(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id), ['fake-model']);
});

test('standalone process: prints its URL, serves the script, logs requests without the key', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-fake-openai-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'script.json');
  const log = join(dir, 'requests.jsonl');
  writeFileSync(script, JSON.stringify({ apiKey: 'sk-standalone-key-1', responses: [fakeReply.text('from a child process')] }));
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'test/fakes/fakeOpenAiServer.ts'), '--script', script, '--log', log], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  t.after(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`no URL printed; stdout so far: ${out}`)), 30_000);
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        done(line.trim());
      }
    });
  });
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-standalone-key-1' }, body: JSON.stringify(chat([user])) });
  assert.equal(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content, 'from a child process');
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  const logged = readFileSync(log, 'utf8');
  const records = logged.trim().split('\n').map((l) => JSON.parse(l) as { valid: boolean; headers: Record<string, string> });
  assert.equal(records.length, 1);
  assert.equal(records[0]?.valid, true);
  assert.equal(records[0]?.headers.authorization, '[redacted]');
  assert.equal(logged.includes('sk-standalone-key-1'), false);
});
