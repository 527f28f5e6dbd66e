import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatViewState } from '../../../src/extension/chat/chatViewState';
import { hostMessageSchema, type HostMessage } from '../../../src/shared/protocol';
import type { AgentEvent } from '../../../src/agent/events';

function recorder(): { model: ChatViewState; sent: HostMessage[] } {
  const sent: HostMessage[] = [];
  return { model: new ChatViewState((m) => sent.push(m)), sent };
}

test('streamed text is sent as deltas to one entry, never as whole re-sends', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'prompt_started', text: 'hi' });
  for (let i = 0; i < 100; i++) model.apply({ type: 'text_delta', delta: 'x' });
  model.apply({ type: 'message', message: { role: 'assistant', content: 'x'.repeat(100) } });
  const entries = sent.filter((m) => m.type === 'entry');
  const deltas = sent.filter((m) => m.type === 'delta');
  assert.equal(deltas.length, 99);
  // user entry, assistant opened, assistant finished: three entry messages for a 100-token answer
  assert.equal(entries.length, 3);
  assert.deepEqual(model.entries.map((e) => e.kind), ['user', 'assistant']);
  const last = model.entries[1];
  assert.ok(last?.kind === 'assistant' && last.done && last.text.length === 100);
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('tool cards, approval, objections, compaction and outcome fold into entries', () => {
  const { model } = recorder();
  const events: AgentEvent[] = [
    { type: 'prompt_started', text: 'fix it' },
    { type: 'tool_started', callId: 'c1', name: 'workspace__write_file', arguments: '{"path":"a"}' },
    { type: 'tool_started', callId: 'c2', name: 'workspace__run', arguments: '{}' },
    { type: 'tool_finished', callId: 'c1', name: 'workspace__write_file', isError: false, text: 'ok', durationMs: 3 },
    { type: 'hook_objected', hook: '_Stop', server: 'tests', text: '2 tests fail', rejectionsUsed: 1, maxRejections: 3, scope: 'session' },
    { type: 'budget', used: 1, max: 3, scope: 'session', repeatedEndTurnStops: true },
    { type: 'compaction', trigger: 'manual', summary: 's', injected: [{ server: 'todo', text: 'todo: 1' }], fallback: false, droppedMessages: 4, history: [] },
    { type: 'outcome', outcome: { reason: 'end_turn', rounds: 3, unresolved: { cause: 'budget_exhausted', objections: [{ server: 'tests', text: '2 tests fail' }] } } },
  ];
  model.apply(events[0]!);
  model.apply(events[1]!);
  model.apply(events[2]!);
  model.apply({ type: 'approval_requested', approvalId: 'a1', name: 'workspace__run', scopes: ['once', 'chat', 'workspace'] });
  assert.equal(model.showsApproval('a1'), true);
  for (const e of events.slice(3)) model.apply(e);
  const kinds = model.entries.map((e) => e.kind);
  assert.deepEqual(kinds, ['user', 'tool', 'tool', 'objection', 'compaction', 'outcome']);
  const [, t1, t2] = model.entries;
  assert.ok(t1?.kind === 'tool' && t1.status === 'ok' && t1.result === 'ok');
  // the awaiting call never finished before the outcome: it is shown as cancelled, not left spinning
  assert.ok(t2?.kind === 'tool' && t2.status === 'cancelled');
  // The budget is the Hooks view's (viewStates.test.ts); the chat's card carries its own numbers.
  const card = model.entries.find((e) => e.kind === 'objection');
  assert.ok(card?.kind === 'objection' && card.used === 1 && card.max === 3 && card.scope === 'session');
  assert.equal(model.promptOpen, false);
  const outcome = model.entries.at(-1);
  assert.ok(outcome?.kind === 'outcome' && outcome.unresolved?.cause === 'budget_exhausted');
});

