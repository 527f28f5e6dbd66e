// The views' state, driven by transcripts the integration tests recorded from the real loop
// (test/integration/loop/viewTranscripts.test.ts, fixtures in test/fixtures/transcripts/), replayed
// the way a chat opens: into the chat's view state and onto the window's view events, which the
// Hooks view's state and the chat webviews follow. So the folds see the event orders the core emits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayTranscript } from '../../../src/extension/chat/chat';
import { ChatViewState } from '../../../src/extension/chat/chatViewState';
import { ChatViews } from '../../../src/extension/chat/chatViews';
import { hooksSummary } from '../../../src/extension/hooks/hooksSummary';
import { HooksViewState, hookRows } from '../../../src/extension/hooks/hooksViewState';
import { ViewEvents } from '../../../src/extension/viewEvents';
import { budgetText } from '../../../src/shared/budgetText';
import { hostMessageSchema, type ChatEntry, type HostMessage } from '../../../src/shared/protocol';
import { CART_FAILURES, loadTranscript } from '../../integration/loop/recordedTranscripts';

type EntryOf<K extends ChatEntry['kind']> = Extract<ChatEntry, { kind: K }>;

/** A chat reopened from the fixture `name`, with the window's views following it. */
function reopen(name: string, servers: Array<{ name: string; hooks: string[] }> = []) {
  const events = new ViewEvents((error) => {
    throw error;
  });
  const hooks = new HooksViewState({ kind: 'all' });
  const views = new ChatViews({ drafts: { get: () => undefined }, hooks });
  const posted: HostMessage[] = [];
  views.attach({ post: (message) => posted.push(message), visible: () => true });
  events.subscribe(hooks);
  events.subscribe(views);
  events.publish({ type: 'servers', state: { started: true, servers: servers.map((s) => ({ ...s, state: 'ready' as const })), notices: [] } });
  const chat = new ChatViewState((message) => posted.push(message));
  replayTranscript(name, loadTranscript(name), chat, events);
  for (const message of posted) assert.ok(hostMessageSchema.safeParse(message).success, JSON.stringify(message));
  return { chat, hooks, posted, kinds: chat.entries.map((e) => e.kind), of: <K extends ChatEntry['kind']>(kind: K) => chat.entries.filter((e): e is EntryOf<K> => e.kind === kind) };
}

test('stop-complied: the objection is one card built from its event (hook, budget, scope, failures), settled as acted on; the passing check sits in the footer', () => {
  const { kinds, of, hooks } = reopen('stop-complied', [{ name: 'tests', hooks: ['_Stop'] }]);
  assert.deepEqual(kinds, ['user', 'assistant', 'objection', 'tool', 'assistant', 'outcome'], 'no note for a passing check or a resolution');
  const [card] = of('objection');
  assert.deepEqual({ ...card, id: undefined, text: undefined }, { kind: 'objection', id: undefined, text: undefined, server: 'tests', used: 1, max: 3, hook: '_Stop', scope: 'session', outcome: 'complied', failures: CART_FAILURES });
  const [outcome] = of('outcome');
  assert.equal(outcome?.turn, 0);
  assert.equal(outcome?.unresolved, undefined);
  assert.deepEqual(outcome?.checks?.map((c) => [c.server, c.hook, c.calls]), [['tests', '_Stop', undefined]]);
  assert.deepEqual(hooks.budget, { used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true });
  assert.equal(budgetText(hooks.budget).line, '2 of 3 left');
  assert.deepEqual(hooks.objections.map((o) => [o.server, o.outcome, o.failures]), [['tests', 'complied', CART_FAILURES]]);
  assert.deepEqual(hookRows(hooks.servers.get('tests')!).map((r) => [r.hook, r.stats.calls]), [['_Stop', 2]]);
  assert.equal(hooksSummary(hooks).text, 'Completion check: tests · 2 of 3 left');
});

test('stop-declined: the first objection is acted on, the second declined; both views agree, and the outcome names the cause', () => {
  const { of, hooks } = reopen('stop-declined', [{ name: 'nag', hooks: ['_Stop'] }]);
  const cards = of('objection');
  assert.deepEqual(cards.map((c) => [c.used, c.outcome]), [[1, 'complied'], [2, 'declined']]);
  assert.ok(cards.every((c) => !('failures' in c)), 'no failures, no list');
  assert.equal(of('outcome')[0]?.unresolved?.cause, 'declined');
  assert.deepEqual(hooks.objections.map((o) => [o.outcome, o.failures]), [['complied', undefined], ['declined', undefined]]);
  assert.deepEqual(hooks.budget, { used: 2, max: 3, scope: 'session', repeatedEndTurnStops: true });
  assert.equal(hooks.servers.get('nag')?.calls, 4, 'two objections, the final verdict after the decline, and the echo call');
});

