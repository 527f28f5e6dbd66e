// Tool approval (the extension's ApprovalToolHost) through the real loop, a real MCP child process and
// the fake OpenAI server: the time a user takes to decide is not tool time (the tool timeout starts
// once the call is approved), the timeout still holds after approval, a denial never reaches the
// server, a _PreToolUse denial is never put to the user, cancelling while a question is open answers
// the call and leaves a valid history, and each question and answer is an event in the session's stream.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { AgentSession } from '../../../src/agent/session';
import type { AgentEvent } from '../../../src/agent/events';
import type { AgentSettings } from '../../../src/agent/settings';
import { nodeClock } from '../../../src/platform/nodeClock';
import { ApprovalToolHost, DENIED_RESULT, type ApprovalAnswer, type ApprovalRequest } from '../../../src/extension/approvals/approvalToolHost';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { scaleAtLoadNow } from '../../loadScale';
import type { HookBehaviour } from '../../fakes/hookServer';
import { openRig, rigSettings, waitUntil, type Rig } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

interface Approver {
  asked: ApprovalRequest[];
  /** Answers the oldest open question. */
  answer(answer: ApprovalAnswer): void;
}

/** A session over the rig's hub and model whose tool calls go through approval answered by the test. */
async function approvingSession(r: Rig, settings: Partial<AgentSettings>): Promise<{ session: AgentSession; approver: Approver; events: AgentEvent[] }> {
  const asked: ApprovalRequest[] = [];
  const open: Array<(answer: ApprovalAnswer) => void> = [];
  const tools = new ApprovalToolHost(r.runtime.hub, {
    autoApproved: () => false,
    protectedTarget: () => undefined,
    ask: (request) => {
      asked.push(request);
      return new Promise((resolve) => {
        open.push(resolve);
        request.signal.addEventListener('abort', () => resolve('deny'), { once: true });
      });
    },
    allowInWorkspace: async () => undefined,
  });
  const session = await AgentSession.open({ sessionId: 'approval', settings: rigSettings(settings), model: r.runtime.model, tools, clock: nodeClock });
  const events: AgentEvent[] = [];
  session.subscribe((event) => events.push(event));
  return { session, events, approver: { asked, answer: (answer) => open.shift()?.(answer) } };
}

const toolResults = (r: Rig, request: number): unknown[] => r.messages(request).filter((m) => m.role === 'tool').map((m) => m.content);

test('an approval that takes longer than the tool timeout does not time the call out', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: { extraTools: [{ name: 'slow', behaviour: { kind: 'delay', ms: 100, text: 'slow result' } }] } }],
    responses: [fakeReply.toolCalls([{ name: 'work__slow', arguments: {} }]), fakeReply.text('done')],
  });
  // The tool answers after 100 ms; its timeout is a generous margin over that at this moment's load,
  // and the user's reading time is longer than the timeout.
  const toolTimeoutMs = scaleAtLoadNow()(1500);
  const { session, approver } = await approvingSession(rig, { toolTimeoutMs });
  const run = session.run('go');
  await waitUntil(() => approver.asked.length === 1, 'the approval question');
  await new Promise((resolve) => setTimeout(resolve, toolTimeoutMs * 1.5));
  assert.equal(rig.calls('work', 'slow').length, 0, 'nothing reaches the server before approval');
  approver.answer('once');
  const outcome = await run;
  assert.equal(outcome.reason, 'end_turn');
  assert.deepEqual(toolResults(rig, 1), ['slow result']);
  assert.equal(rig.calls('work', 'slow').length, 1, 'asked once, called once');
  session.dispose();
});

test('after approval the tool timeout still holds; a denial never reaches the server', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: { extraTools: [{ name: 'stuck', behaviour: { kind: 'hang' } }] } }],
    responses: [fakeReply.toolCalls([{ name: 'work__stuck', arguments: {} }, { name: 'work__echo', arguments: { text: 'no' } }]), fakeReply.text('done')],
  });
  // One call at a time, so the questions come one after the other.
  const { session, approver, events } = await approvingSession(rig, { toolTimeoutMs: 300, maxParallelTools: 1 });
  const run = session.run('go');
  await waitUntil(() => approver.asked.length === 1, 'the first question');
  approver.answer('once');
  await waitUntil(() => approver.asked.length === 2, 'the second question');
  approver.answer('deny');
  assert.equal((await run).reason, 'end_turn');
  assert.deepEqual(toolResults(rig, 1), ['tool work__stuck timed out after 300 ms and was cancelled', DENIED_RESULT]);
  assert.equal(rig.calls('work', 'echo').length, 0);
  // The questions and answers are in the session's event stream (so in its transcript) like any step.
  const approvals = events.flatMap((e) => (e.type === 'approval_requested' ? [`${e.name}?`] : e.type === 'approval_resolved' ? [`${e.name}: ${e.answer}`] : []));
  assert.deepEqual(approvals, ['work__stuck?', 'work__stuck: once', 'work__echo?', 'work__echo: deny']);
  session.dispose();
});

test('cancel while a question is open: the call is answered as cancelled and the next prompt is accepted', async () => {
  rig = await openRig({
    servers: [{ name: 'work' }],
    responses: [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'x' } }]), fakeReply.text('fresh start')],
  });
  const { session, approver, events } = await approvingSession(rig, { toolTimeoutMs: 300 });
  const controller = new AbortController();
  const run = session.run('go', controller.signal);
  await waitUntil(() => approver.asked.length === 1, 'the approval question');
  controller.abort();
  assert.equal((await run).reason, 'cancelled');
  const finished = events.filter((e) => e.type === 'tool_finished');
  assert.deepEqual(finished.map((e) => e.type === 'tool_finished' && e.text), ['cancelled']);
  assert.equal((await session.run('again')).reason, 'end_turn');
  assert.equal(rig.calls('work', 'echo').length, 0);
  session.dispose();
});

test('a _PreToolUse denial comes before approval: the user is never asked and the tool never runs; an allowed call is asked', async () => {
  const denyRm: HookBehaviour = { kind: 'ifMeta', key: 'arguments', value: { text: 'rm -rf /' }, then: { kind: 'text', text: 'guard: destructive command' } };
  rig = await openRig({
    servers: [{ name: 'work' }, { name: 'guard', config: { hooks: { _PreToolUse: denyRm } } }],
    responses: [
      fakeReply.toolCalls([{ id: 'bad', name: 'work__echo', arguments: { text: 'rm -rf /' } }, { id: 'good', name: 'work__echo', arguments: { text: 'ls' } }]),
      fakeReply.text('done'),
    ],
  });
  const { session, approver, events } = await approvingSession(rig, { maxParallelTools: 1 });
  const run = session.run('go');
  await waitUntil(() => approver.asked.length === 1, 'the question for the allowed call');
  approver.answer('once');
  assert.equal((await run).reason, 'end_turn');
  assert.equal(approver.asked.length, 1, 'only the allowed call was put to the user');
  assert.deepEqual(rig.calls('work', 'echo').map((c) => c.arguments), [{ text: 'ls' }]);
  assert.deepEqual(toolResults(rig, 1), [JSON.stringify({ hook: '_PreToolUse', server: 'guard', text: 'guard: destructive command' }), 'ls']);
  assert.deepEqual(events.flatMap((e) => (e.type === 'tool_denied' ? [e.callId] : [])), ['bad']);
  session.dispose();
});
