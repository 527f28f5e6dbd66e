import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUMMARY_PREFIX, summaryInputBudget } from '../../../src/agent/compactionRules';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { ModelError } from '../../../src/agent/ports';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

// 1000-token window at 0.5: compaction starts past 500 estimated tokens (about 2000 characters).
const small = settings({ contextWindowTokens: 1000, compactThreshold: 0.5, systemPrompt: 'You are a test agent.' });

test('compaction summarises, injects _PostCompact as synthetic pairs and re-seats the prompt', async () => {
  const h = await harness({
    servers: [
      { name: 'fs', tools: { big: () => 'z'.repeat(3000) } },
      { name: 'todo', tools: { _PostCompact: () => 'todo: write the tests', _Stop: () => '' } },
      { name: 'quiet', tools: { _PostCompact: () => '' } },
    ],
    settings: small,
    script: [reply.tools(call('fs__big')), reply.text('Original task: go. Done: read big. Next: finish.'), reply.text('finished')],
  });
  const outcome = await h.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const summaryRequest = h.model.requests[1];
  assert.deepEqual(summaryRequest?.tools, [], 'the summary call has no tools');
  const sentChars = (summaryRequest?.messages ?? []).reduce((n, m) => n + (m.content ?? '').length, 0);
  assert.ok(sentChars <= summaryInputBudget(small) + 1000, `the summarising request is trimmed to fit (${sentChars})`);
  assert.match(summaryRequest?.messages[1]?.content ?? '', /characters omitted/);

  const [compaction] = h.of('compaction');
  assert.equal(compaction?.trigger, 'auto');
  assert.equal(compaction?.fallback, false);
  assert.deepEqual(compaction?.injected, [{ server: 'todo', text: 'todo: write the tests' }]);
  const fresh = compaction?.history ?? [];
  assert.deepEqual(fresh.map((m) => m.role), ['user', 'assistant', 'tool', 'user']);
  assert.equal(fresh[0]?.content, `${SUMMARY_PREFIX}Original task: go. Done: read big. Next: finish.`);
  assert.equal(fresh[2]?.content, '{"hook":"_PostCompact","server":"todo","text":"todo: write the tests"}');
  assert.deepEqual(fresh[3], { role: 'user', content: 'go' });
  assert.deepEqual(h.model.requests[2]?.messages.slice(1), fresh, 'the next model call starts from the fresh history');
  assert.deepEqual(h.tools.callsTo('_PostCompact').map((c) => [c.server, c.args]), [['todo', {}], ['quiet', {}]]);
  assert.ok(isValidHistory(h.session.state.history));
});

for (const failure of ['error', 'empty'] as const) {
  test(`when the summary fails (${failure}) the oldest turns are dropped and _PostCompact is not run`, async () => {
    const h = await harness({
      servers: [{ name: 'fs', tools: { big: () => 'z'.repeat(1200), _PostCompact: () => 'never' } }],
      settings: small,
      script: [
        reply.tools(call('fs__big')),
        reply.text('first answer'),
        reply.tools(call('fs__big')),
        failure === 'error' ? new ModelError('server', 'the summariser is down', 503) : reply.text('   '),
        reply.text('second answer'),
      ],
    });
    await h.session.run('first prompt');
    assert.equal(h.of('compaction').length, 0);
    const outcome = await h.session.run('second prompt');
    assert.equal(outcome.reason, 'end_turn');
    const [compaction] = h.of('compaction');
    assert.equal(compaction?.fallback, true);
    assert.equal(compaction?.summary, null);
    assert.deepEqual(compaction?.injected, []);
    assert.equal(h.tools.callsTo('_PostCompact').length, 0);
    assert.equal(compaction?.history[0]?.content, 'second prompt', 'the first turn was dropped whole');
    assert.ok((compaction?.droppedMessages ?? 0) >= 4);
    const last = h.model.requests.at(-1)?.messages ?? [];
    const chars = last.reduce((n, m) => n + (m.content ?? '').length, 0);
    assert.ok(chars / 4 <= 500, 'the request after the fallback fits under the threshold');
  });
}

test('compactNow compacts on demand without re-seating a prompt', async () => {
  const h = await harness({
    servers: [{ name: 'todo', tools: { _PostCompact: () => 'list: a, b' } }],
    script: [reply.text('hello'), reply.text('notes: said hello'), reply.text('next answer')],
  });
  await h.session.run('hi');
  await h.session.compactNow();
  const [compaction] = h.of('compaction');
  assert.equal(compaction?.trigger, 'manual');
  assert.deepEqual(h.session.state.history.map((m) => m.role), ['user', 'assistant', 'tool']);
  assert.equal((await h.session.run('continue')).reason, 'end_turn');
  assert.equal(h.model.requests.at(-1)?.messages.at(-1)?.content, 'continue');
});

test('reported usage drives the estimate', async () => {
  const usage = { promptTokens: 600, completionTokens: 5, totalTokens: 605 };
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'ok' } }],
    settings: small,
    script: [{ ...reply.tools(call('fs__read')), usage }, reply.text('notes'), reply.text('done')],
  });
  await h.session.run('go');
  assert.equal(h.of('compaction').length, 1, 'the provider said 600 prompt tokens, over the 500 limit');
});
