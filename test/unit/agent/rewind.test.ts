// The rewind rule (src/agent/rewind.ts): which records stay after a rewind, which calls' files go back,
// each turn's _Stop verdict and where "Back to last green" goes. Pure: events in, decisions out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent, OutcomeReason, TranscriptRecord } from '../../../src/agent/events';
import { activeRecords, lastGreen, rewindPlan, StopChecksFold, todoListAt, turnsOf } from '../../../src/agent/rewind';
import { approvedPlanPrompt } from '../../../src/agent/planSteps';
import { replayEvents } from '../../../src/agent/replayState';

type StopAnswer = 'no_objection' | 'objection' | 'timeout';

/** One turn as the loop writes it: the prompt, its message, a write, the `_Stop` answers, the outcome. */
function turn(text: string, callId: string, stops: Record<string, StopAnswer>, reason: OutcomeReason = 'end_turn'): AgentEvent[] {
  return [
    { type: 'prompt_started', text },
    { type: 'message', message: { role: 'user', content: text } },
    { type: 'tool_started', callId, name: 'workspace__write_file', arguments: '{}' },
    { type: 'tool_finished', callId, name: 'workspace__write_file', isError: false, text: 'ok', durationMs: 1 },
    ...Object.entries(stops).map(([server, result]): AgentEvent => ({ type: 'hook_finished', server, hook: '_Stop', result, text: result === 'objection' ? 'no' : '', durationMs: 1 })),
    { type: 'message', message: { role: 'assistant', content: `done ${text}` } },
    { type: 'outcome', outcome: { reason, rounds: 1 } },
  ];
}

const records = (events: AgentEvent[]): TranscriptRecord[] => events.map((event, at) => ({ at, event }));
const prompts = (rs: TranscriptRecord[]): string[] => rs.flatMap((r) => (r.event.type === 'prompt_started' ? [r.event.text] : []));

test('a rewound record cuts its message and everything after it from the active branch, and is itself dropped', () => {
  const events: AgentEvent[] = [{ type: 'session_started', sessionId: 's', resumed: false }, ...turn('one', 'c1', {}), ...turn('two', 'c2', {}), ...turn('three', 'c3', {})];
  const rewound = activeRecords(records([...events, { type: 'rewound', prompt: 2, text: 'two' }, ...turn('two again', 'c4', {})]));
  assert.deepEqual(prompts(rewound), ['one', 'two again']);
  assert.equal(rewound.some((r) => r.event.type === 'rewound'), false);
  assert.deepEqual(
    replayEvents(rewound.map((r) => r.event)).history.map((m) => m.content),
    ['one', 'done one', 'two again', 'done two again'],
    'the history the session resumes has no message of the cut branch',
  );
});

test('rewinds count messages in the active branch: a second rewind after the first, and one to the first message', () => {
  const first = [...turn('one', 'c1', {}), ...turn('two', 'c2', {}), { type: 'rewound', prompt: 2, text: 'two' } as AgentEvent, ...turn('b', 'c3', {}), ...turn('c', 'c4', {})];
  assert.deepEqual(prompts(activeRecords(records([...first, { type: 'rewound', prompt: 3, text: 'c' }]))), ['one', 'b']);
  assert.deepEqual(prompts(activeRecords(records([...first, { type: 'rewound', prompt: 1, text: 'one' }]))), []);
  // A marker naming a message the branch lacks (a hand-edited file) cuts nothing.
  assert.deepEqual(prompts(activeRecords(records([...first, { type: 'rewound', prompt: 9, text: '?' }]))), ['one', 'b', 'c']);
});

test('the plan: what stays, the text back to the composer, the calls whose files go back; a wrong number says why', () => {
  const events = [...turn('one', 'c1', {}), ...turn('two', 'c2', {}), ...turn('three', 'c3', {})];
  const plan = rewindPlan(events, 2);
  assert.ok(typeof plan !== 'string');
  assert.equal(plan.text, 'two');
  assert.equal(plan.keep, events.findIndex((e) => e.type === 'prompt_started' && e.text === 'two'));
  assert.deepEqual(plan.calls.map((c) => c.callId), ['c2', 'c3']);
  assert.equal(rewindPlan(events, 4), 'there is no user message 4: this conversation has 3 (1 to 3)');
  assert.equal(rewindPlan(events, 0), 'there is no user message 0: this conversation has 3 (1 to 3)');
  assert.equal(rewindPlan([], 1), 'this conversation has no user messages to rewind to');
});

test("each turn's _Stop verdict: all passed, an objection, a timeout, none asked, an unresolved objection, a stopped turn", () => {
  const events = [
    ...turn('green', 'c1', { tests: 'no_objection', editor: 'no_objection' }),
    ...turn('red', 'c2', { tests: 'objection', editor: 'no_objection' }),
    ...turn('slow', 'c3', { tests: 'timeout' }),
    ...turn('quiet', 'c4', {}),
    ...turn('stopped', 'c5', { tests: 'no_objection' }, 'cancelled'),
  ];
  const turns = turnsOf(events);
  assert.deepEqual(turns.map((t) => t.verdict), ['passed', 'objected', 'objected', 'none', 'objected']);
  assert.deepEqual(turns[1]?.checks, [{ server: 'tests', result: 'objected' }, { server: 'editor', result: 'passed' }]);
  assert.deepEqual(turns[2]?.checks, [{ server: 'tests', result: 'failed' }]);
  // The objection stood when the turn ended (the budget spent): the outcome says so even after a later quiet answer.
  const unresolved: AgentEvent[] = [...turn('spent', 'c6', { tests: 'no_objection' }).slice(0, -1), { type: 'outcome', outcome: { reason: 'end_turn', rounds: 2, unresolved: { cause: 'budget_exhausted', objections: [{ server: 'tests', text: 'failing' }] } } }];
  assert.equal(turnsOf(unresolved)[0]?.verdict, 'objected');
});

