// docs/hooks.md#which-servers-may-act-as-hooks and docs/hooks.md#the-_stop-gate end to end: parallel hook servers in configuration order for one budget unit, the
// allowlist, the budget (exhausted, disabled, session vs prompt scope), the repeated end-turn rule,
// which finish reasons run the gate, and objections counting toward max rounds.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { objectTimes } from '../../fakes/hookServer';
import { scaleAtLoadNow } from '../../loadScale';
import { openRig, type Rig } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const always = (text: string) => ({ hooks: { _Stop: objectTimes(text) } });

test('several hook servers are called in parallel, objections kept in configuration order, one budget unit', async () => {
  // The slowest answer is the window the four calls must all start in: on a busy machine the last
  // servers read their call seconds after the first, so it is as wide as the load makes it.
  const scale = scaleAtLoadNow();
  const slow = scale(1500);
  rig = await openRig({
    // The first server answers last: order must come from the configuration, not from completion.
    servers: [
      { name: 'alpha', config: { hooks: { _Stop: { kind: 'delay', ms: slow, text: 'alpha objects' } } } },
      { name: 'beta', config: { hooks: { _Stop: { kind: 'delay', ms: slow / 3, text: 'beta objects' } } } },
      { name: 'gamma', config: { hooks: { _Stop: { kind: 'empty' } } } },
      { name: 'delta', config: { hooks: { _Stop: { kind: 'text', text: 'delta objects' } } } },
    ],
    hooks: { timeoutMs: scale(10_000), stopMaxRejections: 1 },
    responses: [fakeReply.text('done?'), fakeReply.toolCalls([{ name: 'gamma__echo', arguments: { text: 'fixing' } }]), fakeReply.text('done now')],
  });
  const outcome = await rig.runtime.session.run('work');
  assert.equal(outcome.reason, 'end_turn');
  const starts = ['alpha', 'beta', 'gamma', 'delta'].map((s) => rig?.calls(s, '_Stop')[0]?.at ?? NaN);
  assert.ok(Math.max(...starts) - Math.min(...starts) < slow, `all four calls started before the slowest could answer: ${starts}`);
  const pairs = rig.messages(1).filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)) as { server: string });
  assert.deepEqual(pairs.map((p) => p.server), ['alpha', 'beta', 'delta']);
  assert.deepEqual(rig.of('hook_objected').map((e) => [e.server, e.rejectionsUsed]), [['alpha', 1], ['beta', 1], ['delta', 1]]);
  assert.deepEqual(rig.of('budget').map((e) => e.used).at(-1), 1);
  assert.equal(rig.runtime.session.state.rejectionsUsed, 1, 'three objections in one round cost one unit');
});

test('the allowlist excludes a server: its _Stop is never called and the user gets a hint', async () => {
  rig = await openRig({
    servers: [{ name: 'allowed', config: always('allowed objects') }, { name: 'other', config: always('other objects') }],
    hooks: { allowlist: { kind: 'names', names: ['allowed'] }, stopMaxRejections: 1 },
    responses: [fakeReply.text('a'), fakeReply.text('b')],
  });
  await rig.runtime.session.run('go');
  assert.equal(rig.calls('allowed', '_Stop').length, 2, 'a gate round, then the verdict after the decline');
  assert.equal(rig.calls('other', '_Stop').length, 0);
  assert.deepEqual(rig.of('hooks_not_enabled').map((e) => e.server), ['other']);
  assert.deepEqual(rig.of('hook_objected').map((e) => e.server), ['allowed']);
});

