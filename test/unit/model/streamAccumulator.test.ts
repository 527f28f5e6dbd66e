import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { StreamAccumulator } from '../../../src/model/streamAccumulator';

type Delta = ChatCompletionChunk.Choice.Delta;

function chunk(delta: Delta, finish: string | null = null, usage: ChatCompletionChunk['usage'] = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish as ChatCompletionChunk.Choice['finish_reason'] }],
    usage,
  };
}

function usageChunk(prompt: number, completion: number): ChatCompletionChunk {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
}

test('text deltas concatenate and each add() returns the visible piece', () => {
  const acc = new StreamAccumulator();
  const seen = [acc.add(chunk({ role: 'assistant', content: '' })), acc.add(chunk({ content: 'Hel' })), acc.add(chunk({ content: 'lo' })), acc.add(chunk({}, 'stop'))];
  assert.deepEqual(seen, ['', 'Hel', 'lo', '']);
  assert.equal(acc.finished, true);
  assert.equal(acc.hasText, true);
  const reply = acc.reply();
  assert.equal(reply.content, 'Hello');
  assert.equal(reply.finishReason, 'stop');
  assert.deepEqual(reply.toolCalls, []);
  assert.equal(reply.usage, null);
});

test('tool-call deltas accumulate by index: id and name first, arguments in fragments', () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ role: 'assistant', content: null }));
  acc.add(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'ws__read', arguments: '' } }] }));
  acc.add(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }));
  acc.add(chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"x"}' } }] }));
  acc.add(chunk({}, 'tool_calls'));
  const reply = acc.reply();
  assert.equal(reply.content, null);
  assert.equal(acc.hasText, false);
  assert.deepEqual(reply.toolCalls, [{ id: 'call_a', name: 'ws__read', arguments: '{"path":"x"}' }]);
  assert.equal(reply.finishReason, 'tool_calls');
});

test('interleaved indices are kept apart and returned in index order', () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'b__two', arguments: '' } }] }));
  acc.add(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a__one', arguments: '{"n"' } }] }));
  acc.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"m":' } }] }));
  acc.add(chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }));
  acc.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '2}' } }] }));
  acc.add(chunk({}, 'tool_calls'));
  assert.deepEqual(acc.reply().toolCalls, [
    { id: 'call_a', name: 'a__one', arguments: '{"n":1}' },
    { id: 'call_b', name: 'b__two', arguments: '{"m":2}' },
  ]);
});

test('several tool-call deltas in one chunk, text alongside tool calls', () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ content: 'Let me look.' }));
  acc.add(
    chunk({
      tool_calls: [
        { index: 0, id: 'c0', function: { name: 'x__a', arguments: '{}' } },
        { index: 1, id: 'c1', function: { name: 'x__b', arguments: '{}' } },
      ],
    }),
  );
  acc.add(chunk({}, 'tool_calls'));
  const reply = acc.reply();
  assert.equal(reply.content, 'Let me look.');
  assert.deepEqual(reply.toolCalls.map((c) => c.id), ['c0', 'c1']);
});

test('usage comes from the final usage chunk (empty choices)', () => {
  const acc = new StreamAccumulator();
  acc.add(chunk({ content: 'hi' }));
  acc.add(chunk({}, 'stop'));
  acc.add(usageChunk(12, 3));
  assert.deepEqual(acc.reply().usage, { promptTokens: 12, completionTokens: 3, totalTokens: 15 });
});

test('a stream without finish reason is not finished; an unknown reason passes through', () => {
  const cut = new StreamAccumulator();
  cut.add(chunk({ content: 'par' }));
  assert.equal(cut.finished, false);
  const odd = new StreamAccumulator();
  odd.add(chunk({ content: 'x' }, 'eos_token'));
  assert.equal(odd.finished, true);
  assert.equal(odd.reply().finishReason, 'eos_token');
});

test('a tool call without id gets a generated one; missing index continues the last call', () => {
  const acc = new StreamAccumulator();
  const noIndex = (d: object) => d as unknown as NonNullable<Delta['tool_calls']>[number];
  acc.add(chunk({ tool_calls: [noIndex({ function: { name: 'a__b', arguments: '{"k"' } })] }));
  acc.add(chunk({ tool_calls: [noIndex({ function: { arguments: ':1}' } })] }));
  acc.add(chunk({}, 'tool_calls'));
  const [only, ...rest] = acc.reply().toolCalls;
  assert.equal(rest.length, 0);
  assert.equal(only?.name, 'a__b');
  assert.equal(only?.arguments, '{"k":1}');
  assert.match(only?.id ?? '', /^call_0_/);
});

test('a refusal streams like text so the user can read it', () => {
  const acc = new StreamAccumulator();
  assert.equal(acc.add(chunk({ refusal: 'I cannot help with that.' })), 'I cannot help with that.');
  acc.add(chunk({}, 'stop'));
  assert.equal(acc.reply().content, 'I cannot help with that.');
});
