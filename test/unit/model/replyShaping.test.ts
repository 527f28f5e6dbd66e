/** A streamed reply made safe for the history: real tool names, new ids, an honest finish reason, usage. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { realToolName, shapeReply } from '../../../src/model/replyShaping';
import type { RawReply } from '../../../src/model/streamAccumulator';

const raw = (extra: Partial<RawReply> = {}): RawReply => ({ content: null, reasoning: null, reasoningField: undefined, calls: [], finishReason: 'stop', usage: null, ...extra });
const ctx = { toolNames: ['ws__read', 'ws__write'], isTaken: (id: string) => id === 'call_0', promptChars: () => 400 };

test('tool names: functions. prefix and Harmony tails map to the real tool; a name the API refuses is made safe', () => {
  assert.equal(realToolName('ws__read', ctx.toolNames), 'ws__read');
  assert.equal(realToolName('functions.ws__read', ctx.toolNames), 'ws__read');
  assert.equal(realToolName('functions.ws__write<|channel|>commentary', ctx.toolNames), 'ws__write');
  assert.equal(realToolName('functions.not_offered', ctx.toolNames), 'not_offered');
  assert.equal(realToolName('repo.browser.search', ctx.toolNames), 'repo_browser_search');
  assert.equal(realToolName('', ctx.toolNames), 'unnamed_tool');
  assert.equal(realToolName('x'.repeat(80), ctx.toolNames).length, 64);
});

test("finish reasons: calls mean tool_calls whatever was said; none said means stop; cut-offs stay; a server's own words for them are read", () => {
  const call = { id: 'a', name: 'ws__read', arguments: '{}' };
  assert.equal(shapeReply(raw({ calls: [call], finishReason: 'stop' }), ctx).finishReason, 'tool_calls');
  assert.equal(shapeReply(raw({ calls: [call], finishReason: null }), ctx).finishReason, 'tool_calls');
  assert.equal(shapeReply(raw({ calls: [call], finishReason: 'length' }), ctx).finishReason, 'length');
  assert.equal(shapeReply(raw({ content: 'hi', finishReason: null }), ctx).finishReason, 'stop');
  assert.equal(shapeReply(raw({ content: 'hi', finishReason: 'tool_calls' }), ctx).finishReason, 'stop');
  for (const said of ['eos', 'eos_token', 'end', 'end_turn', 'stop_sequence']) assert.equal(shapeReply(raw({ content: 'hi', finishReason: said }), ctx).finishReason, 'stop', said);
  assert.equal(shapeReply(raw({ content: 'hi', finishReason: 'max_tokens' }), ctx).finishReason, 'length');
  assert.equal(shapeReply(raw({ content: 'hi', finishReason: 'SAFETY' }), ctx).finishReason, 'content_filter');
});

test('ids new in the history, provider data kept, reasoning apart, usage estimated only when none came', () => {
  const reply = shapeReply(
    raw({ reasoning: 'think', calls: [{ id: 'call_0', name: 'ws__read', arguments: '{"p":1}', providerData: { google: { thought_signature: 's' } } }, { id: '', name: 'ws__write', arguments: '{}' }] }),
    ctx,
  );
  assert.notEqual(reply.toolCalls[0]?.id, 'call_0');
  assert.ok(reply.toolCalls[1]?.id);
  assert.deepEqual(reply.toolCalls[0]?.providerData, { google: { thought_signature: 's' } });
  assert.equal(reply.reasoning, 'think');
  assert.deepEqual(reply.usage, { promptTokens: 100, completionTokens: 8, totalTokens: 108, estimated: true });
  const reported = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
  assert.equal(shapeReply(raw({ content: 'x', usage: reported }), ctx).usage, reported);
  assert.equal('reasoning' in shapeReply(raw({ content: 'x' }), ctx), false);
});
