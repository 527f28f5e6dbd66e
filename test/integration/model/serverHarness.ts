/**
 * One agent turn against a fake that plays a real server's quirk, end to end: the real openai client,
 * the agent loop, the `echo` tool of a FakeHookServer child process and its `_Stop` hook, which objects
 * once. A turn is a tool round (the quirky reply), the model's end of turn, the objection, the model
 * acting on it (one more echo, `check`) and the end of turn again; `checkTurn` asserts it ran the
 * right tools with the right arguments, called `_Stop` twice, ended on `end_turn` (the objection
 * resolved) and that the last request carried a valid tool history.
 */
import assert from 'node:assert/strict';
import type { AgentEvent, Outcome } from '../../../src/agent/events';
import { fakeReply, type FakeReplyResponse, type FakeResponse, type FakeToolCall } from '../../fakes/fakeOpenAiServer';
import { objectTimes } from '../../fakes/hookServer';
import { openRig, type Rig, type RigOptions } from '../loop/loopHarness';

export const OBJECTION = 'run the check once more';

/** Two echo calls, scripted with ids so a test can tell them apart on the wire. */
export const TWO_ECHOES: FakeToolCall[] = [
  { id: 'call_first', name: 'tools__echo', arguments: { text: 'first' } },
  { id: 'call_second', name: 'tools__echo', arguments: { text: 'second' } },
];

export interface TurnOptions extends Omit<RigOptions, 'servers' | 'responses'> {
  /** The tool round(s) before the end of turn; default: TWO_ECHOES streamed plainly. */
  toolRounds?: FakeResponse[];
  /** Switches for the replies after the tool round (both ends of turn and the echo after the objection). */
  textQuirks?: Partial<FakeReplyResponse>;
  /** More responses after the turn (a second prompt). */
  after?: FakeResponse[];
}

/**
 * The first prompt waits for the hook server to list its tools (a child process, slow to start on a
 * busy machine); the wait ends as soon as it is ready, so a generous bound costs nothing when it is.
 */
export const SERVER_START_MARGIN = { firstPromptServerWaitMs: 300_000 };

export async function openTurn(options: TurnOptions = {}): Promise<Rig> {
  const { toolRounds, textQuirks, after, ...rig } = options;
  return openRig({
    ...rig,
    settings: { ...SERVER_START_MARGIN, ...rig.settings },
    servers: [{ name: 'tools', config: { hooks: { _Stop: objectTimes(OBJECTION, 1) } } }],
    responses: [
      ...(toolRounds ?? [fakeReply.toolCalls(TWO_ECHOES)]),
      fakeReply.text('All done.', textQuirks),
      fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'check' } }], textQuirks),
      fakeReply.text('Checked again: all done.', textQuirks),
      ...(after ?? []),
    ],
  });
}

/** The `text` arguments the echo tool received, in call order. */
export function echoed(rig: Rig): string[] {
  return rig.calls('tools', 'echo').map((entry) => String((entry.arguments as { text?: unknown }).text));
}

export function checkTurn(rig: Rig, outcome: Outcome, expected: { echoes: string[]; requests?: number }): void {
  assert.equal(outcome.reason, 'end_turn', outcome.message);
  assert.equal(outcome.unresolved, undefined);
  assert.deepEqual(echoed(rig), [...expected.echoes, 'check'], 'the right tools ran with the right arguments');
  assert.equal(rig.calls('tools', '_Stop').length, 2, '_Stop objected once, then let the turn end');
  assert.deepEqual(rig.of('hook_objected').map((e) => e.text), [OBJECTION]);
  const chats = rig.fake.chatRequests();
  assert.equal(chats.length, expected.requests ?? 4, 'the tool round, the end of turn, the echo after the objection, the end of turn');
  // The last request carries the whole turn: every call answered once, ids distinct, names real tools.
  const last = rig.messages(chats.length - 1);
  const calls = last.flatMap((m) => m.tool_calls ?? []);
  const ids = calls.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, `tool-call ids are distinct: ${ids.join(', ')}`);
  for (const call of calls) assert.match(call.function.name, /^tools___?(echo|Stop)$/);
  assert.deepEqual(last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id).sort(), [...ids].sort());
}

export function reasoningText(events: readonly AgentEvent[]): string {
  return events.map((e) => (e.type === 'reasoning_delta' ? e.delta : '')).join('');
}

export function answerText(events: readonly AgentEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
}

/**
 * The requests the fake rejected must be exactly the ones a test expects (the rejections an endpoint
 * teaches its rules with), each answered by an accepted retry; they are then dropped from the record
 * so the rig's closing check still holds every other request to the real API's rules.
 */
export function expectRejections(rig: Rig, expected: RegExp[]): void {
  const rejected = rig.fake.requests.filter((r) => !r.valid);
  assert.equal(rejected.length, expected.length, `rejected: ${rejected.map((r) => r.error).join(' | ')}`);
  rejected.forEach((r, i) => assert.match(r.error ?? '', expected[i] as RegExp));
  for (const r of rejected) {
    const next = rig.fake.requests[r.seq + 1];
    assert.equal(next?.valid, true, `the request after #${r.seq} (its retry) was accepted`);
  }
  for (let i = rig.fake.requests.length - 1; i >= 0; i--) if (rig.fake.requests[i]?.valid === false) rig.fake.requests.splice(i, 1);
}

/** Every tool-call id a request carried (assistant calls and tool answers). */
export function wireIds(rig: Rig): string[] {
  return rig.chatBodies().flatMap((body) => body.messages.flatMap((m) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id === undefined ? [] : [m.tool_call_id])]));
}
