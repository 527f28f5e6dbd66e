// The chat's hook cards and notes (src/extension/chat/hookFold.ts), seen through the chat's view state:
// a check that passed joins the turn's footer, an objection learns its outcome, a `_PreToolUse` denial
// marks its card, an injection is a card, a server wait is one note, and other events say what matters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatViewState } from '../../../src/extension/chat/chatViewState';
import { hostMessageSchema, type HostMessage } from '../../../src/shared/protocol';
import type { AgentEvent } from '../../../src/agent/events';

function recorder(): { model: ChatViewState; sent: HostMessage[] } {
  const sent: HostMessage[] = [];
  return { model: new ChatViewState((m) => sent.push(m)), sent };
}

test('hooks stay quiet when they pass: no note per check, the turn footer lists them, an objection learns its outcome', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'prompt_started', text: 'go' });
  model.apply({ type: 'budget', used: 0, max: 3, scope: 'session', repeatedEndTurnStops: true });
  model.apply({ type: 'hook_finished', server: 'todo', hook: '_Stop', result: 'no_objection', text: '', durationMs: 2 });
  model.apply({ type: 'hook_objected', hook: '_Stop', server: 'tests', text: '2 tests fail', rejectionsUsed: 1, maxRejections: 3, scope: 'session' });
  const objection = model.entries.find((e) => e.kind === 'objection');
  assert.ok(objection?.kind === 'objection' && objection.outcome === 'pending' && objection.hook === '_Stop' && objection.scope === 'session');
  model.apply({ type: 'objection_resolved', servers: ['tests'], resolution: 'complied' });
  model.apply({ type: 'hook_finished', server: 'tests', hook: '_Stop', result: 'no_objection', text: '', durationMs: 5 });
  model.apply({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 2 } });
  assert.deepEqual(model.entries.map((e) => e.kind), ['user', 'objection', 'outcome'], 'no hookEvent line for a passing check or a resolution');
  const settled = model.entries[1];
  assert.ok(settled?.kind === 'objection' && settled.outcome === 'complied');
  const outcome = model.entries[2];
  assert.ok(outcome?.kind === 'outcome');
  assert.deepEqual(outcome.checks, [
    { server: 'todo', hook: '_Stop', durationMs: 2 },
    { server: 'tests', hook: '_Stop', durationMs: 5 },
  ]);
  assert.equal(outcome.turn, 0);
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('a server wait is one note that ends saying how it went: ready in time, or gone on without the late ones', () => {
  const posted: HostMessage[] = [];
  const view = new ChatViewState((m) => posted.push(m));
  const notes = () => view.entries.filter((e) => e.kind === 'hookEvent').map((e) => (e.kind === 'hookEvent' ? [e.level, e.text] : []));
  view.apply({ type: 'prompt_started', text: 'go' });
  view.apply({ type: 'servers_waiting', servers: ['hooks'], waitMs: 10_000 });
  assert.deepEqual(notes(), [['info', 'Waiting up to 10 s for the MCP server hooks to be ready; the agent goes on without it after that.']]);
  view.apply({ type: 'servers_waited', servers: ['hooks'], late: [], waitedMs: 1_840 });
  assert.deepEqual(notes(), [['info', 'The MCP server hooks was ready after 1.8 s.']], 'the same note, now saying how the wait ended');
  const replaced = posted.filter((m) => m.type === 'entry' && m.entry.kind === 'hookEvent').map((m) => (m.type === 'entry' ? m.entry.id : ''));
  assert.equal(new Set(replaced).size, 1, 'the webview re-renders that one entry');

  view.apply({ type: 'prompt_started', text: 'again' });
  view.apply({ type: 'servers_waiting', servers: ['a', 'slow'], waitMs: 1_500 });
  view.apply({ type: 'servers_waited', servers: ['a', 'slow'], late: ['slow'], waitedMs: 1_500 });
  assert.deepEqual(notes().at(-1), ['warning', 'The MCP server a was ready after 1.5 s. The agent went on without the MCP server slow (not ready after 1.5 s); its tools join when it is ready.']);
  view.apply({ type: 'prompt_started', text: 'and again' });
  view.apply({ type: 'servers_waited', servers: ['hooks', 'workspace', 'x', 'y'], late: ['x', 'y'], waitedMs: 1_100 });
  assert.deepEqual(notes().at(-1), ['warning', 'The MCP servers hooks and workspace were ready after 1.1 s. The agent went on without the MCP servers x and y (not ready after 1.1 s); their tools join when they are ready.'], 'names read as a sentence');
  for (const m of posted) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('a _PreToolUse denial marks its tool card denied and blocked by the server; an injection is its own entry; the quiet calls fold into the footer', () => {
  const { model, sent } = recorder();
  const envelope = JSON.stringify({ hook: '_PreToolUse', server: 'guard', text: 'no rm' });
  const events: AgentEvent[] = [
    { type: 'prompt_started', text: 'clean up' },
    { type: 'hook_injected', hook: '_UserPromptSubmit', server: 'ctx', text: 'prefer small diffs' },
    { type: 'tool_started', callId: 'c1', name: 'workspace__run_command', arguments: '{"command":"rm -rf /"}' },
    { type: 'hook_finished', server: 'guard', hook: '_PreToolUse', result: 'objection', text: 'no rm', durationMs: 4 },
    { type: 'tool_denied', callId: 'c1', name: 'workspace__run_command', server: 'guard', text: 'no rm', denialsUsed: 1, denialBudget: 10 },
    { type: 'tool_finished', callId: 'c1', name: 'workspace__run_command', isError: true, text: envelope, durationMs: 5 },
    { type: 'tool_started', callId: 'c2', name: 'workspace__read_file', arguments: '{"path":"a.ts"}' },
    { type: 'hook_finished', server: 'guard', hook: '_PreToolUse', result: 'no_objection', text: '', durationMs: 3 },
    { type: 'tool_finished', callId: 'c2', name: 'workspace__read_file', isError: false, text: 'x', durationMs: 5 },
    { type: 'hook_finished', server: 'post', hook: '_PostToolUse', result: 'no_objection', text: '', durationMs: 2 },
    { type: 'tool_started', callId: 'c3', name: 'workspace__read_file', arguments: '{"path":"b.ts"}' },
    { type: 'hook_finished', server: 'guard', hook: '_PreToolUse', result: 'no_objection', text: '', durationMs: 9 },
    { type: 'tool_finished', callId: 'c3', name: 'workspace__read_file', isError: false, text: 'y', durationMs: 5 },
    { type: 'hook_timed_out', server: 'post', hook: '_PostToolUse', consecutive: 1 },
    { type: 'outcome', outcome: { reason: 'end_turn', rounds: 2 } },
    { type: 'hook_finished', server: 'guard', hook: '_SessionEnd', result: 'no_objection', text: '', durationMs: 1 },
  ];
  for (const event of events) model.apply(event);
  const tool = model.entries.find((e) => e.kind === 'tool');
  assert.deepEqual(tool, { kind: 'tool', id: 't-c1', name: 'workspace__run_command', args: '{"command":"rm -rf /"}', status: 'denied', result: envelope, blocked: { server: 'guard', text: 'no rm' } });
  assert.deepEqual(model.entries.find((e) => e.kind === 'injection'), { kind: 'injection', id: 'e1', hook: '_UserPromptSubmit', server: 'ctx', text: 'prefer small diffs' });
  const notes = model.entries.flatMap((e) => (e.kind === 'hookEvent' ? [e.text] : []));
  assert.deepEqual(
    notes,
    ['After-tool check by post took too long (1 of 2 in a row stops the server), so it adds nothing.'],
    'no note for the quiet calls around every prompt and tool call, and a timeout says it changes nothing',
  );
  const outcome = model.entries.find((e) => e.kind === 'outcome');
  assert.deepEqual(
    outcome?.kind === 'outcome' ? outcome.checks : undefined,
    [
      { server: 'guard', hook: '_PreToolUse', durationMs: 9, calls: 2 },
      { server: 'post', hook: '_PostToolUse', durationMs: 2 },
    ],
    'one line per hook and server, its longest call; not the denial, nor the _SessionEnd after the turn',
  );
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test('the denial that spends the _PreToolUse budget says so once, naming the setting', () => {
  const { model } = recorder();
  model.apply({ type: 'prompt_started', text: 'go' });
  for (const [id, used] of [['c1', 1], ['c2', 2]] as const) {
    model.apply({ type: 'tool_started', callId: id, name: 'workspace__run_command', arguments: '{}' });
    model.apply({ type: 'tool_denied', callId: id, name: 'workspace__run_command', server: 'guard', text: 'no', denialsUsed: used, denialBudget: 2 });
  }
  const notes = model.entries.flatMap((e) => (e.kind === 'hookEvent' ? [e.text] : []));
  assert.equal(notes.length, 1, notes.join('\n'));
  assert.match(notes[0] ?? '', /blocked 2 calls in this prompt, the most sprout\.hooks\.preToolUseMaxDenials allows/);
  assert.deepEqual(model.entries.flatMap((e) => (e.kind === 'tool' ? [e.blocked?.server] : [])), ['guard', 'guard']);
});

test('which instructions apply is one note when it changes, a warning when a file could not be used; sent as the protocol says', () => {
  const { model, sent } = recorder();
  model.apply({ type: 'instructions', applied: [{ path: 'AGENTS.md', why: 'at the workspace root', sha256: 'a' }], notes: [] });
  model.apply({ type: 'instructions', applied: [{ path: 'AGENTS.md', why: 'at the workspace root', sha256: 'a' }, { path: 'pkg/AGENTS.md', why: 'pkg/x.ts is in its folder', sha256: 'b' }], notes: ['x.mdc line 2: broken'] });
  model.apply({ type: 'instructions', applied: [], notes: [] });
  const notes = sent.flatMap((m) => (m.type === 'entry' && m.entry.kind === 'hookEvent' ? [[m.entry.level, m.entry.text]] : []));
  assert.deepEqual(notes, [
    ['info', '1 instruction: AGENTS.md (at the workspace root).'],
    ['warning', '2 instructions: AGENTS.md (at the workspace root), pkg/AGENTS.md (pkg/x.ts is in its folder). x.mdc line 2: broken'],
  ]);
  for (const message of sent) assert.ok(hostMessageSchema.safeParse(message).success, JSON.stringify(message));
});

test("the editor server's hooks not enabled is an info note pointing at Enable Problems Hook; another server's stays a warning naming the setting", () => {
  const { model, sent } = recorder();
  model.apply({ type: 'hooks_not_enabled', server: 'editor', hooks: ['_Stop'] });
  model.apply({ type: 'hooks_not_enabled', server: 'gate', hooks: ['_Stop'] });
  const notes = sent.flatMap((m) => (m.type === 'entry' && m.entry.kind === 'hookEvent' ? [[m.entry.level, m.entry.text]] : []));
  assert.equal(notes.length, 2);
  assert.equal(notes[0]?.[0], 'info');
  assert.match(notes[0]?.[1] ?? '', /Enable Problems Hook/);
  assert.equal(notes[1]?.[0], 'warning');
  assert.match(notes[1]?.[1] ?? '', /gate.*sprout\.hooks\.servers/);
});