test('stop-budget-spent: the card carries the prompt scope, reads overridden, and the views say no objections are left', () => {
  const { of, hooks } = reopen('stop-budget-spent', [{ name: 'nag', hooks: ['_Stop'] }]);
  const [card] = of('objection');
  assert.deepEqual([card?.used, card?.max, card?.scope, card?.outcome], [1, 1, 'prompt', 'overridden']);
  assert.deepEqual(of('outcome')[0]?.unresolved, { cause: 'budget_exhausted', objections: [{ server: 'nag', text: 'Not done: 2 todo items open.' }] });
  assert.deepEqual(hooks.objections.map((o) => o.outcome), ['overridden']);
  assert.equal(budgetText(hooks.budget).spent, true);
  assert.equal(hooksSummary(hooks).state, 'warning');
});

test('tool-hooks: injected context is a card each, a blocked call is marked on its card, the quiet checks fold into the footer', () => {
  const { kinds, of, hooks } = reopen('tool-hooks', [{ name: 'guard', hooks: ['_SessionStart', '_UserPromptSubmit', '_PreToolUse', '_PostToolUse', '_SessionEnd'] }]);
  assert.deepEqual(kinds, ['user', 'injection', 'injection', 'tool', 'tool', 'assistant', 'outcome'], 'no note for the quiet calls around the prompt and the tool calls');
  assert.deepEqual(of('injection').map((e) => [e.hook, e.server, e.text]), [
    ['_SessionStart', 'guard', 'Project rules: keep diffs small.'],
    ['_UserPromptSubmit', 'guard', 'The user prefers TypeScript.'],
  ]);
  const [blocked, ran] = of('tool');
  assert.deepEqual([blocked?.status, blocked?.blocked], ['denied', { server: 'guard', text: 'no rm -rf here' }]);
  assert.deepEqual([ran?.status, ran?.result, ran?.blocked], ['ok', 'ls', undefined]);
  assert.deepEqual(
    of('outcome')[0]?.checks?.map((c) => [c.server, c.hook, c.calls]),
    [['guard', '_PreToolUse', undefined], ['guard', '_PostToolUse', undefined]],
    'one line per hook and server: not the denial, the injections, nor the _SessionEnd after the turn',
  );
  const rows = hookRows(hooks.servers.get('guard')!).map((r) => [r.hook, r.stats.calls]);
  assert.deepEqual(rows, [['_SessionStart', 1], ['_UserPromptSubmit', 1], ['_PreToolUse', 2], ['_PostToolUse', 1], ['_SessionEnd', 1]]);
});

test('approvals: the allowed call ran, the denied one reads denied, and no question is left on a card', () => {
  const { chat, of } = reopen('approvals');
  const asked = loadTranscript('approvals').flatMap(({ event }) => (event.type === 'approval_requested' ? [event.approvalId] : []));
  assert.deepEqual(of('tool').map((e) => [e.status, e.approvalId]), [['ok', asked[0]], ['denied', asked[1]]]);
  assert.equal(asked.length, 2);
  assert.ok(asked.every((id) => !chat.showsApproval(id)), 'every question was answered');
});

test('the chat views follow the view events: the running flag, and the hooks line only when it reads differently', () => {
  const events = new ViewEvents();
  const hooks = new HooksViewState({ kind: 'names', names: ['tests'] });
  const views = new ChatViews({ drafts: { get: () => undefined }, hooks });
  const posted: HostMessage[] = [];
  views.attach({ post: (message) => posted.push(message), visible: () => false });
  events.subscribe(hooks);
  events.subscribe(views);
  events.publish({ type: 'running', running: true });
  replayTranscript('c', loadTranscript('stop-declined'), new ChatViewState(), events);
  events.publish({ type: 'running', running: false });
  assert.deepEqual(posted.filter((m) => m.type === 'running').map((m) => m.type === 'running' && m.running), [true, false]);
  assert.equal(hooks.running, false, 'the status bar reads the flag from the Hooks view state');
  const lines = posted.flatMap((m) => (m.type === 'hooks' ? [m.hooks.text] : []));
  // The first budget event comes with the first objection: before it the line names the checks only.
  assert.deepEqual(lines, ['Completion check: tests', 'Completion check: tests · 2 of 3 left', 'Completion check: tests · 1 of 3 left']);
  assert.equal(views.visible(), false);
});
