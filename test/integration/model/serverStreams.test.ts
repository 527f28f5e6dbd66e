/**
 * The streaming quirks of real OpenAI-compatible servers (docs/model-servers.md), each end to end: the
 * fake streams the quirk, the real openai client reads it, the loop runs the echo tool of a real MCP
 * child process and the `_Stop` hook objects once. Every turn runs the right tools with the right
 * arguments, ends on `end_turn` after the objection, and every request the fake received is valid.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply, type FakeReplyResponse } from '../../fakes/fakeOpenAiServer';
import type { Rig } from '../loop/loopHarness';
import { answerText, checkTurn, openTurn, reasoningText, TWO_ECHOES } from './serverHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const shapes: Array<[string, Partial<FakeReplyResponse>]> = [
  ['finish_reason "stop" although tool calls were streamed (Ollama, Gemini)', { finishReason: 'stop' }],
  ['tool-call deltas without index (older Ollama)', { toolCallIndex: 'omitted' }],
  ['every call at index 0 with distinct ids (Ollama without a tool parser, Gemini relays)', { toolCallIndex: 'zero' }],
  ['each call whole in one chunk', { wholeToolCalls: true }],
  ['id, type and name repeated in every delta', { repeatCallHeader: true }],
  ['empty id, type and name in later deltas', { blankLaterHeaders: true }],
  ['no type on the tool-call deltas', { omitCallType: true }],
  ['no ids at all: invented, unique in the session', { callIds: 'omitted' }],
  ['empty-string ids: invented, unique in the session', { callIds: 'empty' }],
  ['arguments as a JSON object instead of a string (llama.cpp)', { argumentsAsObject: true }],
  ['SSE comment lines and keep-alives between chunks (OpenRouter)', { sseComments: true }],
  ['a stream that ends without [DONE]', { omitDone: true }],
  ['[DONE] without any finish_reason: a normal end, not a cut stream', { omitFinish: true }],
];

for (const [name, quirk] of shapes) {
  test(`tool round: ${name}`, async () => {
    rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, quirk)], textQuirks: quirk.omitFinish || quirk.omitDone || quirk.sseComments ? quirk : {} });
    const outcome = await rig.runtime.session.run('echo twice');
    checkTurn(rig, outcome, { echoes: ['first', 'second'] });
    assert.equal(rig.of('retry').length, 0, 'nothing was retried');
  });
}

test('tool names prefixed "functions." (gpt-oss Harmony on vLLM or sglang) run the real tool and never go back prefixed', async () => {
  const prefixed = TWO_ECHOES.map((call) => ({ ...call, name: `functions.${call.name}` }));
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls([prefixed[0]!, { ...prefixed[1]!, name: 'functions.tools__echo<|channel|>commentary' }])] });
  const outcome = await rig.runtime.session.run('echo twice');
  checkTurn(rig, outcome, { echoes: ['first', 'second'] });
  const names = rig.messages(1).flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name);
  assert.deepEqual(names, ['tools__echo', 'tools__echo']);
});

test('ids reused across rounds (call_0 every round): each round gets its own id, the history stays valid', async () => {
  const round = (text: string) => fakeReply.toolCalls([{ id: 'call_0', name: 'tools__echo', arguments: { text } }]);
  rig = await openTurn({ toolRounds: [round('one'), round('two'), round('three')] });
  const outcome = await rig.runtime.session.run('echo three times');
  checkTurn(rig, outcome, { echoes: ['one', 'two', 'three'], requests: 6 });
  const ids = rig.messages(5).flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
  assert.equal(ids[0], 'call_0', 'the first use keeps the server id');
});

test('usage in every chunk: the last running total is the round usage', async () => {
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { usageIn: 'every', usage: { prompt_tokens: 50, completion_tokens: 9 } })], textQuirks: { usageIn: 'every' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  const usage = rig.of('usage').map((e) => e.usage);
  assert.equal(usage.length, 4);
  assert.deepEqual(usage[0], { promptTokens: 50, completionTokens: 9, totalTokens: 59 });
  assert.ok(usage.every((u) => u.estimated === undefined));
});

test('usage only in a final chunk with empty choices, or absent: absent usage is estimated', async () => {
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { usage: { prompt_tokens: 70, completion_tokens: 5 } })], textQuirks: { usageIn: 'none' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  const usage = rig.of('usage').map((e) => e.usage);
  assert.deepEqual(usage[0], { promptTokens: 70, completionTokens: 5, totalTokens: 75 });
  for (const estimated of usage.slice(1)) {
    assert.equal(estimated.estimated, true);
    assert.ok(estimated.promptTokens > 50, `estimated from the request size: ${estimated.promptTokens}`);
  }
});

const thinking: Array<[string, FakeReplyResponse['reasoningAs']]> = [
  ['reasoning_content deltas (DeepSeek, llama.cpp, older vLLM)', 'reasoning_content'],
  ['reasoning deltas (vLLM >= 0.16, OpenRouter, Ollama)', 'reasoning'],
  ['reasoning_details lists alone (OpenRouter)', 'reasoning_details'],
  ['<think>...</think> in the content (models served without a reasoning parser)', 'think_tags'],
];

for (const [name, reasoningAs] of thinking) {
  test(`thinking as ${name}: its own events and message field, never the answer`, async () => {
    rig = await openTurn({
      // Forced to OpenAI's rules: an unknown server that streams reasoning with tool calls would get it back (serverDialects.test.ts).
      model: { compatibility: 'openai' },
      toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { reasoning: 'I will echo twice.', reasoningAs })],
      textQuirks: { reasoning: 'Both echoes came back.', reasoningAs },
    });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
    assert.equal(reasoningText(rig.events), `I will echo twice.${'Both echoes came back.'.repeat(3)}`);
    assert.equal(answerText(rig.events), 'All done.Checked again: all done.');
    const assistant = rig.runtime.session.state.history.filter((m) => m.role === 'assistant');
    assert.deepEqual(assistant.map((m) => (m.role === 'assistant' ? [m.content, m.reasoning] : [])), [
      [null, 'I will echo twice.'],
      ['All done.', 'Both echoes came back.'],
      [null, undefined],
      [null, 'Both echoes came back.'],
      ['Checked again: all done.', 'Both echoes came back.'],
    ]);
    const sent = JSON.stringify(rig.fake.chatRequests().map((r) => r.body));
    assert.equal(sent.includes('I will echo twice'), false, 'thinking is not sent back to an OpenAI-style endpoint');
  });
}

for (const [where, options] of [
  ['the Mistral API (forced)', { fake: { provider: 'mistral' as const }, model: { compatibility: 'mistral' as const } }],
  ['a server that names no provider', {}],
] as const) {
  test(`Magistral's typed content parts on ${where}: thinking apart, the answer as text, never [object Object]`, async () => {
    const magistral = { contentParts: true, reasoning: 'Thinking it over.' };
    const calls = 'provider' in (options.fake ?? {}) ? TWO_ECHOES.map(({ name, arguments: a }) => ({ name, arguments: a })) : TWO_ECHOES;
    rig = await openTurn({ ...options, toolRounds: [fakeReply.toolCalls(calls, magistral)], textQuirks: magistral });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
    assert.equal(answerText(rig.events), 'All done.Checked again: all done.');
    assert.equal(reasoningText(rig.events), 'Thinking it over.'.repeat(4));
    const everything = JSON.stringify([rig.events, rig.runtime.session.state.history, rig.chatBodies()]);
    assert.doesNotMatch(everything, /object Object/);
  });
}

test("usage inside the choice (Moonshot's Kimi) is the round's usage, not an estimate", async () => {
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { usageIn: 'choice', usage: { prompt_tokens: 40, completion_tokens: 6 } })], textQuirks: { usageIn: 'choice' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  const usage = rig.of('usage').map((e) => e.usage);
  assert.deepEqual(usage[0], { promptTokens: 40, completionTokens: 6, totalTokens: 46 });
  assert.ok(usage.every((u) => u.estimated === undefined));
});

test('an error event before any text is retried; the retry answers', async () => {
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { errorAfterChunks: 1 }), fakeReply.toolCalls(TWO_ECHOES)] });
  const outcome = await rig.runtime.session.run('echo twice');
  checkTurn(rig, outcome, { echoes: ['first', 'second'], requests: 5 });
  assert.deepEqual(rig.of('retry').map((e) => e.reason), ['The server had an error while processing your request.']);
});

test('an error event after some text: a clear error, no retry of the half answer, and the next prompt works', async () => {
  rig = await openTurn({
    toolRounds: [fakeReply.text('Here is the first half of', { errorAfterChunks: 6 })],
  });
  const outcome = await rig.runtime.session.run('answer');
  assert.equal(outcome.reason, 'error');
  assert.match(outcome.message ?? '', /reported an error while streaming: The server had an error while processing your request after part of the reply was shown\. Not retried/);
  assert.equal(rig.fake.chatRequests().length, 1);
  assert.equal(rig.of('retry').length, 0);
  const next = await rig.runtime.session.run('go on');
  assert.equal(next.reason, 'end_turn');
  assert.equal(rig.fake.chatRequests().length, 4, 'the next prompt was accepted; the hook objected once and the model echoed');
});

test('a Gemini-style error array sent as a stream event before any text is retried with its message', async () => {
  const streamError = [{ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }];
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { errorAfterChunks: 1, streamError }), fakeReply.toolCalls(TWO_ECHOES)] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  assert.deepEqual(rig.of('retry').map((e) => e.reason), ['The model is overloaded. Please try again later.']);
});

test('a server that ignores stream: true and answers one chat.completion object still works', async () => {
  rig = await openTurn({ toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { ignoreStream: true })], textQuirks: { ignoreStream: true } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  assert.equal(answerText(rig.events), 'All done.Checked again: all done.');
});
