// The pure parts of MCP sampling: a server's request read (text only, roles checked, maxTokens capped
// and said), the single model call that answers it, the note for a cap and unfollowed model hints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SAMPLING_MAX_TOKENS, samplingModelRequest, samplingNote, samplingRequestOf, stopReasonOf } from '../../../src/mcp/sampling';
import { toStreamingParams } from '../../../src/model/wire';
import { isWebUrl } from '../../../src/mcp/clientFeatures';

const user = (text: string) => ({ role: 'user', content: { type: 'text', text } });

describe('samplingRequestOf', () => {
  it('reads text messages, the system prompt and the model hints', () => {
    const read = samplingRequestOf('s-1', 'srv', {
      messages: [user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }],
      systemPrompt: 'be brief',
      maxTokens: 50,
      modelPreferences: { hints: [{ name: 'claude-3-sonnet' }, {}] },
    });
    assert.deepEqual(read, {
      id: 's-1',
      server: 'srv',
      messages: [
        { role: 'user', text: 'hi' },
        { role: 'assistant', text: 'a\nb' },
      ],
      systemPrompt: 'be brief',
      maxTokens: 50,
      modelHints: ['claude-3-sonnet'],
    });
  });

  it('caps a request for 1M tokens and keeps what was asked', () => {
    const read = samplingRequestOf('s-2', 'srv', { messages: [user('x')], maxTokens: 1_000_000 });
    assert.ok(!('error' in read));
    assert.equal(read.maxTokens, 1_000_000);
    assert.equal(read.cappedTo, SAMPLING_MAX_TOKENS);
    assert.equal(samplingModelRequest(read, 'm').maxTokens, SAMPLING_MAX_TOKENS);
    assert.equal(samplingNote(read, 'm'), `maxTokens 1000000 was capped to ${SAMPLING_MAX_TOKENS}`);
  });

  it('refuses image content, no messages and a non-positive maxTokens, saying which', () => {
    assert.deepEqual(samplingRequestOf('s', 'srv', { messages: [{ role: 'user', content: { type: 'image' } }], maxTokens: 10 }), { error: 'message 0 holds image content; Sprout samples text only' });
    assert.deepEqual(samplingRequestOf('s', 'srv', { messages: [], maxTokens: 10 }), { error: 'the request has no messages' });
    assert.deepEqual(samplingRequestOf('s', 'srv', { messages: [user('x')], maxTokens: 0 }), { error: 'maxTokens must be a positive integer (got 0)' });
  });
});

describe('samplingModelRequest', () => {
  it('is one call without tools: the system prompt first, max_tokens on the wire', () => {
    const read = samplingRequestOf('s', 'srv', { messages: [user('q')], systemPrompt: 'sys', maxTokens: 30 });
    assert.ok(!('error' in read));
    const request = samplingModelRequest(read, 'chat-model');
    const wire = toStreamingParams(request);
    assert.equal(wire.model, 'chat-model');
    assert.equal(wire.max_tokens, 30);
    assert.equal(wire.tools, undefined);
    assert.deepEqual(wire.messages.map((m) => [m.role, m.content]), [['system', 'sys'], ['user', 'q']]);
  });

  it('notes a model hint the chat model does not match', () => {
    const read = samplingRequestOf('s', 'srv', { messages: [user('q')], maxTokens: 30, modelPreferences: { hints: [{ name: 'gpt-4o' }] } });
    assert.ok(!('error' in read));
    assert.equal(samplingNote(read, 'local-llama'), "the chat's model local-llama answered (the server preferred gpt-4o)");
    assert.equal(samplingNote(read, 'gpt-4o'), undefined);
  });

  it('maps finish reasons to MCP stop reasons', () => {
    assert.deepEqual(['stop', 'length', 'content_filter'].map(stopReasonOf), ['endTurn', 'maxTokens', 'content_filter']);
  });
});

describe('isWebUrl (URL-mode elicitation offers only these)', () => {
  it('accepts http(s), refuses other schemes and non-URLs', () => {
    assert.deepEqual(['https://a.example/x', 'http://localhost:3000', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'].map(isWebUrl), [true, true, false, false, false]);
  });
});
