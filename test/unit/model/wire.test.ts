import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import type { ChatMessage } from '../../../src/agent/messages';
import { DEFAULT_WIRE_RULES, foldInstructions, toStreamingParams, toWireMessages, toWireTools } from '../../../src/model/wire';

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

describe('wire rules per dialect', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: null, reasoning: 'plan', toolCalls: [{ id: 'call_long_id_from_a_server', name: 'a__b', arguments: '{}', providerData: { google: { thought_signature: 'sig' } } }, { id: 'c2', name: 'a__b', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'call_long_id_from_a_server', content: 'x' },
    { role: 'tool', toolCallId: 'c2', content: 'y' },
    { role: 'assistant', content: 'done' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'sprout_hook__Stop_s_1', name: 's___Stop', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'sprout_hook__Stop_s_1', content: '{}' },
  ];
  type Wire = { role: string; tool_calls?: Array<{ id: string; extra_content?: unknown }>; tool_call_id?: string; reasoning_content?: string };

  it('default rules: nothing but the OpenAI fields, ids as they are', () => {
    const wire = toWireMessages(history) as Wire[];
    assert.equal(JSON.stringify(wire).includes('reasoning'), false);
    assert.equal(JSON.stringify(wire).includes('extra_content'), false);
    assert.equal(wire[1]?.tool_calls?.[0]?.id, 'call_long_id_from_a_server');
  });

  it("Mistral's id policy maps calls and their answers alike", () => {
    const wire = toWireMessages(history, { ...DEFAULT_WIRE_RULES, idPolicy: 'mistral' }) as Wire[];
    const callIds = wire.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    const answerIds = wire.flatMap((m) => (m.tool_call_id === undefined ? [] : [m.tool_call_id]));
    assert.ok(callIds.every((id) => /^[A-Za-z0-9]{9}$/.test(id)));
    assert.deepEqual(answerIds, callIds);
  });

  it('DeepSeek: reasoning_content on every assistant message, empty where there was none', () => {
    const wire = toWireMessages(history, { ...DEFAULT_WIRE_RULES, echoReasoning: 'reasoning_content' }) as Wire[];
    assert.deepEqual(wire.filter((m) => m.role === 'assistant').map((m) => m.reasoning_content), ['plan', '', '']);
  });

  it("Gemini: each call's extra_content goes back; an unsigned first call gets the documented skip value", () => {
    const wire = toWireMessages(history, { ...DEFAULT_WIRE_RULES, echoProviderData: true }) as Wire[];
    assert.deepEqual(wire[1]?.tool_calls?.map((c) => c.extra_content), [{ google: { thought_signature: 'sig' } }, undefined]);
    assert.deepEqual(wire[5]?.tool_calls?.[0]?.extra_content, { google: { thought_signature: 'skip_thought_signature_validator' } });
  });

  it('stream_options is left out for endpoints that refuse it', () => {
    const request = { model: 'm', messages: history, tools: [] };
    assert.deepEqual(toStreamingParams(request).stream_options, { include_usage: true });
    assert.equal('stream_options' in toStreamingParams(request, undefined, { streamUsage: false }), false);
  });
});

describe('the request shapes an endpoint may need', () => {
  const history: ChatMessage[] = [
    { role: 'system', content: 'You are Sprout.' },
    { role: 'user', content: 'list files' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'ws__list', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'c1', content: 'a.txt' },
  ];
  const request = { model: 'm', messages: history, tools: [] };

  it('a tool-only turn carries null by default and "" where null is refused', () => {
    assert.equal(toWireMessages(history)[2]?.content, null);
    assert.equal(toWireMessages(history, { ...DEFAULT_WIRE_RULES, toolTurnContent: 'empty' })[2]?.content, '');
    const spoken: ChatMessage = { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'c2', name: 'ws__list', arguments: '{}' }] };
    assert.equal(toWireMessages([spoken], { ...DEFAULT_WIRE_RULES, toolTurnContent: 'empty' })[0]?.content, 'Looking.', 'text stays text');
  });

  it('instructions fold into the first user message for templates without a system role', () => {
    const params = toStreamingParams(request, undefined, { rules: { ...DEFAULT_WIRE_RULES, instructions: 'first_user' } });
    assert.deepEqual(params.messages.map((m) => m.role), ['user', 'assistant', 'tool'], 'one user message first, so strict alternation holds');
    assert.equal(params.messages[0]?.content, 'You are Sprout.\n\nlist files');
    assert.deepEqual(foldInstructions([{ role: 'system', content: 'only' }]), [{ role: 'user', content: 'only' }]);
    assert.equal(toStreamingParams(request).messages[0]?.role, 'system', 'the default keeps the system role');
  });

  it('tool schemas go reduced where the endpoint asks for it, and as written otherwise', () => {
    const parameters = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { path: { type: 'string', format: 'uri' } }, additionalProperties: false };
    const tools = [{ name: 'ws__read', description: 'Read', parameters }];
    assert.deepEqual(toWireTools(tools)?.[0]?.function.parameters, parameters);
    assert.deepEqual(toWireTools(tools, { toolSchemas: 'reduced' })?.[0]?.function.parameters, { type: 'object', properties: { path: { type: 'string' } } });
  });
});
