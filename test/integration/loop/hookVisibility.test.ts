// docs/hooks.md#discovery and docs/hooks.md#how-hook-text-reaches-the-model end to end: hooks never reach the model's tool list, a direct call to a hook is refused
// without reaching the server, hook input is exactly {} with the context in _meta, and an objection
// becomes the exact synthetic pair whose JSON survives hostile text.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { HOSTILE_TEXT } from '../../fakes/hookServer';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { openRig, type Rig } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const toolNames = (r: Rig, n: number): string[] => (r.chatBodies()[n]?.tools ?? []).map((t) => t.function.name);

for (const enabled of [true, false]) {
  test(`hooks are never in the tool list sent to the model (hooks ${enabled ? 'enabled' : 'disabled'})`, async () => {
    rig = await openRig({
      servers: [{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' }, _PostCompact: { kind: 'empty' }, _Custom: { kind: 'empty' } } } }],
      hooks: enabled ? {} : { allowlist: { kind: 'names', names: [] } },
      responses: [fakeReply.text('done')],
    });
    const outcome = await rig.runtime.session.run('hello');
    assert.equal(outcome.reason, 'end_turn');
    assert.deepEqual(toolNames(rig, 0), ['gate__echo']);
    assert.equal(rig.calls('gate', '_Stop').length, enabled ? 1 : 0);
    if (!enabled) assert.ok(rig.of('hooks_not_enabled').some((e) => e.server === 'gate'), 'a visible hint names the server with unused hooks');
  });
}

test('a direct call to a hook (or an unknown tool) gets "unknown tool" and never reaches the server', async () => {
  rig = await openRig({
    servers: [{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' } } } }],
    responses: [
      fakeReply.toolCalls([
        { id: 'c1', name: 'gate___Stop', arguments: {} },
        { id: 'c2', name: 'gate__nope', arguments: {} },
        { id: 'c3', name: 'gate__echo', arguments: { text: 'hi' } },
      ]),
      fakeReply.text('done'),
    ],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const tools = rig.messages(1).filter((m) => m.role === 'tool');
  assert.deepEqual(
    tools.map((m) => [m.tool_call_id, m.content]),
    [
      ['c1', 'unknown tool: gate___Stop'],
      ['c2', 'unknown tool: gate__nope'],
      ['c3', 'hi'],
    ],
  );
  // The only _Stop call the server saw is the gate's own, after the final reply.
  assert.equal(rig.calls('gate', '_Stop').length, 1);
  assert.equal(rig.calls('gate', 'nope').length, 0);
  assert.equal(rig.calls('gate', 'echo').length, 1);
});

test('an objection becomes the exact synthetic pair; hostile text stays inside the JSON; context goes in _meta', async () => {
  rig = await openRig({
    servers: [{ name: 'gate', config: { hooks: { _Stop: { kind: 'hostile' } } } }],
    hooks: { stopMaxRejections: 1 },
    responses: [fakeReply.text('first try'), fakeReply.text('second try')],
    sessionId: 'envelope-session',
  });
  const outcome = await rig.runtime.session.run('do it');
  assert.equal(outcome.reason, 'end_turn');
  // The repeated end-turn rule is checked before the budget: the model ended its turn again.
  assert.equal(outcome.unresolved?.cause, 'declined');
  const second = rig.messages(1);
  assert.deepEqual(second.slice(0, 2), [
    { role: 'user', content: 'do it' },
    { role: 'assistant', content: 'first try' },
  ]);
  const call = second[2];
  assert.equal(call?.role, 'assistant');
  assert.equal(call?.tool_calls?.length, 1);
  const [tc] = call?.tool_calls ?? [];
  assert.match(tc?.id ?? '', /^sprout_hook__Stop_gate_\d+$/);
  assert.deepEqual({ type: tc?.type, name: tc?.function.name, arguments: tc?.function.arguments }, { type: 'function', name: 'gate___Stop', arguments: '{}' });
  const result = second[3];
  assert.equal(result?.role, 'tool');
  assert.equal(result?.tool_call_id, tc?.id);
  assert.equal(result?.content, JSON.stringify({ hook: '_Stop', server: 'gate', text: HOSTILE_TEXT.trim() }));
  assert.deepEqual(JSON.parse(String(result?.content)), { hook: '_Stop', server: 'gate', text: HOSTILE_TEXT.trim() });
  assert.equal(second.length, 4, 'nothing else was added around the pair');

  const [stopCall] = rig.calls('gate', '_Stop');
  assert.deepEqual(stopCall?.arguments, {});
  assert.deepEqual((stopCall?.meta as Record<string, unknown>)['sprout/hook'], {
    event: '_Stop',
    sessionId: 'envelope-session',
    rejectionsUsed: 0,
    rejectionBudget: 1,
    afterObjection: false,
    toolCalls: [],
    lastAssistantText: 'first try',
    prompt: 'do it',
    mode: 'agent',
  });
});
