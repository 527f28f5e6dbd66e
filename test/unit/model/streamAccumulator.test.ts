/**
 * StreamAccumulator over every stream shape of docs/model-servers.md, chunk by chunk: what it says is
 * visible text, what is thinking, how tool-call deltas fold into calls, and when a stream counts as
 * complete.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { StreamAccumulator, StreamErrorEvent } from '../../../src/model/streamAccumulator';

type Delta = ChatCompletionChunk.Choice.Delta;
type CallDelta = NonNullable<Delta['tool_calls']>[number];

function chunk(delta: Delta | Record<string, unknown>, finish: string | null = null, usage: ChatCompletionChunk['usage'] = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta: delta as Delta, finish_reason: finish as ChatCompletionChunk.Choice['finish_reason'] }],
    usage,
  };
}

const calls = (...deltas: Record<string, unknown>[]) => chunk({ tool_calls: deltas as unknown as CallDelta[] });

function usageChunk(prompt: number, completion: number): ChatCompletionChunk {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
}

test('text deltas concatenate and each add() returns the visible piece', () => {
  const acc = new StreamAccumulator();
  const seen = [acc.add(chunk({ role: 'assistant', content: '' })), acc.add(chunk({ content: 'Hel' })), acc.add(chunk({ content: 'lo' })), acc.add(chunk({}, 'stop'))];
  assert.deepEqual(seen, ['', 'Hel', 'lo', '']);
  assert.equal(acc.complete, true);
  assert.equal(acc.hasText, true);
  const reply = acc.reply();
  assert.equal(reply.content, 'Hello');
  assert.equal(reply.finishReason, 'stop');
  assert.deepEqual(reply.calls, []);
  assert.equal(reply.usage, null);
  assert.equal(reply.reasoning, null);
});

test('tool-call deltas accumulate by index: id and name first, arguments in fragments', () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ role: 'assistant', content: null }));
  acc.add(calls({ index: 0, id: 'call_a', type: 'function', function: { name: 'ws__read', arguments: '' } }));
  acc.add(calls({ index: 0, function: { arguments: '{"pa' } }));
  acc.add(calls({ index: 0, function: { arguments: 'th":"x"}' } }));
  acc.add(chunk({}, 'tool_calls'));
  const reply = acc.reply();
  assert.equal(reply.content, null);
  assert.equal(acc.hasText, false);
  assert.deepEqual(reply.calls, [{ id: 'call_a', name: 'ws__read', arguments: '{"path":"x"}' }]);
});

test('interleaved indices are kept apart and returned in index order', () => {
  const acc = new StreamAccumulator();
  acc.add(calls({ index: 1, id: 'call_b', type: 'function', function: { name: 'b__two', arguments: '' } }));
  acc.add(calls({ index: 0, id: 'call_a', type: 'function', function: { name: 'a__one', arguments: '{"n"' } }));
  acc.add(calls({ index: 1, function: { arguments: '{"m":' } }));
  acc.add(calls({ index: 0, function: { arguments: ':1}' } }));
  acc.add(calls({ index: 1, function: { arguments: '2}' } }));
  assert.deepEqual(acc.reply().calls, [
    { id: 'call_a', name: 'a__one', arguments: '{"n":1}' },
    { id: 'call_b', name: 'b__two', arguments: '{"m":2}' },
  ]);
});

test('every call at index 0 with its own id: a new id starts a new call, arguments never glue', () => {
  const acc = new StreamAccumulator();
  acc.add(calls({ index: 0, id: 'a', type: 'function', function: { name: 't__x', arguments: '' } }));
  acc.add(calls({ index: 0, function: { arguments: '{"p":"a.rs"}' } }));
  acc.add(calls({ index: 0, id: 'b', type: 'function', function: { name: 't__x', arguments: '' } }));
  acc.add(calls({ index: 0, function: { arguments: '{"p":"b.rs"}' } }));
  assert.deepEqual(acc.reply().calls.map((c) => [c.id, c.arguments]), [['a', '{"p":"a.rs"}'], ['b', '{"p":"b.rs"}']]);
});

test('no index: a known id continues its call, a new id opens one, no id continues the last', () => {
  const acc = new StreamAccumulator();
  acc.add(calls({ id: 'a', function: { name: 't__x', arguments: '{"k"' } }));
  acc.add(calls({ function: { arguments: ':1}' } }));
  acc.add(calls({ id: 'b', function: { name: 't__y', arguments: '{}' } }));
  acc.add(calls({ id: 'a', function: { arguments: '' } }));
  assert.deepEqual(acc.reply().calls, [
    { id: 'a', name: 't__x', arguments: '{"k":1}' },
    { id: 'b', name: 't__y', arguments: '{}' },
  ]);
});

test('repeated or blanked id, name and type in later deltas change nothing; a missing type is fine', () => {
  const acc = new StreamAccumulator();
  acc.add(calls({ index: 0, id: 'a', function: { name: 't__x', arguments: '{"q":' } }));
  acc.add(calls({ index: 0, id: 'a', type: 'function', function: { name: 't__x', arguments: '1' } }));
  acc.add(calls({ index: 0, id: '', type: '', function: { name: '', arguments: '}' } }));
  assert.deepEqual(acc.reply().calls, [{ id: 'a', name: 't__x', arguments: '{"q":1}' }]);
});

test('a tool name sent in fragments is put together; repeated whole or as a growing prefix it stays one name', () => {
  const pieces = new StreamAccumulator();
  pieces.add(calls({ index: 0, id: 'a', function: { name: 'tools__', arguments: '' } }));
  pieces.add(calls({ index: 0, function: { name: 'echo', arguments: '{}' } }));
  const growing = new StreamAccumulator();
  growing.add(calls({ index: 0, id: 'a', function: { name: 'tools__', arguments: '' } }));
  growing.add(calls({ index: 0, function: { name: 'tools__echo', arguments: '{}' } }));
  growing.add(calls({ index: 0, function: { name: 'tools__echo', arguments: '' } }));
  assert.deepEqual([pieces.reply().calls[0]?.name, growing.reply().calls[0]?.name], ['tools__echo', 'tools__echo']);
});

test('arguments sent as a JSON object are serialised; a whole call in one delta is one call', () => {
  const acc = new StreamAccumulator();
  acc.add(calls({ index: 0, id: 'a', type: 'function', function: { name: 't__x', arguments: { path: 'x', n: 2 } } }));
  assert.deepEqual(acc.reply().calls, [{ id: 'a', name: 't__x', arguments: '{"path":"x","n":2}' }]);
});

test('a call with neither id, name nor arguments is dropped; extra_content is kept on its call', () => {
  const acc = new StreamAccumulator();
  const signature = { google: { thought_signature: 'sig-1' } };
  acc.add(calls({ id: 'a', type: 'function', function: { name: 't__x', arguments: '{}' }, extra_content: signature }));
  acc.add(calls({ index: 5, function: {} }));
  assert.deepEqual(acc.reply().calls, [{ id: 'a', name: 't__x', arguments: '{}', providerData: signature }]);
});

test('reasoning_content and reasoning deltas are thinking, never visible text; the same text under both names counts once', () => {
  const acc = new StreamAccumulator();
  assert.equal(acc.add(chunk({ content: null, reasoning_content: 'Let me ' })), '');
  assert.equal(acc.reasoningPiece, 'Let me ');
  assert.equal(acc.add(chunk({ reasoning_content: 'think.', reasoning: 'think.' })), '');
  assert.equal(acc.reasoningPiece, 'think.');
  assert.equal(acc.add(chunk({ content: 'Answer' })), 'Answer');
  assert.equal(acc.reasoningPiece, '');
  const reply = acc.reply();
  assert.equal(reply.reasoning, 'Let me think.');
  assert.equal(reply.reasoningField, 'reasoning_content');
  assert.equal(reply.content, 'Answer');
  const vllm = new StreamAccumulator();
  vllm.add(chunk({ reasoning: 'hmm' }));
  assert.equal(vllm.reply().reasoningField, 'reasoning');
});

test('<think> at the start of the content is thinking, even cut across pieces; the answer follows', () => {
  const acc = new StreamAccumulator();
  const visible = ['<th', 'ink>plan ', 'it</th', 'ink>\n\n', 'Done', ' now'].map((piece) => acc.add(chunk({ content: piece })));
  assert.equal(visible.join(''), 'Done now');
  const reply = acc.reply();
  assert.equal(reply.reasoning, 'plan it');
  assert.equal(reply.content, 'Done now');
});

// A lone </think> (DeepSeek-R1 distills on vLLM, https://github.com/vllm-project/vllm/issues/13125):
// the text already passed on as answer is reported once as reclassified, and not again as thinking.
test('a lone </think>: the text passed on before it is reclassified once, the reasoning piece carries only what is new', () => {
  const acc = new StreamAccumulator();
  const seen = ['Let me', ' think', '.</think>\n\nFour.'].map((piece) => ({ text: acc.add(chunk({ content: piece })), reclassified: acc.reclassifiedPiece, thinking: acc.reasoningPiece }));
  assert.deepEqual(seen, [
    { text: 'Let me', reclassified: '', thinking: '' },
    { text: ' think', reclassified: '', thinking: '' },
    { text: 'Four.', reclassified: 'Let me think', thinking: '.' },
  ]);
  assert.equal(acc.flush(), '');
  assert.equal(acc.reclassifiedPiece, '');
  const reply = acc.reply();
  assert.equal(reply.reasoning, 'Let me think.');
  assert.equal(reply.content, 'Four.');
});

test('<think> later in the text is text; a held-back start is released by flush', () => {
  const late = new StreamAccumulator();
  assert.equal(late.add(chunk({ content: 'I use <think> tags' })), 'I use <think> tags');
  const held = new StreamAccumulator();
  assert.equal(held.add(chunk({ content: '<th' })), '');
  assert.equal(held.flush(), '<th');
  assert.equal(held.reply().content, '<th');
  const open = new StreamAccumulator();
  open.add(chunk({ content: '<think>never closed' }));
  open.flush();
  assert.equal(open.reply().reasoning, 'never closed');
  assert.equal(open.reply().content, null);
});

test('usage: the last of a running total wins; a usage-only chunk without choices is read', () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ content: 'hi' }, null, { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 }));
  acc.add(chunk({ content: '!' }, 'stop', { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }));
  assert.deepEqual(acc.reply().usage, { promptTokens: 5, completionTokens: 2, totalTokens: 7 });
  const final = new StreamAccumulator();
  final.add(chunk({ content: 'hi' }, 'stop'));
  final.add(usageChunk(12, 3));
  assert.deepEqual(final.reply().usage, { promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  const bare = new StreamAccumulator();
  bare.add({ usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } as unknown as ChatCompletionChunk);
  assert.equal(bare.reply().usage?.totalTokens, 2);
});

test('complete: a finish reason or anything received; a clean end with nothing is not', () => {
  const empty = new StreamAccumulator();
  empty.add(chunk({ role: 'assistant', content: '' }));
  assert.equal(empty.complete, false);
  const noFinish = new StreamAccumulator();
  noFinish.add(chunk({ content: 'par' }));
  assert.equal(noFinish.complete, true);
  assert.equal(noFinish.reply().finishReason, null);
  const odd = new StreamAccumulator();
  odd.add(chunk({ content: 'x' }, 'eos_token'));
  assert.equal(odd.reply().finishReason, 'eos_token');
});

test('an error array in place of a chunk (Gemini) throws the provider message with its code', () => {
  const acc = new StreamAccumulator();
  const event = [{ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }];
  assert.throws(
    () => acc.add(event as unknown as ChatCompletionChunk),
    (error: unknown) => error instanceof StreamErrorEvent && error.code === 503 && error.message === 'The model is overloaded. Please try again later.',
  );
});

test('a refusal streams like text so the user can read it', () => {
  const acc = new StreamAccumulator();
  assert.equal(acc.add(chunk({ refusal: 'I cannot help with that.' })), 'I cannot help with that.');
  acc.add(chunk({}, 'stop'));
  assert.equal(acc.reply().content, 'I cannot help with that.');
});

test("Magistral's typed content parts: thinking parts as thinking, text parts as the answer, never [object Object]", () => {
  const acc = new StreamAccumulator();
  const thinking = acc.add(chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Let me see.' }] }] }));
  assert.equal(thinking, '');
  assert.equal(acc.reasoningPiece, 'Let me see.');
  assert.equal(acc.add(chunk({ content: [{ type: 'text', text: 'Hel' }] })), 'Hel');
  assert.equal(acc.add(chunk({ content: [{ type: 'text', text: 'lo' }, { type: 'image_url', image_url: { url: 'x' } }] }, 'stop')), 'lo');
  const reply = acc.reply();
  assert.equal(reply.content, 'Hello');
  assert.equal(reply.reasoning, 'Let me see.');
  assert.equal(reply.reasoningField, undefined, 'Mistral wants no reasoning field back');
  assert.doesNotMatch(JSON.stringify(reply), /object Object/);
});

test("usage inside the choice (Moonshot's Kimi) and in Anthropic-style names (relays) is read", () => {
  const kimi = new StreamAccumulator();
  kimi.add(chunk({ content: 'ok' }));
  const last = chunk({}, 'stop');
  (last.choices[0] as unknown as Record<string, unknown>).usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
  kimi.add(last);
  assert.deepEqual(kimi.reply().usage, { promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  const relay = new StreamAccumulator();
  relay.add(chunk({ content: 'ok' }, 'stop', { input_tokens: 7, output_tokens: 2 } as unknown as ChatCompletionChunk['usage']));
  assert.deepEqual(relay.reply().usage, { promptTokens: 7, completionTokens: 2, totalTokens: 9 });
});

test("OpenRouter's reasoning_details is thinking, and counts once when `reasoning` came with it", () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'Plan A.' }] }));
  assert.equal(acc.reasoningPiece, 'Plan A.');
  acc.add(chunk({ reasoning: ' Plan B.', reasoning_details: [{ type: 'reasoning.text', text: ' Plan B.' }] }));
  acc.add(chunk({ content: 'Done.' }, 'stop'));
  assert.equal(acc.reply().reasoning, 'Plan A. Plan B.');
  assert.equal(acc.reply().reasoningField, 'reasoning');
});

test('an error event names its status, code and type (Groq: status_code and tool_use_failed)', () => {
  const acc = new StreamAccumulator();
  const groq = { error: { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', status_code: 400 } };
  assert.throws(
    () => acc.add(groq as unknown as ChatCompletionChunk),
    (e: unknown) => e instanceof StreamErrorEvent && e.code === 400 && e.errorCode === 'tool_use_failed' && e.errorType === 'invalid_request_error',
  );
});
