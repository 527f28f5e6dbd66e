import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CANCELLED_TOOL_RESULT, assertValidHistory, repairHistory, validateHistory, wireSafeCalls } from '../../../src/agent/historyValidity';
import type { ChatMessage } from '../../../src/agent/messages';

const call = (id: string) => ({ id, name: 's__t', arguments: '{}' });

const valid: ChatMessage[] = [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: null, toolCalls: [call('a'), call('b')] },
  { role: 'tool', toolCallId: 'a', content: '1' },
  { role: 'tool', toolCallId: 'b', content: '2' },
  { role: 'assistant', content: 'done' },
];

test('a well-formed history is valid and survives repair unchanged', () => {
  assert.deepEqual(validateHistory(valid), []);
  assert.doesNotThrow(() => assertValidHistory(valid));
  const repaired = repairHistory(valid);
  assert.equal(repaired.changes, 0);
  assert.deepEqual(repaired.history, valid);
});

test('each OpenAI rule is detected', () => {
  const unanswered: ChatMessage[] = [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, toolCalls: [call('a')] }, { role: 'user', content: 'next' }];
  assert.match(validateHistory(unanswered)[0]?.problem ?? '', /never answered/);

  const orphan: ChatMessage[] = [{ role: 'user', content: 'go' }, { role: 'tool', toolCallId: 'x', content: '?' }];
  assert.match(validateHistory(orphan)[0]?.problem ?? '', /answers no call/);

  const late: ChatMessage[] = [valid[0]!, valid[1]!, valid[2]!, { role: 'assistant', content: 'hm' }, { role: 'tool', toolCallId: 'b', content: '2' }];
  assert.ok(validateHistory(late).length >= 2);

  const twice: ChatMessage[] = [valid[0]!, valid[1]!, valid[2]!, valid[2]!, valid[3]!];
  assert.match(validateHistory(twice)[0]?.problem ?? '', /answered twice/);

  const empty: ChatMessage[] = [{ role: 'user', content: 'go' }, { role: 'assistant', content: null }];
  assert.match(validateHistory(empty)[0]?.problem ?? '', /neither content nor tool calls/);
  assert.throws(() => assertValidHistory(empty), /invalid chat history/);

  const trailing: ChatMessage[] = [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, toolCalls: [call('a')] }];
  assert.equal(validateHistory(trailing).length, 1);

  for (const args of ['{"path":', '[1]', '"text"', '']) {
    const badArguments: ChatMessage[] = [valid[0]!, { role: 'assistant', content: null, toolCalls: [{ ...call('a'), arguments: args }] }, valid[2]!];
    assert.match(validateHistory(badArguments)[0]?.problem ?? '', /tool call a has arguments that are not a JSON object/, JSON.stringify(args));
  }
});

test('repair puts `{}` in place of arguments that are not a JSON object, and keeps the rest', () => {
  const saved: ChatMessage[] = [valid[0]!, { role: 'assistant', content: null, toolCalls: [{ ...call('a'), arguments: '{"cut": "off' }, call('b')] }, valid[2]!, valid[3]!];
  const { history, changes } = repairHistory(saved);
  assert.equal(changes, 1);
  assert.deepEqual(validateHistory(history), []);
  assert.deepEqual(history[1], { role: 'assistant', content: null, toolCalls: [call('a'), call('b')] });
  assert.deepEqual(wireSafeCalls([{ ...call('x'), arguments: '{"ok":true}' }]), [{ ...call('x'), arguments: '{"ok":true}' }], 'valid text is kept as written');
});

test('repair answers unanswered calls with cancelled and drops orphans and empty replies', () => {
  const broken: ChatMessage[] = [
    { role: 'user', content: 'go' },
    { role: 'tool', toolCallId: 'zz', content: 'orphan' },
    { role: 'assistant', content: null, toolCalls: [call('a'), call('b')] },
    { role: 'tool', toolCallId: 'b', content: '2' },
    { role: 'tool', toolCallId: 'b', content: 'dup' },
    { role: 'assistant', content: null },
    { role: 'user', content: 'again' },
    { role: 'assistant', content: 'partial', toolCalls: [call('c')] },
  ];
  const { history, changes } = repairHistory(broken);
  assert.ok(changes >= 4);
  assert.deepEqual(validateHistory(history), []);
  assert.deepEqual(history, [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: null, toolCalls: [call('a'), call('b')] },
    { role: 'tool', toolCallId: 'b', content: '2' },
    { role: 'tool', toolCallId: 'a', content: CANCELLED_TOOL_RESULT },
    { role: 'user', content: 'again' },
    { role: 'assistant', content: 'partial', toolCalls: [call('c')] },
    { role: 'tool', toolCallId: 'c', content: CANCELLED_TOOL_RESULT },
  ]);
});
