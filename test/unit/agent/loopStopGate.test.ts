import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { ModelError } from '../../../src/agent/ports';
import { delayed, hangs, objects } from '../../fakes/InMemoryToolHost';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const stopCalls = (h: Awaited<ReturnType<typeof harness>>) => h.tools.callsTo('_Stop').length;

test('session scope: the budget carries across prompts; once spent, each end of turn gets one final verdict', async () => {
  const h = await harness({
    servers: [{ name: 'tests', tools: { _Stop: objects('tests fail', 'still failing', 'again') } }],
    settings: settings({}, { stopMaxRejections: 2, repeatedEndTurnStops: false }),
    script: [reply.text('done'), reply.text('done!'), reply.text('really done'), reply.text('second prompt')],
  });
  const first = await h.session.run('fix it');
  assert.equal(first.reason, 'end_turn');
  assert.equal(first.rounds, 3, 'objection rounds count as rounds; the verdict adds none');
  assert.deepEqual(first.unresolved, { cause: 'budget_exhausted', objections: [{ server: 'tests', text: 'again' }] }, 'what the verdict still objects');
  assert.equal(stopCalls(h), 3, 'two gate rounds and one verdict');
  assert.equal(h.session.state.rejectionsUsed, 2);
  assert.deepEqual(h.of('budget').map((e) => e.used), [1, 2]);
  assert.deepEqual(h.of('objection_resolved').map((e) => e.resolution), ['overridden']);
  assert.equal(h.of('hook_objected').length, 2, 'the verdict continues nothing, so it is no objection round');
  const [call0, call1, verdict] = h.tools.callsTo('_Stop');
  assert.deepEqual(call0?.args, {});
  const stopMeta = { event: '_Stop', sessionId: 'test-session', rejectionsUsed: 0, rejectionBudget: 2, afterObjection: false, toolCalls: [], lastAssistantText: 'done', prompt: 'fix it', mode: 'agent' };
  assert.deepEqual(call0?.meta, { 'sprout/hook': stopMeta });
  assert.equal((call1?.meta?.['sprout/hook'] as { afterObjection: boolean }).afterObjection, true);
  assert.deepEqual(verdict?.meta, { 'sprout/hook': { ...stopMeta, rejectionsUsed: 2, afterObjection: true, lastAssistantText: 'really done', final: true } });

  const second = await h.session.run('next');
  assert.equal(second.reason, 'end_turn');
  assert.equal(second.unresolved, undefined, 'the verdict no longer objects');
  assert.equal(stopCalls(h), 4, 'the spent session budget still gets its one verdict call in a later prompt');
  assert.equal((h.tools.callsTo('_Stop')[3]?.meta?.['sprout/hook'] as { final?: boolean }).final, true);
  assert.equal(h.model.requests.length, 4, 'no model round after a verdict');
  assert.ok(isValidHistory(h.session.state.history));
});

test('prompt scope resets the budget at each prompt; resetBudget does it on demand', async () => {
  const h = await harness({
    servers: [{ name: 'tests', tools: { _Stop: objects('one', 'two', 'three') } }],
    settings: settings({}, { stopMaxRejections: 1, stopBudgetScope: 'prompt' }),
    script: [reply.text('a'), reply.text('b'), reply.text('c'), reply.text('d')],
  });
  assert.equal((await h.session.run('p1')).unresolved?.cause, 'declined');
  assert.equal(h.session.state.rejectionsUsed, 1);
  await h.session.run('p2');
  assert.equal(stopCalls(h), 4, 'each prompt had a fresh budget: a gate round and, after the decline, its verdict');
  h.session.resetBudget();
  assert.equal(h.session.state.rejectionsUsed, 0);
  assert.deepEqual(h.of('budget').at(-1), { type: 'budget', used: 0, max: 1, scope: 'prompt', repeatedEndTurnStops: true });
});

