/**
 * The request side of real servers, end to end (docs/model-servers.md): the fake plays Mistral,
 * DeepSeek or Gemini with their own rejection rules, and a turn (tool round, `_Stop` objecting once,
 * the model acting on it) must go through. Forced by the compatibility setting, no request is ever
 * rejected; on `auto` at an unknown host the client learns each rule from the one rejection (or the
 * reply) that names it and never repeats it for that endpoint.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { JsonlTranscriptStore } from '../../../src/runtime/jsonlTranscriptStore';
import { fakeReply, openAiErrorBody, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { objectTimes } from '../../fakes/hookServer';
import { openRig, type Rig } from '../loop/loopHarness';
import { checkTurn, expectRejections, openTurn, OBJECTION, reasoningText, TWO_ECHOES, wireIds } from './serverHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
/** Mistral makes its own 9-character ids: the echoes unscripted. */
const mistralRound = () => fakeReply.toolCalls(TWO_ECHOES.map(({ name, arguments: a }) => ({ name, arguments: a })));

function hookCalls(rig: Rig) {
  return rig.chatBodies().flatMap((b) => b.messages.flatMap((m) => m.tool_calls ?? [])).filter((c) => c.function.name === 'tools___Stop');
}

test('Mistral, forced: no stream_options, every tool-call id 9 letters and digits (hook ids too), nothing rejected', async () => {
  rig = await openTurn({ fake: { provider: 'mistral' }, model: { compatibility: 'mistral' }, toolRounds: [mistralRound()] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  assert.ok(rig.chatBodies().every((b) => !('stream_options' in b)));
  const ids = wireIds(rig);
  assert.ok(ids.length >= 6 && ids.every((id) => MISTRAL_ID.test(id)), ids.join(', '));
  assert.ok(hookCalls(rig).length > 0);
  // The history keeps its own ids: the synthetic hook id is mapped only on the wire.
  const history = rig.runtime.session.state.history.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
  assert.ok(history.some((c) => c.id.startsWith('sprout_hook__Stop_tools_')));
  assert.ok(rig.of('usage').every((e) => e.usage.estimated === undefined), 'Mistral sends usage without being asked');
  assert.equal(rig.of('retry').length, 0);
});

test('Mistral at an unknown host: the stream_options and id rules are learned from its rejections, once each', async () => {
  rig = await openTurn({ fake: { provider: 'mistral' }, toolRounds: [mistralRound()], after: [fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'again' } }]), fakeReply.text('ok')] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 6 });
  expectRejections(rig, [/stream_options: Extra inputs are not permitted/, /Tool call id was sprout_hook__Stop_tools_\d+ but must be a-z, A-Z, 0-9, with a length of 9/]);
  assert.equal(rig.of('retry').length, 0, 'a changed shape is not a blind retry');
  const adapted = rig.of('model_adapted');
  assert.deepEqual(adapted.map((e) => e.learnedFrom), ['rejection', 'rejection']);
  assert.match(adapted[1]?.change ?? '', /9 letters and digits \(Mistral\)/);
  assert.match(adapted[1]?.said ?? '', /Tool call id was sprout_hook__Stop_tools_\d+ but must be a-z/, "the provider's own words");
  // A second prompt: nothing is rejected again (hence every request from here on is valid at close).
  const before = rig.fake.requests.length;
  assert.equal((await rig.runtime.session.run('once more')).reason, 'end_turn');
  assert.ok(rig.fake.requests.slice(before).every((r) => r.valid));
  assert.equal(rig.runtime.model.rulesFor('fake-model')?.idPolicy, 'mistral');
});

const thinkingRounds = (extra = {}): FakeResponse[] => [fakeReply.toolCalls(TWO_ECHOES, { reasoning: 'Echo both.', ...extra })];

