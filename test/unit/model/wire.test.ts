import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../../src/agent/messages';
import { toStreamingParams, toWireMessages, toWireTools } from '../../../src/model/wire';

test('messages map to the Chat Completions shape, tool calls typed as functions', () => {
  const history: ChatMessage[] = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'list files' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'ws__list', arguments: '{"path":"."}' }] },
    { role: 'tool', toolCallId: 'c1', content: 'a.txt' },
    { role: 'assistant', content: 'One file.' },
  ];
  assert.deepEqual(toWireMessages(history), [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'list files' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ws__list', arguments: '{"path":"."}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
    { role: 'assistant', content: 'One file.' },
  ]);
});

test('content null survives only next to tool calls; an empty toolCalls array is dropped', () => {
  const wire = toWireMessages([
    { role: 'assistant', content: null },
    { role: 'assistant', content: null, toolCalls: [] },
    { role: 'assistant', content: 'thinking', toolCalls: [{ id: 'x', name: 'a__b', arguments: '{}' }] },
  ]);
  assert.deepEqual(wire[0], { role: 'assistant', content: '' });
  assert.deepEqual(wire[1], { role: 'assistant', content: '' });
  assert.equal('tool_calls' in (wire[1] ?? {}), false);
  assert.deepEqual(wire[2], { role: 'assistant', content: 'thinking', tool_calls: [{ id: 'x', type: 'function', function: { name: 'a__b', arguments: '{}' } }] });
});

test('tool specs become function tools; no tools means no tools field at all', () => {
  const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
  assert.deepEqual(toWireTools([{ name: 'ws__read', description: 'Read a file', parameters }]), [
    { type: 'function', function: { name: 'ws__read', description: 'Read a file', parameters } },
  ]);
  assert.equal(toWireTools([]), undefined);
  const params = toStreamingParams({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [] });
  assert.equal('tools' in params, false);
  assert.equal(params.stream, true);
  assert.deepEqual(params.stream_options, { include_usage: true });
  assert.equal(params.model, 'm');
});

test('streaming params carry the tools when there are some', () => {
  const params = toStreamingParams({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'a__b', description: '', parameters: {} }] });
  assert.equal(params.tools?.length, 1);
});
