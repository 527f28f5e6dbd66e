// docs/hooks.md#compaction end to end: when the reported usage passes the threshold, the loop summarises with a model
// call without tools, resets, injects _PostCompact as a synthetic pair and re-seats the prompt; when
// the summary fails it falls back to dropping old turns and does not run _PostCompact. Either way no
// request sent is longer than the window.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { openRig, type Rig } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const small = { contextWindowTokens: 1000, compactThreshold: 0.5 };
const big = { usage: { prompt_tokens: 900, completion_tokens: 10 } };

test('_PostCompact output is injected after compaction as a synthetic pair', async () => {
  rig = await openRig({
    servers: [
      { name: 'todo', config: { hooks: { _PostCompact: { kind: 'text', text: 'open items: write tests' }, _Stop: { kind: 'empty' } } } },
      { name: 'quiet', config: { hooks: { _PostCompact: { kind: 'whitespace' } } } },
    ],
    settings: small,
    responses: [fakeReply.text('first answer', big), fakeReply.text('Task: first. Done: answered. Next: second.'), fakeReply.text('second answer')],
  });
  await rig.runtime.session.run('first');
  const outcome = await rig.runtime.session.run('second');
  assert.equal(outcome.reason, 'end_turn');
  const summary = rig.chatBodies()[1];
  assert.equal(summary?.tools, undefined, 'the summarising call offers no tools');
  const fresh = rig.messages(2);
  assert.deepEqual(fresh.map((m) => m.role), ['user', 'assistant', 'tool', 'user']);
  assert.match(String(fresh[0]?.content), /Task: first\. Done: answered\. Next: second\./);
  assert.equal(fresh[1]?.tool_calls?.[0]?.function.name, 'todo___PostCompact');
  assert.equal(fresh[2]?.content, '{"hook":"_PostCompact","server":"todo","text":"open items: write tests"}');
  assert.deepEqual(fresh[3], { role: 'user', content: 'second' });
  assert.equal(rig.calls('todo', '_PostCompact').length, 1);
  assert.deepEqual(rig.calls('todo', '_PostCompact')[0]?.arguments, {});
  assert.equal(rig.calls('quiet', '_PostCompact').length, 1, 'called, but whitespace injects nothing');
  assert.deepEqual(rig.of('compaction')[0]?.injected, [{ server: 'todo', text: 'open items: write tests' }]);
});

test('when the summary call fails, old turns are dropped and _PostCompact is not run', async () => {
  rig = await openRig({
    servers: [{ name: 'todo', config: { hooks: { _PostCompact: { kind: 'text', text: 'never injected' } } } }],
    settings: small,
    responses: [fakeReply.text('first answer', big), fakeReply.error(400, 'the summariser refused'), fakeReply.text('second answer')],
  });
  await rig.runtime.session.run('first');
  const outcome = await rig.runtime.session.run('second');
  assert.equal(outcome.reason, 'end_turn');
  const [compaction] = rig.of('compaction');
  assert.equal(compaction?.fallback, true);
  assert.equal(compaction?.summary, null);
  assert.deepEqual(compaction?.injected, []);
  assert.equal(rig.calls('todo', '_PostCompact').length, 0);
  const last = rig.messages(2);
  assert.ok(!JSON.stringify(last).includes('never injected'));
  assert.deepEqual(last.at(-1), { role: 'user', content: 'second' });
});

for (const summary of ['works', 'fails'] as const) {
  test(`a tool result bigger than the whole window: no request is over-long (summary ${summary})`, async () => {
    const window = 1000;
    rig = await openRig({
      servers: [{ name: 'work', config: { extraTools: [{ name: 'big', behaviour: { kind: 'bigText', bytes: 20_000 } }] } }],
      settings: { ...small, contextWindowTokens: window },
      responses: [
        fakeReply.toolCalls([{ name: 'work__big', arguments: {} }], { usage: { prompt_tokens: 100, completion_tokens: 5 } }),
        summary === 'works' ? fakeReply.text('Task: first. Done: read big. Next: answer.') : fakeReply.error(500, 'summariser down'),
        // The adapter retries a 500 twice in this rig before the summary counts as failed.
        ...(summary === 'works' ? [] : [fakeReply.error(500, 'still down'), fakeReply.error(500, 'still down')]),
        fakeReply.text('answered'),
      ],
    });
    const outcome = await rig.runtime.session.run('first');
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    assert.equal(rig.of('compaction')[0]?.fallback, summary === 'fails');
    // Four characters a token is the estimate the agent uses; the wire JSON overhead is counted too.
    for (const [i, body] of rig.chatBodies().entries()) {
      const size = JSON.stringify(body.messages).length + JSON.stringify(body.tools ?? []).length;
      assert.ok(size <= window * 4, `request ${i} is ${size} characters, over a ${window}-token window`);
    }
    assert.deepEqual(rig.messages(rig.chatBodies().length - 1).at(-1), { role: 'user', content: 'first' }, 'the prompt itself survived');
  });
}
