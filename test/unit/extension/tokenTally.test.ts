// TokenTally: the usage of a source that reports none, counted with the model's own counter, each
// history message counted once per model, the system prompt and tool list by their text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../../src/agent/messages';
import type { ModelRequest } from '../../../src/agent/ports';
import { TokenTally } from '../../../src/extension/modelSources/tokenTally';

/** A counter that records what it was asked and answers one token per character. */
function recordingCounter(): { asked: string[]; count: (text: string) => Promise<number> } {
  const asked: string[] = [];
  return { asked, count: async (text) => (asked.push(text), text.length) };
}

const tools = [{ name: 'hooks__echo', description: 'Echo', parameters: { type: 'object' } }];
const toolsText = JSON.stringify([{ name: 'hooks__echo', description: 'Echo', inputSchema: { type: 'object' } }]);

test('the prompt is every message plus the tool list; a new round counts only what is new', async () => {
  const tally = new TokenTally();
  const counter = recordingCounter();
  const user: ChatMessage = { role: 'user', content: 'hello' };
  const first: ModelRequest = { model: 'v/m', messages: [{ role: 'system', content: 'sys' }, user], tools };
  assert.equal(await tally.promptTokens('v/m', counter.count, first), 3 + 5 + toolsText.length);
  const reply: ChatMessage = { role: 'assistant', content: 'hi', toolCalls: [{ id: 'c', name: 'hooks__echo', arguments: '{}' }] };
  const second: ModelRequest = { model: 'v/m', messages: [{ role: 'system', content: 'sys' }, user, reply], tools };
  counter.asked.length = 0;
  assert.equal(await tally.promptTokens('v/m', counter.count, second), 3 + 5 + toolsText.length + 'hi\nhooks__echo {}'.length);
  assert.deepEqual(counter.asked, ['hi\nhooks__echo {}'], 'only the new message is counted again');
});

test('another model counts everything again (another tokenizer)', async () => {
  const tally = new TokenTally();
  const counter = recordingCounter();
  const request: ModelRequest = { model: 'v/a', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello' }], tools: [] };
  await tally.promptTokens('v/a', counter.count, request);
  counter.asked.length = 0;
  await tally.promptTokens('v/b', counter.count, request);
  assert.deepEqual(counter.asked, ['sys', 'hello']);
});

test('usage adds the reply (text and calls) to the prompt count', async () => {
  const tally = new TokenTally();
  const counter = recordingCounter();
  const usage = await tally.usage('v/m', counter.count, Promise.resolve(40), { content: 'done', toolCalls: [{ id: 'c', name: 't__x', arguments: '{"a":1}' }] });
  assert.deepEqual(usage, { promptTokens: 40, completionTokens: 'done\nt__x {"a":1}'.length, totalTokens: 40 + 'done\nt__x {"a":1}'.length });
  assert.deepEqual(await tally.usage('v/m', counter.count, Promise.resolve(7), { content: '', toolCalls: [] }), { promptTokens: 7, completionTokens: 0, totalTokens: 7 });
});

test('a counter that fails makes the count fail (the client then reports no usage)', async () => {
  const tally = new TokenTally();
  const failing = async (): Promise<number> => {
    throw new Error('no tokenizer');
  };
  await assert.rejects(tally.promptTokens('v/m', failing, { model: 'v/m', messages: [{ role: 'user', content: 'x' }], tools: [] }), /no tokenizer/);
});
