/**
 * Streamed text that turns out to have been thinking (a lone `</think>`: DeepSeek-R1 distills on vLLM,
 * https://github.com/vllm-project/vllm/issues/13125, https://github.com/deepseek-ai/DeepSeek-R1/issues/352):
 * the core says so with `text_reclassified`, keeps it out of the answer, the partial text and the
 * transcript's saved pieces.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interruptedReply } from '../../../src/agent/replayState';
import { ModelError, type ModelCallOptions, type ModelReply } from '../../../src/agent/ports';
import { SAVED_TEXT_PIECE } from '../../../src/agent/session';
import { harness } from './harness';

test('a reply whose first text was thinking: text_delta, then text_reclassified, then the answer; the transcript never holds it as text', async () => {
  const h = await harness({
    script: [
      async (_request, options: ModelCallOptions): Promise<ModelReply> => {
        options.onTextDelta?.('Two plus');
        options.onTextDelta?.(' two.');
        options.onTextReclassified?.('Two plus two.');
        options.onReasoningDelta?.(' Four.');
        options.onTextDelta?.('It is 4.');
        return { content: 'It is 4.', reasoning: 'Two plus two. Four.', toolCalls: [], finishReason: 'stop', usage: null };
      },
    ],
  });
  assert.equal((await h.session.run('add')).reason, 'end_turn');
  const streamed = h.events.filter((e) => e.type === 'text_delta' || e.type === 'text_reclassified' || e.type === 'reasoning_delta');
  assert.deepEqual(streamed, [
    { type: 'text_delta', delta: 'Two plus' },
    { type: 'text_delta', delta: ' two.' },
    { type: 'text_reclassified', text: 'Two plus two.' },
    { type: 'reasoning_delta', delta: ' Four.' },
    { type: 'text_delta', delta: 'It is 4.' },
  ]);
  const saved = h.transcript.records.map((r) => r.event);
  assert.ok(!saved.some((e) => e.type === 'text_delta' || e.type === 'text_reclassified'), 'short text is kept whole on the message only');
  const answer = saved.find((e) => e.type === 'message' && e.message.role === 'assistant');
  assert.ok(answer?.type === 'message' && answer.message.role === 'assistant');
  assert.equal(answer.message.content, 'It is 4.');
  assert.equal(answer.message.reasoning, 'Two plus two. Four.');
  h.session.dispose();
});

test('thinking longer than a saved piece: the transcript takes it back, so a process that dies after it resumes without it', async () => {
  const thinking = 'x'.repeat(SAVED_TEXT_PIECE + 88);
  const h = await harness({
    script: [
      async (_request, options: ModelCallOptions): Promise<ModelReply> => {
        for (let i = 0; i < thinking.length; i += 100) options.onTextDelta?.(thinking.slice(i, i + 100));
        options.onTextReclassified?.(thinking);
        options.onTextDelta?.('Partial answer');
        throw new ModelError('server', 'the connection dropped');
      },
    ],
  });
  await h.session.run('think long');
  const saved = h.transcript.records.map((r) => r.event);
  assert.ok(saved.some((e) => e.type === 'text_reclassified'), 'a piece already saved is taken back by a record');
  const untilOutcome = saved.slice(0, saved.findIndex((e) => e.type === 'outcome'));
  assert.equal(interruptedReply(untilOutcome), 'Partial answer');
  h.session.dispose();
});

test('cancelled after reclassified text: the partial answer kept is what remained an answer', async () => {
  const stop = new AbortController();
  const h = await harness({
    script: [
      (_request, options: ModelCallOptions): Promise<ModelReply> =>
        new Promise((_resolve, reject) => {
          options.onTextDelta?.('Hmm.');
          options.onTextReclassified?.('Hmm.');
          options.onTextDelta?.('The answ');
          options.signal.addEventListener('abort', () => reject(new ModelError('cancelled', 'cancelled')), { once: true });
          stop.abort();
        }),
    ],
  });
  assert.equal((await h.session.run('go', stop.signal)).reason, 'cancelled');
  const kept = h.events.find((e) => e.type === 'message' && e.message.role === 'assistant');
  assert.ok(kept?.type === 'message');
  assert.equal(kept.message.content, 'The answ');
});
