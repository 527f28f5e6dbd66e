/**
 * The per-round history work was made cheaper (validation without per-message allocation, linear
 * replay, the dangling-call net skipped when nothing is open). These tests pin that the answers did
 * not change: random histories and event streams against the plain definitions, and the net itself.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import { historyChars } from '../../../src/agent/compactionRules';
import { HistoryLedger } from '../../../src/agent/historyLedger';
import { validateHistory, type HistoryProblem } from '../../../src/agent/historyValidity';
import { AgentSession } from '../../../src/agent/session';
import { applyEvent, applyEventInPlace, emptyReplayState, replayEvents, type ReplayState } from '../../../src/agent/replayState';
import type { Clock } from '../../../src/agent/ports';
import type { AgentEvent } from '../../../src/agent/events';
import type { ChatMessage } from '../../../src/agent/messages';
import { InMemoryToolHost } from '../../fakes/InMemoryToolHost';
import { ScriptedModelClient, call, reply } from '../../fakes/ScriptedModelClient';
import { InMemoryTranscriptStore } from '../../fakes/InMemoryTranscriptStore';
import { settings } from './harness';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Histories that break every rule now and then: orphans, doubles, repeats, unanswered, empty. */
function randomHistory(rand: () => number, length: number): ChatMessage[] {
  const ids = ['a', 'b', 'c', 'd'];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const out: ChatMessage[] = [];
  for (let i = 0; i < length; i++) {
    const r = rand();
    if (r < 0.25) out.push({ role: 'user', content: `u${i}` });
    else if (r < 0.45) out.push({ role: 'assistant', content: rand() < 0.2 ? null : rand() < 0.1 ? '' : `a${i}` });
    else if (r < 0.65) {
      const calls = Array.from({ length: Math.floor(rand() * 3) }, () => ({ id: pick(ids), name: 'fs__x', arguments: '{}' }));
      out.push({ role: 'assistant', content: rand() < 0.5 ? null : 'working', toolCalls: calls });
    } else out.push({ role: 'tool', toolCallId: pick(ids), content: 'result' });
  }
  return out;
}

/** The rules as first written (one map per message); the reference the fast version must match. */
function referenceValidate(messages: readonly ChatMessage[]): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  let pending = new Map<string, boolean>();
  const closeBlock = (index: number): void => {
    for (const [id, answered] of pending) if (!answered) problems.push({ index, problem: `tool call ${id} is never answered` });
    pending = new Map();
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const answered = pending.get(message.toolCallId);
      if (answered === undefined) problems.push({ index, problem: `tool message ${message.toolCallId} answers no call of the assistant message before it` });
      else if (answered) problems.push({ index, problem: `tool call ${message.toolCallId} is answered twice` });
      else pending.set(message.toolCallId, true);
      return;
    }
    closeBlock(index);
    const empty = message.role === 'assistant' && (message.content == null || message.content === '') && (message.toolCalls?.length ?? 0) === 0;
    if (empty) problems.push({ index, problem: 'assistant message with neither content nor tool calls' });
    if (message.role === 'assistant') {
      for (const c of message.toolCalls ?? []) {
        if (pending.has(c.id)) problems.push({ index, problem: `tool call id ${c.id} repeated` });
        pending.set(c.id, false);
      }
    }
  });
  closeBlock(messages.length);
  return problems;
}

test('validateHistory reports exactly what the plain definition reports, on 3000 random histories', () => {
  const rand = random(7);
  let withProblems = 0;
  for (let i = 0; i < 3000; i++) {
    const history = randomHistory(rand, Math.floor(rand() * 12));
    const expected = referenceValidate(history);
    if (expected.length > 0) withProblems += 1;
    assert.deepEqual(validateHistory(history), expected, JSON.stringify(history));
  }
  assert.ok(withProblems > 1000 && withProblems < 2900, `the generator covers valid and invalid histories (${withProblems} invalid)`);
});

test('HistoryLedger answers as full passes do while a history grows in place, is compacted and is replaced', () => {
  const rand = random(23);
  for (let run = 0; run < 200; run++) {
    const ledger = new HistoryLedger();
    let history: ChatMessage[] = [];
    for (let step = 0; step < 25; step++) {
      const r = rand();
      if (r < 0.1) history = randomHistory(rand, Math.floor(rand() * 6));
      else if (r < 0.15) history = [...history.slice(0, Math.floor(history.length / 2)), ...randomHistory(rand, 2)];
      else if (r < 0.3) history = [...history, ...randomHistory(rand, 1 + Math.floor(rand() * 3))];
      else history.push(...randomHistory(rand, 1 + Math.floor(rand() * 3))); // as the live session appends
      const order = rand() < 0.5;
      const problems = order ? ledger.validate(history) : undefined;
      assert.equal(ledger.historyChars(history), historyChars(history));
      assert.deepEqual(problems ?? ledger.validate(history), validateHistory(history), JSON.stringify(history));
      assert.deepEqual(ledger.validate(history), validateHistory(history), 'asking twice changes nothing');
    }
  }
});

