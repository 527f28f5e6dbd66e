/**
 * One window's model client serves every chat and every `sprout` task at once. What it keeps from a
 * conversation's history (the wire cache and the check that a reply's tool-call ids are new in that
 * history) must be that conversation's own: a chat and a task streaming at the same time against a
 * server that reuses its ids (`call_0` every round, as local servers do) must never put a duplicate
 * tool-call id into either history. The fake holds the chat's second round until the task's first
 * request has arrived (an event, not a delay), which is exactly when a shared cache would hold the
 * task's history instead of the chat's.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { ChatMessage } from '../../../src/agent/messages';
import type { Outcome } from '../../../src/agent/events';
import type { AgentSession } from '../../../src/agent/session';
import { openSession } from '../../../src/runtime/compose';
import { fakeReply, type FakeRequestRecord, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { openRig, rigSettings, type ChatBody, type Rig } from '../loop/loopHarness';
import { SERVER_START_MARGIN } from './serverHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const firstPrompt = (record: FakeRequestRecord): string => String((record.body as ChatBody).messages.find((m) => m.role === 'user')?.content ?? '');
const roundOf = (record: FakeRequestRecord): number => (record.body as ChatBody).messages.filter((m) => m.role === 'assistant').length + 1;
const echo = (text: string): FakeResponse => fakeReply.toolCalls([{ id: 'call_0', name: 'tools__echo', arguments: { text } }]);

function callIds(history: readonly ChatMessage[]): string[] {
  return history.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
}

function assertDistinct(history: readonly ChatMessage[], who: string): void {
  const ids = callIds(history);
  assert.equal(new Set(ids).size, ids.length, `${who}: tool-call ids are distinct in the history: ${ids.join(', ')}`);
}

test('a chat and a task streaming at once through one client never put a duplicate tool-call id into a history', async () => {
  let taskArrived!: () => void;
  const taskHere = new Promise<void>((resolve) => (taskArrived = resolve));
  let chatHeld!: () => void;
  const chatWaiting = new Promise<void>((resolve) => (chatHeld = resolve));
  rig = await openRig({ servers: [{ name: 'tools' }], settings: SERVER_START_MARGIN });
  rig.fake.setResponder(async (record) => {
    const round = roundOf(record);
    if (firstPrompt(record).startsWith('task')) {
      taskArrived();
      return round === 1 ? echo('task') : fakeReply.text('Task done.');
    }
    if (round === 1) return echo('chat one');
    if (round === 2) {
      // The chat's history (with call_0) was just mapped; the task's request is mapped next.
      chatHeld();
      await taskHere;
      return echo('chat two');
    }
    return fakeReply.text('Chat done.');
  });
  const chat = rig.runtime.session;
  const task: AgentSession = (await openSession({ sessionId: 'task', settings: rigSettings(SERVER_START_MARGIN), model: rig.runtime.model, tools: rig.runtime.hub })).session;
  try {
    const chatRun = chat.run('chat: echo twice');
    await chatWaiting;
    const taskRun = task.run('task: echo once');
    const [chatOutcome, taskOutcome]: [Outcome, Outcome] = await Promise.all([chatRun, taskRun]);
    assert.equal(chatOutcome.reason, 'end_turn', chatOutcome.message);
    assert.equal(taskOutcome.reason, 'end_turn', taskOutcome.message);
    assertDistinct(chat.state.history, 'the chat');
    assertDistinct(task.state.history, 'the task');
    assert.deepEqual(
      rig.calls('tools', 'echo').map((c) => (c.arguments as { text: string }).text).sort(),
      ['chat one', 'chat two', 'task'],
      'every call ran once',
    );
  } finally {
    await task.end('exit');
  }
});
