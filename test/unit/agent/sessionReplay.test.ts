import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { applyEvent, emptyReplayState, replayEvents } from '../../../src/agent/sessionState';
import type { AgentEvent } from '../../../src/agent/types';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { InMemoryTranscriptStore, harness, settings } from './harness';

test('the reducer: message appends, compaction replaces, budget and usage set', () => {
  const usage = { promptTokens: 10, completionTokens: 2, totalTokens: 12 };
  const events: AgentEvent[] = [
    { type: 'message', message: { role: 'user', content: 'a' } },
    { type: 'usage', usage },
    { type: 'message', message: { role: 'assistant', content: 'b' } },
    { type: 'budget', used: 2, max: 3, scope: 'session', repeatedEndTurnStops: true },
    { type: 'text_delta', delta: 'ignored' },
  ];
  const state = replayEvents(events);
  assert.deepEqual(state, { history: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }], rejectionsUsed: 2, lastUsage: usage, usageMessageCount: 1 });
  const compacted = applyEvent(state, { type: 'compaction', trigger: 'manual', summary: 's', injected: [], fallback: false, droppedMessages: 2, history: [{ role: 'user', content: 's' }] });
  assert.deepEqual(compacted, { history: [{ role: 'user', content: 's' }], rejectionsUsed: 2, lastUsage: null, usageMessageCount: 0 });
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
  assert.ok(!h.transcript.records.some((r) => r.event.type === 'text_delta'), 'text deltas stay out of the transcript');
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