test('approval events put the question on the call card and its answer after; a denied call stays denied', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'tool_started', callId: 'c', name: 's__t', arguments: '{}' });
  model.apply({ type: 'approval_requested', approvalId: 'a', name: 's__t', scopes: ['once', 'chat', 'workspace'] });
  const asking = model.entries[0];
  assert.ok(asking?.kind === 'tool' && asking.status === 'awaiting_approval' && asking.approvalId === 'a');
  assert.ok(sent.some((m) => m.type === 'entry' && m.entry.kind === 'tool' && m.entry.status === 'awaiting_approval'), 'the webview is told');
  model.apply({ type: 'approval_resolved', approvalId: 'a', name: 's__t', answer: 'deny' });
  assert.equal(model.showsApproval('a'), false);
  model.apply({ type: 'tool_finished', callId: 'c', name: 's__t', isError: true, text: 'denied', durationMs: 1 });
  const e = model.entries[0];
  assert.ok(e?.kind === 'tool' && e.status === 'denied');
  // A second question about the same tool finds no running card: it is asked elsewhere (a notification).
  model.apply({ type: 'approval_requested', approvalId: 'b', name: 's__t', scopes: ['once', 'chat', 'workspace'] });
  assert.equal(model.showsApproval('b'), false);
});

test('an allowed call runs on, and an answer for an older question does not touch a newer card', () => {
  const { model } = recorder();
  model.apply({ type: 'tool_started', callId: 'c1', name: 's__t', arguments: '{}' });
  model.apply({ type: 'approval_requested', approvalId: 'a1', name: 's__t', scopes: ['once', 'chat', 'workspace'] });
  model.apply({ type: 'approval_resolved', approvalId: 'a1', name: 's__t', answer: 'once' });
  model.apply({ type: 'tool_started', callId: 'c2', name: 's__t', arguments: '{}' });
  model.apply({ type: 'approval_requested', approvalId: 'a2', name: 's__t', scopes: ['once', 'chat', 'workspace'] });
  model.apply({ type: 'approval_resolved', approvalId: 'a1', name: 's__t', answer: 'deny' });
  assert.deepEqual(model.entries.map((e) => (e.kind === 'tool' ? e.status : e.kind)), ['running', 'awaiting_approval']);
});

test('replayed prompts that never ended are closed as interrupted: text kept, running tools cancelled, a note each', () => {
  const { model } = recorder();
  const replayed: AgentEvent[] = [
    { type: 'prompt_started', text: 'go' },
    { type: 'tool_started', callId: 'c1', name: 'workspace__run', arguments: '{}' },
    { type: 'prompt_started', text: 'again' },
    { type: 'text_delta', delta: 'Half an ' },
    { type: 'text_delta', delta: 'answer' },
  ];
  for (const event of replayed) model.apply(event);
  model.endInterruptedPrompt();
  assert.equal(model.promptOpen, false);
  assert.deepEqual(model.entries.map((e) => (e.kind === 'tool' ? `tool:${e.status}` : e.kind === 'assistant' ? `assistant:${e.done}:${e.text}` : e.kind)), [
    'user',
    'tool:cancelled',
    'hookEvent',
    'user',
    'assistant:true:Half an answer',
    'hookEvent',
  ]);
  const note = model.entries.at(-1);
  assert.ok(note?.kind === 'hookEvent' && note.level === 'warning' && /interrupted/.test(note.text));
  const count = model.entries.length;
  model.endInterruptedPrompt();
  assert.equal(model.entries.length, count, 'a chat whose last prompt ended is left alone');
});

test('thinking streams into a part of its own before the answer, closed when the answer starts; never in the answer', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'prompt_started', text: 'hi' });
  model.apply({ type: 'reasoning_delta', delta: 'Let me ' });
  model.apply({ type: 'reasoning_delta', delta: 'think.' });
  model.apply({ type: 'text_delta', delta: 'Answer.' });
  model.apply({ type: 'message', message: { role: 'assistant', content: 'Answer.', reasoning: 'Let me think.' } });
  assert.deepEqual(model.entries.map((e) => e.kind), ['user', 'thinking', 'assistant']);
  const [, thinking, answer] = model.entries;
  assert.ok(thinking?.kind === 'thinking' && thinking.done && thinking.text === 'Let me think.');
  assert.ok(answer?.kind === 'assistant' && answer.text === 'Answer.');
  assert.equal(sent.filter((m) => m.type === 'delta').length, 1, 'one thinking delta after the part opened');
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