test('stopMaxRejections = 0 never calls _Stop', async () => {
  const h = await harness({
    servers: [{ name: 'tests', tools: { _Stop: objects('never seen') } }],
    settings: settings({}, { stopMaxRejections: 0 }),
    script: [reply.text('done')],
  });
  const outcome = await h.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(stopCalls(h), 0);
  assert.equal(h.of('hook_called').length, 0);
});

test('repeated end-turn stops: on, a second end-turn after an objection is a decline; off, _Stop is asked again', async () => {
  const on = await harness({
    servers: [{ name: 'tests', tools: { _Stop: objects('add tests', 'more') } }],
    script: [reply.text('done'), reply.text('I disagree, done')],
  });
  const declined = await on.session.run('go');
  assert.deepEqual(declined.unresolved, { cause: 'declined', objections: [{ server: 'tests', text: 'more' }] }, 'what the verdict still says');
  assert.equal(stopCalls(on), 2, 'the gate round, then the final verdict after the decline');
  assert.equal((on.tools.callsTo('_Stop')[1]?.meta?.['sprout/hook'] as { final?: boolean }).final, true);
  assert.equal(on.model.requests.length, 2, 'the verdict never continues the turn');
  assert.equal(on.of('objection_resolved')[0]?.resolution, 'declined');

  const off = await harness({
    servers: [{ name: 'tests', tools: { _Stop: objects('add tests') } }],
    settings: settings({}, { repeatedEndTurnStops: false }),
    script: [reply.text('done'), reply.text('done now')],
  });
  const outcome = await off.session.run('go');
  assert.equal(outcome.unresolved, undefined);
  assert.equal(stopCalls(off), 2);
  assert.equal(off.of('objection_resolved')[0]?.resolution, 'complied');
});

test('a tool round after an objection counts as complied', async () => {
  const h = await harness({
    servers: [{ name: 'tests', tools: { run: () => 'green', _Stop: objects('run the tests') } }],
    script: [reply.text('done'), reply.tools(call('tests__run')), reply.text('tests pass')],
  });
  const outcome = await h.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved, undefined);
  assert.deepEqual(h.of('objection_resolved'), [{ type: 'objection_resolved', servers: ['tests'], resolution: 'complied' }]);
  assert.equal(stopCalls(h), 2, 'afterObjection was cleared by the tool round, so the gate asked again');
});

test('no _Stop on length or content_filter; _Stop on an unknown finish reason', async () => {
  for (const reason of ['length', 'content_filter'] as const) {
    const h = await harness({ servers: [{ name: 't', tools: { _Stop: objects('x') } }], script: [reply.text('cut', reason)] });
    assert.equal((await h.session.run('go')).reason, reason);
    assert.equal(stopCalls(h), 0);
  }
  const cut = await harness({ servers: [{ name: 't', tools: { _Stop: objects('x') } }], script: [{ toolCalls: [call('t__x', '{"a":')], finishReason: 'length' }] });
  assert.equal((await cut.session.run('go')).reason, 'length');
  assert.ok(isValidHistory(cut.session.state.history), 'cut-off tool calls are answered, not run');
  assert.equal(cut.tools.calls.length, 0);

  const odd = await harness({ servers: [{ name: 't', tools: { _Stop: () => '' } }], script: [reply.text('done', 'eos_token')] });
  assert.equal((await odd.session.run('go')).reason, 'end_turn');
  assert.equal(stopCalls(odd), 1);
});

test('hooks never run on model errors; auth errors end the prompt with the message', async () => {
  const h = await harness({
    servers: [{ name: 't', tools: { _Stop: objects('x') } }],
    script: [new ModelError('auth', 'The API key was rejected (401). Set a valid key.', 401)],
  });
  const outcome = await h.session.run('go');
  assert.deepEqual(outcome, { reason: 'error', message: 'The API key was rejected (401). Set a valid key.', rounds: 1 });
  assert.equal(stopCalls(h), 0);
  assert.deepEqual(h.of('outcome')[0]?.outcome, outcome);
});

