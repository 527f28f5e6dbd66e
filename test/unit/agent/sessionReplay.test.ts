import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { applyEvent, emptyReplayState, replayEvents } from '../../../src/agent/replayState';
import { ModelError, type ModelCallOptions, type ModelReply, type ModelRequest } from '../../../src/agent/ports';
import { SAVED_TEXT_PIECE } from '../../../src/agent/session';
import type { AgentEvent } from '../../../src/agent/events';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { InMemoryTranscriptStore } from '../../fakes/InMemoryTranscriptStore';
import { harness, settings } from './harness';

test('the reducer: message appends, compaction replaces, budget and usage set, a tool search\'s loads add up and survive a compaction', () => {
  const usage = { promptTokens: 10, completionTokens: 2, totalTokens: 12 };
  const events: AgentEvent[] = [
    { type: 'message', message: { role: 'user', content: 'a' } },
    { type: 'usage', usage },
    { type: 'message', message: { role: 'assistant', content: 'b' } },
    { type: 'budget', used: 2, max: 3, scope: 'session', repeatedEndTurnStops: true },
    { type: 'text_delta', delta: 'ignored' },
    { type: 'tools_loaded', query: 'pr', names: ['gh__pr.create', 'gh__pr.list'] },
    { type: 'tools_loaded', query: 'list', names: ['gh__pr.list', 'gh__issues.list'] },
  ];
  const state = replayEvents(events);
  const loadedTools = ['gh__pr.create', 'gh__pr.list', 'gh__issues.list'];
  assert.deepEqual(state, { history: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }], rejectionsUsed: 2, lastUsage: usage, usageMessageCount: 1, loadedTools });
  const compacted = applyEvent(state, { type: 'compaction', trigger: 'manual', summary: 's', injected: [], fallback: false, droppedMessages: 2, history: [{ role: 'user', content: 's' }] });
  assert.deepEqual(compacted, { history: [{ role: 'user', content: 's' }], rejectionsUsed: 2, lastUsage: null, usageMessageCount: 0, loadedTools });
  assert.deepEqual(emptyReplayState().history, []);
});

test('a session reopened from its transcript has the same history, budget and usage', async () => {
  const usage = { promptTokens: 50, completionTokens: 3, totalTokens: 53 };
  const h = await harness({
    servers: [{ name: 't', tools: { run: () => 'ran', _Stop: (() => { let n = 0; return () => (n++ === 0 ? 'not yet' : ''); })() } }],
    script: [reply.tools(call('t__run')), { ...reply.text('done'), usage }, reply.text('done again')],
  });
  await h.session.run('go');
  assert.equal(h.session.state.rejectionsUsed, 1);
  assert.ok(!h.transcript.records.some((r) => r.event.type === 'text_delta'), 'a short finished answer leaves no saved text pieces');
  const reopened = await harness({ transcript: new InMemoryTranscriptStore([...h.transcript.records]) });
  const { history, rejectionsUsed, lastUsage } = reopened.session.state;
  assert.deepEqual({ history, rejectionsUsed, lastUsage }, { history: h.session.state.history, rejectionsUsed: 1, lastUsage: h.session.state.lastUsage });
  assert.deepEqual(reopened.transcript.records.at(-1)?.event, { type: 'session_started', sessionId: 'test-session', resumed: true });
});

test('resume after a crash mid-tool repairs the history so the next prompt is accepted', async () => {
  const crashed = new InMemoryTranscriptStore([
    { at: 1, event: { type: 'message', message: { role: 'user', content: 'go' } } },
    { at: 2, event: { type: 'message', message: { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'fs__x', arguments: '{}' }] } } },
  ]);
  const h = await harness({ transcript: crashed, script: [reply.text('resumed fine')], settings: settings() });
  assert.ok(isValidHistory(h.session.state.history));
  assert.deepEqual(h.session.state.history.at(-1), { role: 'tool', toolCallId: 'c1', content: 'cancelled' });
  assert.equal((await h.session.run('continue')).reason, 'end_turn');
  const again = await harness({ transcript: new InMemoryTranscriptStore([...h.transcript.records]) });
  assert.deepEqual(again.session.state.history, h.session.state.history, 'the repair replays deterministically');
});

