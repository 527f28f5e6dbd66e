// The VS Code Language Model source's pure rules: the core's history in the API's two-role shape
// (system prompt as user text, tool answers as result parts, hook pairs as call/result parts, one
// role per run of messages), the reply gathered from stream parts, and the API's errors as ModelErrors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../../src/agent/messages';
import { buildHookPair } from '../../../src/agent/hookEnvelope';
import { ModelError } from '../../../src/agent/ports';
import { classifyLmError, LmReplyBuilder, modelRef, parseModelRef, toLmMessages, toLmTools } from '../../../src/extension/modelSources/lmMapping';
import { WireNames } from '../../../src/model/wireNames';

test('a round trip maps to user and assistant messages with call and result parts', () => {
  const history: ChatMessage[] = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'list files' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'ws__list', arguments: '{"path":"."}' }, { id: 'c2', name: 'ws__read', arguments: '{"path":"a"}' }] },
    { role: 'tool', toolCallId: 'c1', content: 'a.txt' },
    { role: 'tool', toolCallId: 'c2', content: 'hello' },
    { role: 'assistant', content: 'One file.' },
  ];
  assert.deepEqual(toLmMessages(history), [
    { role: 'user', parts: [{ kind: 'text', value: 'be brief' }, { kind: 'text', value: 'list files' }] },
    {
      role: 'assistant',
      parts: [
        { kind: 'toolCall', callId: 'c1', name: 'ws__list', input: { path: '.' } },
        { kind: 'toolCall', callId: 'c2', name: 'ws__read', input: { path: 'a' } },
      ],
    },
    { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'a.txt' }, { kind: 'toolResult', callId: 'c2', text: 'hello' }] },
    { role: 'assistant', parts: [{ kind: 'text', value: 'One file.' }] },
  ]);
});

test('a _Stop objection pair joins the end-of-turn text as one assistant message, then its result part', () => {
  const [call, answer] = buildHookPair('_Stop', 'tests', 'Run the tests first.');
  assert.equal(call.role, 'assistant');
  const id = call.role === 'assistant' ? call.toolCalls?.[0]?.id : undefined;
  assert.ok(id);
  const mapped = toLmMessages([{ role: 'user', content: 'fix it' }, { role: 'assistant', content: 'Done.' }, call, answer]);
  assert.deepEqual(mapped, [
    { role: 'user', parts: [{ kind: 'text', value: 'fix it' }] },
    { role: 'assistant', parts: [{ kind: 'text', value: 'Done.' }, { kind: 'toolCall', callId: id, name: 'tests___Stop', input: {} }] },
    { role: 'user', parts: [{ kind: 'toolResult', callId: id, text: '{"hook":"_Stop","server":"tests","text":"Run the tests first."}' }] },
  ]);
});

test("an endpoint's reasoning earlier in the chat is not sent (the stable API has no thinking part)", () => {
  assert.deepEqual(toLmMessages([{ role: 'assistant', content: 'Answer.', reasoning: 'secret thoughts' }]), [{ role: 'assistant', parts: [{ kind: 'text', value: 'Answer.' }] }]);
});

test("an assistant run's texts become one part ahead of its calls; empty messages vanish", () => {
  const mapped = toLmMessages([
    { role: 'user', content: 'go' },
    { role: 'assistant', content: 'first' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'x', name: 'a__b', arguments: '{}' }] },
    { role: 'assistant', content: 'second' },
    { role: 'user', content: '' },
  ]);
  assert.deepEqual(mapped[1], {
    role: 'assistant',
    parts: [{ kind: 'text', value: 'first\n\nsecond' }, { kind: 'toolCall', callId: 'x', name: 'a__b', input: {} }],
  });
  assert.equal(mapped.length, 2);
});

test('arguments that are not a JSON object go out as {} (the core already answered them with an error)', () => {
  const mapped = toLmMessages([
    { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 't__x', arguments: '{not json' }, { id: 'b', name: 't__y', arguments: '[1]' }, { id: 'c', name: 't__z', arguments: '' }] },
  ]);
  assert.deepEqual(
    mapped[0]?.parts.map((p) => (p.kind === 'toolCall' ? p.input : null)),
    [{}, {}, {}],
  );
});

test('tool specs become LanguageModelChatTools with the schema as inputSchema', () => {
  const parameters = { type: 'object', properties: { text: { type: 'string' } } };
  assert.deepEqual(toLmTools([{ name: 'hooks__echo', description: 'Echo', parameters }]), [{ name: 'hooks__echo', description: 'Echo', inputSchema: parameters }]);
});

test('a tool whose real name a provider refuses goes as its alias, in the tools and in the history, and comes back real', () => {
  const names = new WireNames('openai');
  const alias = (name: string): string => names.wire(name);
  const tools = toLmTools([{ name: 'files__files.read', description: 'Read', parameters: { type: 'object' } }], alias);
  const wireName = tools[0]?.name ?? '';
  assert.match(wireName, /^[a-zA-Z0-9_-]{1,64}$/);
  const mapped = toLmMessages([{ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'files__files.read', arguments: '{}' }] }], 'parts', alias);
  assert.deepEqual(mapped[0]?.parts, [{ kind: 'toolCall', callId: 'c1', name: wireName, input: {} }]);
  const builder = new LmReplyBuilder();
  builder.addToolCall('c2', wireName, { path: 'a' });
  assert.equal(builder.reply(null, (wire) => names.real(wire)).toolCalls[0]?.name, 'files__files.read');
});

