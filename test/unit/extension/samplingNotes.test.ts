// What the chat says about a server's sampling request: what it asked (the cap said), and how it ended.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noteFor } from '../../../src/extension/chat/chatNotes';
import { ChatViewState } from '../../../src/extension/chat/chatViewState';
import { hostMessageSchema, type HostMessage } from '../../../src/shared/protocol';
import type { AgentEvent } from '../../../src/agent/events';

describe('sampling notes in the chat', () => {
  it('says who asks, the first message and the cap', () => {
    const note = noteFor({ type: 'sampling_requested', request: { id: 's', server: 'everything', messages: [{ role: 'user', text: 'a haiku\nsecond line' }], maxTokens: 1_000_000, cappedTo: 4096 } });
    assert.deepEqual(note, { level: 'info', text: `The server everything asks the chat's model for a reply (MCP sampling, up to 4096 tokens (it asked for 1000000: capped)): "a haiku"` });
  });

  it('says which model answered with the tokens, a refusal, and a failure', () => {
    const usage = { promptTokens: 20, completionTokens: 7, totalTokens: 27 };
    assert.equal(noteFor({ type: 'sampling_answered', id: 's', server: 'e', outcome: 'answered', by: 'user', model: 'm', usage })?.text, 'The model m answered the sampling request of the server e (27 tokens).');
    assert.equal(noteFor({ type: 'sampling_answered', id: 's', server: 'e', outcome: 'refused', by: 'user' })?.text, 'The sampling request of the server e was refused; the server was told so.');
    assert.deepEqual(noteFor({ type: 'sampling_answered', id: 's', server: 'e', outcome: 'failed', by: 'user', message: '401 bad key\nmore' }), { level: 'warning', text: 'The sampling request of the server e failed: 401 bad key' });
  });
});

// The chat's card for each sampling request (ChatViewState folds the events; the webview draws it) and
// its tokens in the usage meter, apart from the context.
describe('sampling cards and the usage meter', () => {
  const asked = (id: string): AgentEvent => ({ type: 'sampling_requested', request: { id, server: 'everything', messages: [{ role: 'user', text: '\nwrite a haiku\nmore' }], maxTokens: 1_000_000, cappedTo: 4096 } });

  it('one card per request: asked, then answered with the model and its tokens; a refusal and a withdrawal say so', () => {
    const sent: HostMessage[] = [];
    const view = new ChatViewState((m) => sent.push(m), { contextWindow: () => 1000 });
    view.apply(asked('a'));
    assert.deepEqual(view.entries.at(-1), { kind: 'sampling', id: 's-a', server: 'everything', prompt: 'write a haiku', maxTokens: 1_000_000, cappedTo: 4096, status: 'asked' });
    view.apply({ type: 'sampling_answered', id: 'a', server: 'everything', outcome: 'answered', by: 'user', model: 'fake-model', usage: { promptTokens: 20, completionTokens: 7, totalTokens: 27 } });
    view.apply(asked('b'));
    view.apply({ type: 'sampling_answered', id: 'b', server: 'everything', outcome: 'refused', by: 'user' });
    view.apply(asked('c'));
    view.apply({ type: 'sampling_answered', id: 'c', server: 'everything', outcome: 'refused', by: 'abort' });
    const cards = view.entries.filter((e) => e.kind === 'sampling');
    assert.deepEqual(cards.map((c) => [c.id, c.status]), [['s-a', 'answered'], ['s-b', 'refused'], ['s-c', 'withdrawn']]);
    assert.deepEqual(cards[0]?.kind === 'sampling' ? [cards[0].model, cards[0].tokens] : [], ['fake-model', { prompt: 20, completion: 7, total: 27 }]);
    for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
  });

  it('the usage meter counts sampling tokens apart, and keeps them when the next model call reports its context', () => {
    const sent: HostMessage[] = [];
    const view = new ChatViewState((m) => sent.push(m), { contextWindow: () => 1000 });
    view.apply(asked('a'));
    view.apply({ type: 'sampling_answered', id: 'a', server: 'everything', outcome: 'answered', by: 'user', model: 'm', usage: { promptTokens: 20, completionTokens: 7, totalTokens: 27 } });
    assert.deepEqual(view.usage, { used: 0, window: 1000, estimated: false, sampled: 27 });
    view.apply(asked('b'));
    view.apply({ type: 'sampling_answered', id: 'b', server: 'everything', outcome: 'answered', by: 'user', model: 'm', usage: { promptTokens: 10, completionTokens: 3, totalTokens: 13 } });
    view.apply({ type: 'usage', usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } });
    assert.deepEqual(view.usage, { used: 120, window: 1000, estimated: false, sampled: 40 });
    assert.deepEqual(sent.filter((m) => m.type === 'usage').at(-1), { type: 'usage', usage: { used: 120, window: 1000, estimated: false, sampled: 40 } });
  });
});