test('replayEvents equals folding applyEvent and mutates neither the initial state nor any event', () => {
  const rand = random(11);
  for (let i = 0; i < 500; i++) {
    const initial: ReplayState = rand() < 0.5 ? emptyReplayState() : { ...emptyReplayState(), history: [{ role: 'user', content: 'before' }] };
    const events: AgentEvent[] = randomHistory(rand, 30).map((message): AgentEvent => {
      const r = rand();
      if (r < 0.08) return { type: 'compaction', trigger: 'auto', summary: 's', injected: [], fallback: false, droppedMessages: 1, history: [{ role: 'user', content: `c${i}` }] };
      if (r < 0.16) return { type: 'usage', usage: { promptTokens: 5, completionTokens: 1, totalTokens: 6 } };
      if (r < 0.2) return { type: 'budget', used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true };
      return { type: 'message', message };
    });
    const before = structuredClone({ initial, events });
    const expected = events.reduce(applyEvent, initial);
    assert.deepEqual(replayEvents(events, initial), expected);
    assert.deepEqual({ initial, events }, before, 'inputs untouched');
  }
});

test('applyEventInPlace gives what applyEvent gives, and the compaction history it keeps is its own', () => {
  const rand = random(29);
  for (let i = 0; i < 300; i++) {
    const compacted: ChatMessage[] = [{ role: 'user', content: `c${i}` }];
    const events: AgentEvent[] = randomHistory(rand, 20).map((message): AgentEvent => {
      const r = rand();
      if (r < 0.1) return { type: 'compaction', trigger: 'auto', summary: 's', injected: [], fallback: false, droppedMessages: 1, history: compacted };
      if (r < 0.2) return { type: 'usage', usage: { promptTokens: 5, completionTokens: 1, totalTokens: 6 } };
      return { type: 'message', message };
    });
    const live = events.reduce(applyEventInPlace, { ...emptyReplayState(), history: [] });
    assert.deepEqual(live, events.reduce(applyEvent, emptyReplayState()));
    assert.deepEqual(compacted, [{ role: 'user', content: `c${i}` }], 'the event history is never appended to');
  }
});

test('session.state is a snapshot: a later prompt does not change a history already read', async () => {
  const tools = new InMemoryToolHost([]);
  const s = await AgentSession.open({ sessionId: 's', settings: settings(), model: new ScriptedModelClient([{ content: 'one' }, { content: 'two' }]), tools, clock: new BreakableClock() });
  await s.run('first');
  const read = s.state.history;
  await s.run('second');
  assert.deepEqual(read.map((m) => m.content), ['first', 'one']);
  assert.deepEqual(s.state.history.map((m) => m.content), ['first', 'one', 'second', 'two']);
});

/** A clock that starts throwing once `broken` is set: an unexpected failure in the middle of a round. */
class BreakableClock implements Clock {
  broken = false;
  now(): number {
    if (this.broken) throw new Error('clock exploded');
    return Date.now();
  }
  async sleep(): Promise<void> {}
}

async function session(clock: BreakableClock, script: ConstructorParameters<typeof ScriptedModelClient>[0]): Promise<{ s: AgentSession; tools: InMemoryToolHost }> {
  const tools = new InMemoryToolHost([{ name: 'fs', tools: { x: () => 'done' } }]);
  const s = await AgentSession.open({ sessionId: 's', settings: settings(), model: new ScriptedModelClient(script), tools, clock, transcript: new InMemoryTranscriptStore() });
  return { s, tools };
}

test('an unexpected failure with calls open at the tail: every call is answered "cancelled", the next prompt works', async () => {
  const clock = new BreakableClock();
  const calls = [call('fs__x', {}, 'k1'), call('fs__x', {}, 'k2')];
  const { s } = await session(clock, [
    async () => {
      clock.broken = true;
      return { content: null, toolCalls: calls, finishReason: 'tool_calls', usage: null };
    },
    reply.text('recovered'),
  ]);
  const outcome = await s.run('go');
  assert.equal(outcome.reason, 'error');
  assert.match(outcome.message ?? '', /clock exploded/);
  assert.deepEqual(s.state.history.slice(-2), [
    { role: 'tool', toolCallId: 'k1', content: 'cancelled' },
    { role: 'tool', toolCallId: 'k2', content: 'cancelled' },
  ]);
  assert.deepEqual(validateHistory(s.state.history), []);
  clock.broken = false;
  assert.equal((await s.run('again')).reason, 'end_turn', 'the next prompt is accepted');
});

test('an unexpected failure with nothing open appends nothing', async () => {
  const clock = new BreakableClock();
  const { s, tools } = await session(clock, [reply.text('hello')]);
  tools.serverNames = () => {
    throw new Error('names exploded');
  };
  const outcome = await s.run('go');
  assert.equal(outcome.reason, 'error');
  assert.match(outcome.message ?? '', /names exploded/);
  assert.deepEqual(s.state.history, [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: 'hello' },
  ]);
});