test('model references are vendor/id; ids may hold slashes', () => {
  assert.equal(modelRef({ vendor: 'copilot', id: 'gpt-4o' }), 'copilot/gpt-4o');
  assert.deepEqual(parseModelRef('copilot/gpt-4o'), { vendor: 'copilot', id: 'gpt-4o' });
  assert.deepEqual(parseModelRef('ollama/library/llama3'), { vendor: 'ollama', id: 'library/llama3' });
  for (const bad of ['', 'gpt-4o', '/gpt-4o', 'copilot/']) assert.equal(parseModelRef(bad), undefined, bad);
});

test('a reply gathers text and calls; calls ask for tools, text alone ends normally', () => {
  const text = new LmReplyBuilder();
  text.addText('Hel');
  text.addText('lo');
  assert.deepEqual(text.reply(null), { content: 'Hello', toolCalls: [], finishReason: 'stop', usage: null });
  const calls = new LmReplyBuilder();
  calls.addToolCall('call-1', 'hooks__echo', { text: 'ping' });
  const usage = { promptTokens: 10, completionTokens: 2, totalTokens: 12 };
  assert.deepEqual(calls.reply(usage), { content: null, toolCalls: [{ id: 'call-1', name: 'hooks__echo', arguments: '{"text":"ping"}' }], finishReason: 'tool_calls', usage });
});

test('a call without an id, or with an id already used, gets a fresh one so every call can be answered', () => {
  const builder = new LmReplyBuilder();
  builder.addToolCall('', 'a__b', {});
  builder.addToolCall('same', 'a__b', {});
  builder.addToolCall('same', 'a__c', {});
  const ids = builder.reply(null).toolCalls.map((c) => c.id);
  assert.equal(new Set(ids).size, 3);
  assert.equal(ids[1], 'same');
  assert.match(ids[0] ?? '', /^sprout_lm_call_\d+$/);
});

test('each LanguageModelError code becomes a ModelError kind whose message says what to do', () => {
  const model = '"GPT-4o" (copilot)';
  const denied = classifyLmError({ code: 'NoPermissions', message: "Language model 'gpt-4o' cannot be used by 'sprout.sprout-agent'." }, model);
  assert.ok(denied instanceof ModelError);
  assert.equal(denied.kind, 'auth');
  assert.match(denied.message, /did not allow Sprout to use "GPT-4o" \(copilot\)/);
  assert.match(denied.message, /choose Allow/);
  assert.match(denied.message, /Manage Language Model Access/);
  const gone = classifyLmError({ code: 'NotFound', message: '' }, model);
  assert.equal(gone.kind, 'config');
  assert.match(gone.message, /not available in VS Code any more\. Pick another one with Sprout: Select Model/);
  const blocked = classifyLmError({ code: 'Blocked', message: 'monthly quota used' }, model);
  assert.equal(blocked.kind, 'rate_limit');
  assert.match(blocked.message, /quota or rate limit is used up \(monthly quota used\)/);
});

test('errors without a code: quota words mean a rate limit, anything else a failure of the model', () => {
  const model = '"M" (v)';
  assert.equal(classifyLmError({ message: 'You have exceeded your premium request allowance' }, model).kind, 'rate_limit');
  assert.equal(classifyLmError({ code: 'Unknown', message: 'Request Failed: 429' }, model).kind, 'rate_limit');
  const other = classifyLmError({ code: 'Unknown', message: 'socket hang up' }, model);
  assert.equal(other.kind, 'server');
  assert.match(other.message, /"M" \(v\) failed \(socket hang up\)\. Try again/);
});

test("images go as image parts: a prompt's after its text, a tool's after the user message's tool results; notes for a model that takes none", () => {
  const shot = { mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png', width: 10, height: 5 };
  const history: ChatMessage[] = [
    { role: 'user', content: 'what is this?', images: [shot] },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'b__snap', arguments: '{}' }, { id: 'c2', name: 'b__read', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'c1', content: 'snapped', images: [{ ...shot, name: 'image 1 from b__snap' }] },
    { role: 'tool', toolCallId: 'c2', content: 'read' },
  ];
  assert.deepEqual(toLmMessages(history), [
    { role: 'user', parts: [{ kind: 'text', value: 'what is this?' }, { kind: 'image', mimeType: 'image/png', data: shot.data }] },
    { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c1', name: 'b__snap', input: {} }, { kind: 'toolCall', callId: 'c2', name: 'b__read', input: {} }] },
    {
      role: 'user',
      parts: [
        { kind: 'toolResult', callId: 'c1', text: 'snapped\n[The image follows after the tool results.]' },
        { kind: 'toolResult', callId: 'c2', text: 'read' },
        { kind: 'text', value: '[image: image 1 from b__snap, 10x5] returned by a tool above:' },
        { kind: 'image', mimeType: 'image/png', data: shot.data },
      ],
    },
  ]);
  const notes = toLmMessages(history, 'note');
  assert.deepEqual(notes[0]?.parts, [{ kind: 'text', value: 'what is this?\n\n[image not sent: shot.png (this model does not take images)]' }]);
  assert.deepEqual(notes[2]?.parts, [
    { kind: 'toolResult', callId: 'c1', text: 'snapped\n[image not sent: image 1 from b__snap (this model does not take images)]' },
    { kind: 'toolResult', callId: 'c2', text: 'read' },
  ]);
});