test('parallel hooks: one budget unit per round, objections in configuration order, valid pairs', async () => {
  const h = await harness({
    servers: [
      { name: 'alpha', tools: { _Stop: delayed(120, 'alpha objects') } },
      { name: 'beta', tools: { _Stop: delayed(5, 'beta objects') } },
      { name: 'gamma', tools: { _Stop: () => ({ isError: true, text: 'crashed' }) } },
      { name: 'delta', tools: { _Stop: () => '   ' } },
    ],
    script: [reply.text('done'), reply.text('done')],
  });
  const outcome = await h.session.run('go');
  assert.equal(h.session.state.rejectionsUsed, 1);
  assert.deepEqual(h.of('hook_objected').map((e) => [e.server, e.rejectionsUsed]), [['alpha', 1], ['beta', 1]]);
  assert.deepEqual(outcome.unresolved?.objections.map((o) => o.server), ['alpha', 'beta']);
  const sent = h.model.requests[1]?.messages ?? [];
  const tools = sent.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? m.content : ''));
  assert.deepEqual(tools, ['{"hook":"_Stop","server":"alpha","text":"alpha objects"}', '{"hook":"_Stop","server":"beta","text":"beta objects"}']);
  assert.deepEqual(sent.slice(-5).map((m) => m.role), ['assistant', 'assistant', 'tool', 'assistant', 'tool'], 'the end-turn text, then one pair per objection');
  // The gate round, then the verdict after the model declined: the same four answers twice.
  const round = [['alpha', 'objection'], ['beta', 'objection'], ['delta', 'no_objection'], ['gamma', 'error']];
  assert.deepEqual(h.of('hook_finished').map((e) => [e.server, e.result]).sort(), [...round, ...round].sort());
});

test('objections count toward max rounds', async () => {
  const h = await harness({
    servers: [{ name: 't', tools: { _Stop: objects('a', 'b', 'c') } }],
    settings: settings({ maxRounds: 2 }, { repeatedEndTurnStops: false }),
    script: [reply.text('done'), reply.text('done')],
  });
  const outcome = await h.session.run('go');
  assert.equal(outcome.reason, 'max_rounds');
  assert.equal(outcome.rounds, 2);
  assert.equal(h.model.requests.length, 2);
  assert.ok(isValidHistory(h.session.state.history));
});

test('cancel during a hook: outcome cancelled, the hook call aborted, history valid', async () => {
  const controller = new AbortController();
  const h = await harness({ servers: [{ name: 't', tools: { _Stop: hangs } }], script: [reply.text('done'), reply.text('next')] });
  setTimeout(() => controller.abort(), 50);
  const outcome = await h.session.run('go', controller.signal);
  assert.equal(outcome.reason, 'cancelled');
  assert.equal(h.tools.callsTo('_Stop')[0]?.cancelled, true);
  assert.deepEqual(h.of('hook_finished').map((e) => e.result), ['cancelled']);
  assert.ok(isValidHistory(h.session.state.history));
  assert.equal(h.session.state.rejectionsUsed, 0);
});

test('hooks present but not allowlisted are reported once per session', async () => {
  const h = await harness({
    servers: [{ name: 'todo', tools: { _Stop: objects('x'), _PostCompact: () => 'y', add: () => 'ok' } }, { name: 'ok', tools: { _Stop: () => '' } }],
    settings: settings({}, { allowlist: { kind: 'names', names: ['ok'] } }),
    script: [reply.text('a'), reply.text('b')],
  });
  await h.session.run('one');
  await h.session.run('two');
  assert.deepEqual(h.of('hooks_not_enabled'), [{ type: 'hooks_not_enabled', server: 'todo', hooks: ['_Stop', '_PostCompact'] }]);
  assert.deepEqual(h.tools.calls.map((c) => c.server), ['ok', 'ok']);
});