test('streamed text is saved in pieces; a finished answer leaves only its message', async () => {
  const answer = 'abcdefghij'.repeat(130);
  const streamed = async (_request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> => {
    for (let i = 0; i < answer.length; i += 10) options.onTextDelta?.(answer.slice(i, i + 10));
    return { content: answer, toolCalls: [], finishReason: 'stop', usage: null };
  };
  const h = await harness({ script: [streamed] });
  await h.session.run('go');
  const saved = h.transcript.records.flatMap((r) => (r.event.type === 'text_delta' ? [r.event.delta] : []));
  assert.deepEqual(saved.map((d) => d.length), [520, 520], `pieces of at least ${SAVED_TEXT_PIECE} characters, the rest left to the message`);
  assert.equal(saved.join(''), answer.slice(0, 1040));
  const last = h.transcript.records.filter((r) => r.event.type === 'message').at(-1)?.event;
  assert.deepEqual(last, { type: 'message', message: { role: 'assistant', content: answer } });
  const reopened = await harness({ transcript: new InMemoryTranscriptStore([...h.transcript.records]) });
  assert.deepEqual(reopened.session.state.history, h.session.state.history, 'saved pieces of a finished answer add nothing on resume');
});

test('a transcript that ends mid-answer (a crash) reopens with what had streamed, once', async () => {
  const crashed = new InMemoryTranscriptStore([
    { at: 1, event: { type: 'prompt_started', text: 'go' } },
    { at: 2, event: { type: 'message', message: { role: 'user', content: 'go' } } },
    { at: 3, event: { type: 'round_started', round: 1 } },
    { at: 4, event: { type: 'text_delta', delta: 'Half an ans' } },
    { at: 5, event: { type: 'text_delta', delta: 'wer' } },
  ]);
  const h = await harness({ transcript: crashed, script: [reply.text('went on')] });
  assert.deepEqual(h.session.state.history, [{ role: 'user', content: 'go' }, { role: 'assistant', content: 'Half an answer' }]);
  assert.deepEqual(h.transcript.records.at(-1)?.event, { type: 'message', message: { role: 'assistant', content: 'Half an answer' } }, 'kept in the transcript, so it stays kept');
  assert.equal((await h.session.run('go on')).reason, 'end_turn');
  const again = await harness({ transcript: new InMemoryTranscriptStore([...h.transcript.records]) });
  assert.deepEqual(again.session.state.history, h.session.state.history, 'not appended a second time');
});

test('text streamed before a failed call is saved for the display but never becomes history', async () => {
  const failing = async (_request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> => {
    options.onTextDelta?.('partial before the error');
    throw new ModelError('server', 'the stream broke');
  };
  const h = await harness({ script: [failing] });
  assert.equal((await h.session.run('go')).reason, 'error');
  const types = h.transcript.records.map((r) => r.event.type);
  assert.deepEqual(types.slice(-2), ['text_delta', 'outcome']);
  const reopened = await harness({ transcript: new InMemoryTranscriptStore([...h.transcript.records]) });
  assert.deepEqual(reopened.session.state.history, [{ role: 'user', content: 'go' }]);
});

test('updateSettings applies from the next round', async () => {
  const h = await harness({
    servers: [{ name: 't', tools: { run: () => 'ran' } }],
    script: [reply.tools(call('t__run')), reply.text('done')],
  });
  h.session.subscribe((e) => {
    if (e.type === 'tool_finished') h.session.updateSettings(settings({ model: 'other-model' }));
  });
  await h.session.run('go');
  assert.deepEqual(h.model.requests.map((r) => r.model), ['test-model', 'other-model']);
});
