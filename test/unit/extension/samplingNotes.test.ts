// What the chat says about a server's sampling request: what it asked (the cap said), and how it ended.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noteFor } from '../../../src/extension/chat/chatNotes';

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