// A lone </think> (DeepSeek-R1 distills on vLLM, https://github.com/vllm-project/vllm/issues/13125):
// the text shown live as the answer is taken back into a thinking part, in its place.
test('text reclassified as thinking: the streamed answer part becomes the thinking part, the answer follows apart', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'prompt_started', text: 'add' });
  model.apply({ type: 'text_delta', delta: 'Two plus' });
  model.apply({ type: 'text_delta', delta: ' two.' });
  const streamedId = model.entries[1]?.id;
  model.apply({ type: 'text_reclassified', text: 'Two plus two.' });
  model.apply({ type: 'reasoning_delta', delta: ' Four.' });
  model.apply({ type: 'text_delta', delta: 'It is 4.' });
  model.apply({ type: 'message', message: { role: 'assistant', content: 'It is 4.', reasoning: 'Two plus two. Four.' } });
  assert.deepEqual(model.entries.map((e) => [e.kind, e.kind === 'thinking' || e.kind === 'assistant' ? e.text : '']), [['user', ''], ['thinking', 'Two plus two. Four.'], ['assistant', 'It is 4.']]);
  assert.equal(model.entries[1]?.id, streamedId, 'the same part, redrawn as thinking');
  const redrawn = sent.find((m) => m.type === 'entry' && m.entry.id === streamedId && m.entry.kind === 'thinking');
  assert.ok(redrawn, 'the webview is told the part is thinking now');
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
  const kept = recorder();
  kept.model.apply({ type: 'prompt_started', text: 'add' });
  kept.model.apply({ type: 'text_delta', delta: 'Sure. Hmm' });
  kept.model.apply({ type: 'text_reclassified', text: ' Hmm' });
  assert.deepEqual(kept.model.entries.map((e) => [e.kind, e.kind === 'thinking' || e.kind === 'assistant' ? e.text : '']), [['user', ''], ['assistant', 'Sure.'], ['thinking', ' Hmm']]);
  kept.model.apply({ type: 'text_reclassified', text: 'not what was shown' });
  assert.equal(kept.model.entries.length, 3, 'text that was not the end of the streamed answer changes nothing');
});

test('a replayed message brings its thinking whole; a retry starts a new thinking part', () => {
  const replay = recorder();
  replay.model.apply({ type: 'prompt_started', text: 'hi' });
  replay.model.apply({ type: 'message', message: { role: 'assistant', content: null, reasoning: 'Plan.', toolCalls: [{ id: 'c', name: 'a__b', arguments: '{}' }] } });
  assert.deepEqual(replay.model.entries.map((e) => [e.kind, e.kind === 'thinking' ? e.text : '']), [['user', ''], ['thinking', 'Plan.']]);
  const retried = recorder();
  retried.model.apply({ type: 'prompt_started', text: 'hi' });
  retried.model.apply({ type: 'reasoning_delta', delta: 'first try' });
  retried.model.apply({ type: 'retry', attempt: 1, delayMs: 10, reason: 'HTTP 503' });
  retried.model.apply({ type: 'reasoning_delta', delta: 'second try' });
  assert.deepEqual(retried.model.entries.filter((e) => e.kind === 'thinking').map((e) => e.kind === 'thinking' && e.text), ['first try', 'second try']);
});