test('DeepSeek, forced: reasoning_content goes back on every assistant message (empty on the hook pair), nothing rejected', async () => {
  rig = await openTurn({ fake: { provider: 'deepseek' }, model: { compatibility: 'deepseek' }, toolRounds: thinkingRounds(), textQuirks: { reasoning: 'Now answer.' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  const last = rig.messages(3).filter((m) => m.role === 'assistant');
  assert.deepEqual(last.map((m) => m.reasoning_content), ['Echo both.', 'Now answer.', '', 'Now answer.']);
  assert.equal(reasoningText(rig.events), `Echo both.${'Now answer.'.repeat(3)}`);
  assert.equal(rig.of('retry').length, 0);
});

test('DeepSeek: the reasoning kept on the messages survives the transcript and goes back after a resume', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-deepseek-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'chat.jsonl');
  const deepseek = { fake: { provider: 'deepseek' as const }, model: { compatibility: 'deepseek' as const } };
  rig = await openTurn({ ...deepseek, toolRounds: thinkingRounds(), textQuirks: { reasoning: 'Now answer.' }, transcript: new JsonlTranscriptStore(file) });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  await rig.close();
  rig = await openRig({ ...deepseek, servers: [{ name: 'tools' }], transcript: new JsonlTranscriptStore(file), responses: [fakeReply.text('Resumed.')] });
  assert.equal((await rig.runtime.session.run('and now?')).reason, 'end_turn');
  const sent = rig.messages(0).filter((m) => m.role === 'assistant').map((m) => m.reasoning_content);
  assert.deepEqual(sent, ['Echo both.', 'Now answer.', '', 'Now answer.', 'Now answer.']);
});

test('DeepSeek at an unknown host: a reply with reasoning_content and tool calls teaches the rule, nothing rejected', async () => {
  rig = await openTurn({ fake: { provider: 'deepseek' }, toolRounds: thinkingRounds(), textQuirks: { reasoning: 'Now answer.' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  assert.equal(rig.runtime.model.rulesFor('fake-model')?.echoReasoning, 'reasoning_content');
  assert.equal(rig.of('retry').length, 0);
});

test('DeepSeek behind a setting that says openai: the "missing reasoning_content" rejection teaches the rule, once', async () => {
  rig = await openTurn({ fake: { provider: 'deepseek' }, model: { compatibility: 'openai' }, toolRounds: thinkingRounds(), textQuirks: { reasoning: 'Now answer.' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  expectRejections(rig, [/Missing `reasoning_content` field in the assistant message at message index 2/]);
  assert.match(rig.of('model_adapted')[0]?.change ?? '', /reasoning_content back with tool rounds \(DeepSeek and Kimi thinking modes\)/);
});

test('Gemini, forced: each signed call goes back with its thought signature, the hook call with the documented skip value', async () => {
  rig = await openTurn({ fake: { provider: 'gemini' }, model: { compatibility: 'gemini' }, toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { finishReason: 'stop', wholeToolCalls: true, toolCallIndex: 'omitted' })] });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  const calls = rig.messages(3).flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(calls.map((c) => c.extra_content === undefined ? null : (c.extra_content as { google: { thought_signature: string } }).google.thought_signature), [
    'sig_call_first_1',
    null,
    'skip_thought_signature_validator',
    'sig_call_fake_1_2',
  ]);
  assert.equal(rig.of('retry').length, 0);
});

test('Gemini at an unknown host: a signed call in a reply teaches the rule, nothing rejected; OpenAI never gets extra_content', async () => {
  rig = await openTurn({ fake: { provider: 'gemini' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  assert.equal(rig.runtime.model.rulesFor('fake-model')?.echoProviderData, true);
  await rig.close();
  rig = await openTurn({ fake: { provider: 'openai' }, model: { compatibility: 'openai' } });
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
  assert.equal(JSON.stringify(rig.chatBodies()).includes('extra_content'), false);
});

test('OpenAI: a hook id longer than 40 characters (a long server name) is shortened on the wire, the history keeps it', async () => {
  const server = 'a-hook-server-with-a-rather-long-name';
  rig = await openRig({
    servers: [{ name: server, config: { hooks: { _Stop: objectTimes(OBJECTION, 1) } } }],
    responses: [fakeReply.text('done'), fakeReply.toolCalls([{ name: `${server}__echo`, arguments: { text: 'check' } }]), fakeReply.text('checked')],
  });
  assert.equal((await rig.runtime.session.run('go')).reason, 'end_turn');
  const ids = wireIds(rig);
  assert.ok(ids.every((id) => id.length <= 40), ids.join(', '));
  const history = rig.runtime.session.state.history.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
  assert.ok(history.some((c) => c.id === `sprout_hook__Stop_${server}_${c.id.split('_').at(-1)}` && c.id.length > 40));
});

test('an older Azure api-version that refuses stream_options: retried once without it, remembered, usage estimated', async () => {
  const queue: FakeResponse[] = [fakeReply.toolCalls(TWO_ECHOES), fakeReply.text('All done.'), fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'check' } }]), fakeReply.text('Checked again: all done.'), fakeReply.text('second prompt')];
  rig = await openTurn({});
  rig.fake.setResponder((request) =>
    (request.body as { stream_options?: unknown }).stream_options !== undefined
      ? fakeReply.error(400, '', { body: openAiErrorBody('Unrecognized request argument supplied: stream_options', 'invalid_request_error') })
      : queue.shift(),
  );
  checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  assert.equal(rig.fake.chatRequests().filter((r) => (r.body as { stream_options?: unknown }).stream_options !== undefined).length, 1);
  assert.match(rig.of('model_adapted')[0]?.change ?? '', /without stream_options \(usage is estimated\)/);
  assert.ok(rig.of('usage').every((e) => e.usage.estimated === true));
  assert.equal((await rig.runtime.session.run('again')).reason, 'end_turn');
  assert.equal(rig.of('model_adapted').length, 1, 'remembered for the endpoint');
});