test('an exhausted budget ends the turn after one final verdict; what still objects is unresolved', async () => {
  rig = await openRig({
    servers: [{ name: 'nag', config: always('not done') }],
    hooks: { stopMaxRejections: 2, repeatedEndTurnStops: false },
    responses: [fakeReply.text('one'), fakeReply.text('two'), fakeReply.text('three')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.deepEqual(outcome.unresolved, { cause: 'budget_exhausted', objections: [{ server: 'nag', text: 'not done' }] });
  const metas = rig.calls('nag', '_Stop').map((c) => (c.meta as Record<string, { final?: boolean }>)['sprout/hook']?.final);
  assert.deepEqual(metas, [undefined, undefined, true], 'two gate rounds, then the verdict');
  assert.equal(rig.fake.chatRequests().length, 3, 'the verdict never continues the turn');
  assert.equal(rig.fake.pending(), 0);
});

test('a final verdict that no longer objects ends the turn clean', async () => {
  rig = await openRig({
    servers: [{ name: 'nag', config: { hooks: { _Stop: objectTimes('not done', 1) } } }],
    hooks: { stopMaxRejections: 1, repeatedEndTurnStops: false },
    responses: [fakeReply.text('one'), fakeReply.text('fixed')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.unresolved, undefined);
  assert.equal(rig.calls('nag', '_Stop').length, 2);
  assert.deepEqual(rig.of('objection_resolved').map((e) => e.resolution), ['complied']);
});

test('stopMaxRejections = 0 never calls _Stop', async () => {
  rig = await openRig({
    servers: [{ name: 'nag', config: always('not done') }],
    hooks: { stopMaxRejections: 0 },
    responses: [fakeReply.text('done')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(rig.calls('nag', '_Stop').length, 0);
  assert.equal(rig.of('hook_called').length, 0);
});

for (const scope of ['session', 'prompt'] as const) {
  test(`budget scope ${scope}: ${scope === 'session' ? 'carries across prompts (a spent budget gets its verdict)' : 'resets at each prompt'}`, async () => {
    rig = await openRig({
      servers: [{ name: 'nag', config: always('more') }],
      hooks: { stopMaxRejections: 1, stopBudgetScope: scope },
      responses: [fakeReply.text('p1 a'), fakeReply.text('p1 b'), fakeReply.text('p2 a'), ...(scope === 'prompt' ? [fakeReply.text('p2 b')] : [])],
    });
    await rig.runtime.session.run('first');
    assert.equal(rig.calls('nag', '_Stop').length, 2, 'a gate round, then the verdict after the decline');
    const second = await rig.runtime.session.run('second');
    assert.equal(second.reason, 'end_turn');
    const meta = rig.calls('nag', '_Stop').map((c) => (c.meta as Record<string, { rejectionsUsed: number; final?: boolean }>)['sprout/hook']);
    assert.deepEqual(
      meta.map((m) => [m?.rejectionsUsed, m?.final ?? false]),
      scope === 'session' ? [[0, false], [1, true], [1, true]] : [[0, false], [1, true], [0, false], [1, true]],
    );
    assert.equal(second.unresolved?.cause, scope === 'session' ? 'budget_exhausted' : 'declined');
    assert.equal(rig.fake.pending(), 0);
  });
}

for (const repeated of [true, false]) {
  test(`repeated end-turn rule ${repeated ? 'on: a second end turn after an objection finishes' : 'off: the gate asks again'}`, async () => {
    rig = await openRig({
      servers: [{ name: 'nag', config: always('keep going') }],
      hooks: { stopMaxRejections: 3, repeatedEndTurnStops: repeated },
      responses: [fakeReply.text('a'), fakeReply.text('b'), ...(repeated ? [] : [fakeReply.text('c'), fakeReply.text('d')])],
    });
    const outcome = await rig.runtime.session.run('go');
    assert.equal(outcome.reason, 'end_turn');
    assert.equal(rig.calls('nag', '_Stop').length, repeated ? 2 : 4, repeated ? 'a gate round and the verdict after the decline' : 'three rounds and the verdict');
    assert.equal(outcome.unresolved?.cause, repeated ? 'declined' : 'budget_exhausted');
    assert.equal(rig.fake.pending(), 0);
  });
}

test('after a decline the final verdict decides: an objection that no longer stands leaves the turn clean', async () => {
  rig = await openRig({
    // A one-time reminder: it objects once, then has nothing more to say.
    servers: [{ name: 'reminder', config: { hooks: { _Stop: objectTimes('remember the changelog', 1) } } }],
    responses: [fakeReply.text('done'), fakeReply.text('noted, done')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved, undefined, 'nothing stands, so no unresolved objection (CLI exit 0)');
  const metas = rig.calls('reminder', '_Stop').map((c) => (c.meta as Record<string, { afterObjection: boolean; final?: boolean }>)['sprout/hook']);
  assert.deepEqual(metas.map((m) => [m?.afterObjection, m?.final ?? false]), [[false, false], [true, true]]);
  assert.deepEqual(rig.of('objection_resolved').map((e) => e.resolution), ['declined'], 'the model still did not act on it');
  assert.equal(rig.fake.chatRequests().length, 2, 'the verdict never continues the turn');
});

test('after a decline an objection that still stands is the unresolved one, with the verdict\'s words', async () => {
  rig = await openRig({
    servers: [{ name: 'tests', config: { hooks: { _Stop: { kind: 'ifMeta', key: 'final', value: true, then: { kind: 'text', text: '1 test fails' }, else: { kind: 'text', text: '2 tests fail' } } } } }],
    responses: [fakeReply.text('done'), fakeReply.text('I disagree')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.deepEqual(outcome.unresolved, { cause: 'declined', objections: [{ server: 'tests', text: '1 test fails' }] });
  assert.equal(rig.fake.pending(), 0);
});

test('no _Stop on length; _Stop on an unknown finish reason', async () => {
  rig = await openRig({
    servers: [{ name: 'nag', config: { hooks: { _Stop: { kind: 'empty' } } } }],
    responses: [fakeReply.text('cut', { finishReason: 'length' }), fakeReply.text('odd', { finishReason: 'something_new' })],
  });
  const cut = await rig.runtime.session.run('first');
  assert.equal(cut.reason, 'length');
  assert.equal(rig.calls('nag', '_Stop').length, 0);
  const odd = await rig.runtime.session.run('second');
  assert.equal(odd.reason, 'end_turn');
  assert.equal(rig.calls('nag', '_Stop').length, 1);
});

test('objections count toward max rounds; the cap reached with an objection standing reports it unresolved', async () => {
  rig = await openRig({
    servers: [{ name: 'nag', config: always('again') }],
    settings: { maxRounds: 2 },
    hooks: { stopMaxRejections: 10, repeatedEndTurnStops: false },
    responses: [fakeReply.text('r1'), fakeReply.text('r2'), fakeReply.text('never sent')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'max_rounds');
  assert.equal(outcome.rounds, 2);
  assert.equal(rig.fake.chatRequests().length, 2);
  assert.deepEqual(outcome.unresolved, { cause: 'max_rounds', objections: [{ server: 'nag', text: 'again' }] });
  assert.deepEqual(rig.of('objection_resolved').map((e) => e.resolution), ['overridden']);
});

test('the cap reached while the model works (tool calls after an objection) leaves nothing unresolved', async () => {
  rig = await openRig({
    servers: [{ name: 'nag', config: always('again') }],
    settings: { maxRounds: 2 },
    hooks: { stopMaxRejections: 10 },
    responses: [fakeReply.text('r1'), fakeReply.toolCalls([{ name: 'nag__echo', arguments: { text: 'working' } }]), fakeReply.text('never sent')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'max_rounds');
  assert.equal(outcome.unresolved, undefined);
  assert.deepEqual(rig.of('objection_resolved').map((e) => e.resolution), ['complied']);
});