test('a turn knows its tool calls and the files they changed; undoing marks the cards and the footer', () => {
  const changes = new Map([['c1', { path: 'src/a.ts', undone: false }]]);
  const sent: HostMessage[] = [];
  const model = new ChatViewState((m) => sent.push(m), { changeOf: (id) => changes.get(id), contextWindow: () => 1000 });
  model.apply({ type: 'prompt_started', text: 'first', attachments: ['src/a.ts'] });
  model.apply({ type: 'tool_started', callId: 'c1', name: 'workspace__write_file', arguments: '{"path":"src/a.ts"}' });
  model.apply({ type: 'tool_finished', callId: 'c1', name: 'workspace__write_file', isError: false, text: 'ok', durationMs: 1 });
  model.apply({ type: 'usage', usage: { promptTokens: 300, completionTokens: 20, totalTokens: 320 } });
  model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } });
  model.apply({ type: 'prompt_started', text: 'second' });
  model.apply({ type: 'tool_started', callId: 'c2', name: 'workspace__read_file', arguments: '{"path":"src/a.ts"}' });
  model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } });
  assert.deepEqual(model.turnCallIds(0), ['c1']);
  assert.deepEqual(model.turnCallIds(1), ['c2']);
  const user = model.entries[0];
  assert.ok(user?.kind === 'user' && user.attachments?.[0] === 'src/a.ts');
  const tool = model.entries.find((e) => e.kind === 'tool' && e.id === 't-c1');
  assert.ok(tool?.kind === 'tool' && tool.change?.path === 'src/a.ts');
  const [first, second] = model.entries.filter((e) => e.kind === 'outcome');
  assert.ok(first?.kind === 'outcome' && second?.kind === 'outcome');
  assert.deepEqual(first.files, { paths: ['src/a.ts'], undone: false });
  assert.equal(second.files, undefined, 'a turn that changed nothing offers no undo');
  assert.deepEqual(model.usage, { used: 320, window: 1000, estimated: false });
  changes.set('c1', { path: 'src/a.ts', undone: true });
  model.markTurnUndone(0);
  const undone = model.entries.filter((e) => e.kind === 'outcome')[0];
  assert.ok(undone?.kind === 'outcome' && undone.files?.undone === true);
  const card = model.entries.find((e) => e.kind === 'tool' && e.id === 't-c1');
  assert.ok(card?.kind === 'tool' && card.change?.undone === true);
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('a call running in a Sprout terminal offers Show terminal from its progress on; another call does not', () => {
  const sent: HostMessage[] = [];
  const model = new ChatViewState((m) => sent.push(m), { terminalOf: (id) => id === 'c1' });
  model.apply({ type: 'prompt_started', text: 'run' });
  for (const callId of ['c1', 'c2']) {
    model.apply({ type: 'tool_started', callId, name: 'workspace__run_command', arguments: '{"command":"npm test"}' });
    model.apply({ type: 'tool_progress', callId, name: 'workspace__run_command', message: 'Running in the Sprout terminal' });
    model.apply({ type: 'tool_finished', callId, name: 'workspace__run_command', isError: false, text: 'ok', durationMs: 1 });
  }
  const [inTerminal, hidden] = model.entries.filter((e) => e.kind === 'tool');
  assert.ok(inTerminal?.kind === 'tool' && inTerminal.terminal === true && inTerminal.status === 'ok', 'the finished card keeps its button');
  assert.ok(hidden?.kind === 'tool' && hidden.terminal === undefined);
  model.say('info', 'Commands run as a hidden process');
  assert.ok(model.entries.some((e) => e.kind === 'hookEvent' && e.text === 'Commands run as a hidden process'));
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('progress updates the running tool card; a server question becomes a card until it is answered', () => {
  const posted: HostMessage[] = [];
  const view = new ChatViewState((m) => posted.push(m));
  view.apply({ type: 'prompt_started', text: 'go' });
  view.apply({ type: 'servers_waiting', servers: ['slow'], waitMs: 10_000 });
  view.apply({ type: 'tool_started', callId: 'c1', name: 'srv__build', arguments: '{}' });
  view.apply({ type: 'tool_progress', callId: 'c1', name: 'srv__build', progress: 2, total: 5, message: 'compiling' });
  const tool = view.entries.find((e) => e.kind === 'tool');
  assert.deepEqual(tool?.kind === 'tool' ? tool.progress : undefined, { progress: 2, total: 5, message: 'compiling' });
  assert.ok(view.entries.some((e) => e.kind === 'hookEvent' && e.text.startsWith('Waiting up to 10 s for the MCP server slow to be ready')));
  view.askElicitation({ id: 'srv-elicitation-1', server: 'srv', message: 'Name?', schema: { type: 'object', properties: {} } });
  const card = () => view.entries.find((e) => e.kind === 'elicitation');
  assert.equal(card()?.kind === 'elicitation' ? card()?.status : undefined, 'pending');
  view.settleElicitation('srv-elicitation-1', 'accept');
  view.settleElicitation('srv-elicitation-1', 'withdrawn');
  assert.equal(card()?.kind === 'elicitation' ? card()?.status : undefined, 'accept', 'a settled card stays as it was answered');
});

test("a prompt's images join its entry (from its message), and a transcript export names them", async () => {
  const { model, sent } = recorder();
  const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'pasted image 1.png', width: 4, height: 3 };
  model.apply({ type: 'prompt_started', text: 'what is this?' });
  model.apply({ type: 'message', message: { role: 'user', content: 'what is this?', images: [image] } });
  model.apply({ type: 'message', message: { role: 'user', content: 'no images here' } });
  const user = model.entries[0];
  assert.deepEqual(user?.kind === 'user' ? user.images : undefined, [{ name: 'pasted image 1.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
  assert.equal(sent.filter((m) => m.type === 'entry').length, 2, 'the entry, then the entry with its image');
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
  const { entriesToMarkdown } = await import('../../../src/extension/chat/transcriptExport');
  assert.match(entriesToMarkdown('t', model.entries), /## You\n\nwhat is this\?\n\[image: pasted image 1\.png\]/);
});

test('a prompt\'s mode is on its message entry (Ask, Plan), Agent and no mode leave it off', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'prompt_started', text: 'plan it', mode: 'plan' });
  model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } });
  model.apply({ type: 'prompt_started', text: 'do it', mode: 'agent' });
  model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } });
  model.apply({ type: 'prompt_started', text: 'old transcript' });
  const users = model.entries.filter((e) => e.kind === 'user');
  assert.deepEqual(users.map((e) => (e.kind === 'user' ? [e.text, e.mode] : [])), [['plan it', 'plan'], ['do it', undefined], ['old transcript', undefined]]);
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('a Plan turn that ends with numbered steps offers a plan card; the approved plan\'s prompt marks it approved, another prompt closes it', async () => {
  const { approvedPlanPrompt } = await import('../../../src/agent/planSteps');
  const { model, sent } = recorder();
  const planTurn = (text: string): void => {
    model.apply({ type: 'prompt_started', text: 'plan the fix', mode: 'plan' });
    model.apply({ type: 'message', message: { role: 'assistant', content: text } });
    model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } });
  };
  planTurn('Here is the plan:\n1. Read **src/a.ts**\n2. Fix the off-by-one:\n   1. nested detail\n3. Run the tests');
  const plan = model.entries.findLast((e) => e.kind === 'plan');
  assert.deepEqual(plan, { kind: 'plan', id: plan?.id, steps: ['Read src/a.ts', 'Fix the off-by-one', 'Run the tests'], state: 'open' });
  model.apply({ type: 'prompt_started', text: approvedPlanPrompt(['Read src/a.ts', 'Run the tests']) });
  const stateOf = (id: string | undefined): string | undefined => {
    const entry = model.entries.find((e) => e.id === id);
    return entry?.kind === 'plan' ? entry.state : undefined;
  };
  assert.equal(stateOf(plan?.id), 'approved');
  const approved = model.entries.find((e) => e.id === plan?.id);
  assert.deepEqual(approved?.kind === 'plan' ? approved.steps : [], ['Read src/a.ts', 'Run the tests'], 'the card shows the steps as approved');
  model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } });
  assert.equal(model.entries.filter((e) => e.kind === 'plan').length, 1, 'an Agent turn offers no plan');

  planTurn('1. Only step');
  const second = model.entries.findLast((e) => e.kind === 'plan');
  model.apply({ type: 'prompt_started', text: 'never mind, do something else' });
  assert.equal(stateOf(second?.id), 'closed');

  planTurn('I would rewrite it all, no list.');
  const last = model.entries.at(-1);
  assert.ok(last?.kind === 'hookEvent' && /no numbered steps to approve/.test(last.text), JSON.stringify(last));
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test("each turn's end carries its _Stop verdict: green, not green (an objection standing, a timeout), no checks", () => {
  const { model, sent } = recorder();
  const turnOf = (text: string, stops: AgentEvent[], unresolved = false): AgentEvent[] => [
    { type: 'prompt_started', text },
    ...stops,
    { type: 'outcome', outcome: { reason: 'end_turn', rounds: 1, ...(unresolved ? { unresolved: { cause: 'budget_exhausted' as const, objections: [{ server: 'tests', text: 'failing' }] } } : {}) } },
  ];
  const stop = (server: string, result: 'no_objection' | 'objection' | 'timeout'): AgentEvent => ({ type: 'hook_finished', server, hook: '_Stop', result, text: '', durationMs: 1 });
  for (const event of [
    ...turnOf('green', [stop('tests', 'no_objection'), stop('todo', 'no_objection')]),
    ...turnOf('red', [stop('tests', 'objection')], true),
    ...turnOf('slow', [stop('tests', 'timeout')]),
    ...turnOf('quiet', [{ type: 'hook_finished', server: 'guard', hook: '_PreToolUse', result: 'no_objection', text: '', durationMs: 1 }]),
  ]) model.apply(event);
  assert.deepEqual(model.entries.flatMap((e) => (e.kind === 'outcome' ? [e.verdict] : [])), ['passed', 'objected', 'objected', 'none']);
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});