test('Back to last green: before the message after the newest green turn; already there; no green turn', () => {
  const events = [...turn('a', 'c1', { tests: 'no_objection' }), ...turn('b', 'c2', { tests: 'no_objection' }), ...turn('c', 'c3', { tests: 'objection' }), ...turn('d', 'c4', {})];
  const back = lastGreen(events);
  assert.ok(back.kind === 'rewind');
  assert.equal(back.green, 2);
  assert.equal(back.plan.prompt, 3);
  assert.equal(back.plan.text, 'c');
  assert.deepEqual(back.plan.calls.map((c) => c.callId), ['c3', 'c4']);
  assert.deepEqual(lastGreen(events.slice(0, back.plan.keep)), { kind: 'already', green: 2 });
  assert.deepEqual(lastGreen(turn('x', 'c9', { tests: 'objection' })), { kind: 'none' });
});

/** A `todo__todo` call with its list, succeeding or refused by the server. */
function todoCall(callId: string, items: Array<[string, boolean]>, isError = false): AgentEvent[] {
  const args = JSON.stringify({ items: items.map(([text, done]) => ({ text, done })) });
  return [
    { type: 'tool_started', callId, name: 'todo__todo', arguments: args },
    { type: 'tool_finished', callId, name: 'todo__todo', isError, text: isError ? 'The todo list was not changed' : 'ok', durationMs: 1 },
  ];
}

test('the todo list a rewind puts back: the last write before the message, empty when none, untouched when nothing after it wrote', () => {
  const events: AgentEvent[] = [
    ...turn('one', 'c1', {}),
    ...todoCall('t1', [['read', false], ['fix', false]]),
    ...turn('two', 'c2', {}),
    ...todoCall('t2', [['read', true], ['fix', false]]),
    ...todoCall('t3', [['x', false], ['x', false]], true),
    ...turn('three', 'c3', {}),
  ];
  const keep = (n: number): number => (rewindPlan(events, n) as { keep: number }).keep;
  assert.deepEqual(todoListAt(events, keep(2), 'todo__todo'), [{ text: 'read', done: false }, { text: 'fix', done: false }], 'as turn 1 left it');
  assert.deepEqual(todoListAt(events, keep(1), 'todo__todo'), [], 'before any write: empty');
  assert.equal(todoListAt(events, keep(3), 'todo__todo'), undefined, 'turn 3 wrote nothing (the refused call changed nothing): left alone');
  assert.equal(todoListAt(events, keep(2), 'other__todo'), undefined, 'another tool is not the list');
});

test('an approved plan wrote the list (its prompt carries the steps); a subagent\'s todo call wrote its own list, not this one', () => {
  const sub = (event: AgentEvent | undefined): AgentEvent => ({ type: 'subagent_event', subagent: { id: 'sub-1', name: 'helper', callId: 'd1' }, event: event as AgentEvent });
  const events: AgentEvent[] = [
    ...turn('plan it', 'c1', {}),
    ...turn(approvedPlanPrompt(['Add a test', 'Fix the bug']), 'c2', {}),
    ...todoCall('t1', [['Add a test', true], ['Fix the bug', false]]),
    ...todoCall('s1', [['Subagent step', false]]).map(sub),
    ...turn('go on', 'c3', {}),
    ...todoCall('t2', [['Add a test', true], ['Fix the bug', true]]),
    ...turn('and then', 'c4', {}),
    ...todoCall('s2', [['Another subagent step', false]]).map(sub),
  ];
  const keep = (n: number): number => (rewindPlan(events, n) as { keep: number }).keep;
  assert.deepEqual(todoListAt(events, keep(3), 'todo__todo'), [{ text: 'Add a test', done: true }, { text: 'Fix the bug', done: false }], 'the parent\'s last write, not the subagent\'s after it');
  assert.deepEqual(todoListAt(events, keep(2), 'todo__todo'), [], 'before the approval: the plan was not the list yet');
  assert.equal(todoListAt(events, keep(4), 'todo__todo'), undefined, 'turn 4 only had a subagent write: the session\'s list is left alone');
});

test('the verdict folded as events come is the one turnsOf reads (the chat draws it on each turn)', () => {
  const events = [...turn('green', 'c1', { tests: 'no_objection' }), ...turn('red', 'c2', { tests: 'objection' }), ...turn('quiet', 'c3', {})];
  const fold = new StopChecksFold();
  const seen: string[] = [];
  for (const event of events) {
    fold.see(event);
    if (event.type === 'outcome') seen.push(fold.verdict(event.outcome.reason));
  }
  assert.deepEqual(seen, turnsOf(events).map((t) => t.verdict));
  assert.deepEqual(seen, ['passed', 'objected', 'none']);
});
