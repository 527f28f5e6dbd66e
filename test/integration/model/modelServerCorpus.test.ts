/**
 * The model-server corpus (corpus/modelServers.ts, corpus/streamQuirks.ts) against the real client:
 * each case's server behaviour is played by the fake OpenAI server over real HTTP, and the call must
 * end as the case says: the answer (thinking kept apart) after so many requests and waits, or a
 * failure in words after so many. Backoffs go through a clock that records each wait and returns at
 * once, so a 47-second RetryInfo costs nothing and its length is checked exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelError, type Clock } from '../../../src/agent/ports';
import type { ChatMessage } from '../../../src/agent/messages';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import { startFakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { ModelCase } from './corpus/modelCase';
import { MODEL_CASES } from './corpus/modelServers';
import { STREAM_QUIRK_CASES } from './corpus/streamQuirks';
import { checkTurn, openTurn } from './serverHarness';

const SYSTEM: ChatMessage = { role: 'system', content: 'You are Sprout.' };
const ECHO = { name: 'tools__echo', description: 'Echoes its text.', parameters: { type: 'object', properties: { text: { type: 'string' } } } };

/** A turn whose `_Stop` hook objected: the assistant's end of turn, then the hook's call and answer, as the loop appends them. */
const STOP_OBJECTION: ChatMessage[] = [
  SYSTEM,
  { role: 'user', content: 'echo twice' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'tools__echo', arguments: '{"text":"first"}' }] },
  { role: 'tool', toolCallId: 'call_1', content: 'first' },
  { role: 'assistant', content: 'All done.' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'hook_stop_1', name: 'tools___Stop', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'hook_stop_1', content: 'run the check once more' },
];

function recordingClock(waits: number[]): Clock {
  return { now: () => Date.now(), sleep: async (ms) => void waits.push(ms) };
}

async function play(c: ModelCase): Promise<void> {
  const fake = await startFakeOpenAi({ responses: c.play, ...(c.rules ? { rules: c.rules } : {}) });
  try {
    const waits: number[] = [];
    const client = new OpenAiModelClient({ baseUrl: fake.url, maxRetries: 4, clock: recordingClock(waits), random: () => 0 });
    const messages = c.stopObjection ? STOP_OBJECTION : [SYSTEM, { role: 'user' as const, content: 'hello' }];
    // The thinking as a viewer sees it stream: reasoning pieces, and answer text taken back as thinking (a lone </think>).
    let reasoning = '';
    const outcome = await client
      .complete({ model: 'fake-model', messages, tools: [ECHO] }, { signal: new AbortController().signal, onReasoningDelta: (d) => (reasoning += d), onTextReclassified: (t) => (reasoning += t) })
      .then(
        (reply) => ({ reply }),
        (error: unknown) => ({ error }),
      );
    // Requests the fake refused by a server rule are the lessons a case teaches; the others are attempts.
    const attempts = fake.chatRequests().filter((r) => r.valid).length;
    const expect = c.expect;
    if ('answer' in expect) {
      assert.ok('reply' in outcome, `expected an answer, got: ${'error' in outcome ? String((outcome.error as Error).message) : ''}`);
      assert.equal(outcome.reply.content, expect.answer);
      assert.equal(outcome.reply.reasoning ?? '', expect.reasoning ?? '', 'the thinking, kept apart from the answer');
      assert.equal(reasoning, expect.reasoning ?? '', 'the thinking as it streamed');
      assert.equal(attempts, expect.attempts, 'requests the server answered');
      if (expect.waitedMs) assert.deepEqual(waits, expect.waitedMs, 'the waits the server asked for');
      if (expect.finish) assert.equal(outcome.reply.finishReason, expect.finish, 'the finish reason the loop reads');
      if (expect.usage) {
        assert.ok(outcome.reply.usage !== null, 'a usage');
        const { promptTokens, completionTokens, estimated } = outcome.reply.usage;
        assert.deepEqual({ promptTokens, completionTokens, estimated: estimated ?? false }, { ...expect.usage, estimated: false }, 'the usage the server reported');
      }
      assert.deepEqual(
        outcome.reply.toolCalls.map((call) => `${call.name} ${call.arguments}`),
        expect.toolCalls ?? [],
        'the tool calls, whole',
      );
    } else {
      assert.ok('error' in outcome, `expected a failure, got the answer ${JSON.stringify('reply' in outcome ? outcome.reply.content : '')}`);
      assert.ok(outcome.error instanceof ModelError, String(outcome.error));
      assert.match(outcome.error.message, expect.fails);
      if (expect.kind) assert.equal(outcome.error.kind, expect.kind, outcome.error.message);
      if (expect.neverSays) assert.doesNotMatch(outcome.error.message, expect.neverSays);
      assert.equal(attempts, expect.attempts, `requests sent before giving up: ${outcome.error.message}`);
    }
  } finally {
    await fake.close();
  }
}

for (const c of [...MODEL_CASES, ...STREAM_QUIRK_CASES]) test(`${c.id} (${c.source})`, () => play(c));

// The same refusal end to end (https://github.com/cline/cline/issues/431): a whole turn through the loop whose
// `_Stop` hook objects once, on a gateway that refuses two turns of one role in a row. The objection's request is
// refused twice (the instructions moved, then the turns merged), each shape learned, and the run goes on.
test('a _Stop objection on a gateway requiring alternating roles does not end the run (Bedrock behind LiteLLM)', async () => {
  const rig = await openTurn({ fake: { rules: ['bedrock-alternating-roles'] } });
  try {
    const outcome = await rig.runtime.session.run('echo twice');
    // Two lessons in a row for the objection's request, then it is accepted; the rest of the turn is valid.
    const rejected = rig.fake.requests.filter((r) => !r.valid);
    assert.deepEqual(rejected.map((r) => r.seq), [2, 3], rejected.map((r) => r.error).join(' | '));
    for (const r of rejected) assert.match(r.error ?? '', /must alternate between user and assistant/);
    assert.equal(rig.fake.requests[4]?.valid, true, 'the objection went through in the learned shape');
    const merged = rig.messages(rig.fake.chatRequests().length - 1);
    assert.ok(merged.every((m, i) => i === 0 || m.role !== merged[i - 1]?.role || m.role === 'tool'), `turns alternate: ${merged.map((m) => m.role).join(',')}`);
    for (let i = rig.fake.requests.length - 1; i >= 0; i--) if (rig.fake.requests[i]?.valid === false) rig.fake.requests.splice(i, 1);
    checkTurn(rig, outcome, { echoes: ['first', 'second'] });
  } finally {
    await rig.close();
  }
});
