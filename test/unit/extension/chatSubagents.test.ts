// The chat's view of a subagent (src/extension/chat/subagentEntries.ts): the child's tool calls are
// cards of their own, tagged with the subagent and keyed under the delegate call (so an approval the
// child's call needs is asked on its card), its objections are notes, and the parent's cards and
// budget are untouched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { ChatViewState } from '../../../src/extension/chat/chatViewState';
import { hostMessageSchema, type HostMessage } from '../../../src/shared/protocol';

const sub = { id: 'sub-1', name: 'reviewer', callId: 'd1' };
const child = (event: AgentEvent): AgentEvent => ({ type: 'subagent_event', subagent: sub, event });

test('a subagent\'s calls are tagged cards under the delegate card; approval and objection reach them', () => {
  const sent: HostMessage[] = [];
  const view = new ChatViewState((m) => sent.push(m));
  const events: AgentEvent[] = [
    { type: 'prompt_started', text: 'review it' },
    { type: 'tool_started', callId: 'd1', name: 'sprout__delegate', arguments: '{"agent":"reviewer","task":"review x"}' },
    child({ type: 'prompt_started', text: 'review x' }),
    // The same call id as a parent's call could have: keyed under the delegate call, it never meets it.
    child({ type: 'tool_started', callId: 'c1', name: 'workspace__run_command', arguments: '{"command":"npm test"}' }),
    { type: 'approval_requested', approvalId: 'a1', name: 'workspace__run_command', scopes: ['once'] },
    { type: 'approval_resolved', approvalId: 'a1', name: 'workspace__run_command', answer: 'once' },
    child({ type: 'tool_finished', callId: 'c1', name: 'workspace__run_command', isError: false, text: '3 passed', durationMs: 5 }),
    child({ type: 'hook_objected', hook: '_SubagentStop', server: 'gate', text: 'check the docs too', rejectionsUsed: 1, maxRejections: 3, scope: 'session' }),
    child({ type: 'outcome', outcome: { reason: 'end_turn', rounds: 3 } }),
    { type: 'tool_finished', callId: 'd1', name: 'sprout__delegate', isError: false, text: 'x is fine', durationMs: 50 },
  ];
  for (const e of events) view.apply(e);
  const tools = view.entries.filter((e) => e.kind === 'tool');
  assert.deepEqual(tools.map((t) => (t.kind === 'tool' ? [t.name, t.status, t.subagent?.id ?? null, t.result ?? null] : [])), [
    ['sprout__delegate', 'ok', null, 'x is fine'],
    ['workspace__run_command', 'ok', 'sub-1', '3 passed'],
  ]);
  assert.ok(sent.some((m) => m.type === 'entry' && m.entry.kind === 'tool' && m.entry.status === 'awaiting_approval' && m.entry.subagent?.name === 'reviewer'), 'the child\'s approval was asked on its card');
  const note = view.entries.find((e) => e.kind === 'hookEvent');
  assert.ok(note?.kind === 'hookEvent' && /reviewer \(sub-1\).*objected.*check the docs too/.test(note.text));
  assert.ok(!view.entries.some((e) => e.kind === 'objection'), 'the parent shows no objection card of its own');
  assert.equal(view.entries.filter((e) => e.kind === 'outcome').length, 0, 'the child\'s end is not the prompt\'s outcome');
  for (const m of sent) assert.ok(hostMessageSchema.safeParse(m).success, JSON.stringify(m));
});

test("a subagent's model note (its agent's model cannot be reached) is a warning naming the subagent; an agent event without notes shows nothing", () => {
  const view = new ChatViewState(() => undefined);
  const withModel = { ...sub, model: 'fake-model' };
  view.apply({ type: 'subagent_event', subagent: withModel, event: { type: 'agent', name: 'reviewer', source: '.claude/agents/reviewer.md', notes: [] } });
  assert.equal(view.entries.length, 0);
  const note = '.claude/agents/reviewer.md: the agent "reviewer" asks for the model "opus", which Sprout cannot reach here; it uses the chat\'s model (fake-model).';
  view.apply({ type: 'subagent_event', subagent: withModel, event: { type: 'agent', name: 'reviewer', source: '.claude/agents/reviewer.md', notes: [note] } });
  const shown = view.entries.find((e) => e.kind === 'hookEvent');
  assert.ok(shown?.kind === 'hookEvent');
  assert.equal(shown.level, 'warning');
  assert.equal(shown.text, `Subagent reviewer (sub-1): ${note}`);
});

test("a subagent's call card names the model the child ran on; a transcript older than the field tags without it", () => {
  const view = new ChatViewState(() => undefined);
  view.apply({ type: 'prompt_started', text: 'review it' });
  view.apply({ type: 'tool_started', callId: 'd1', name: 'sprout__delegate', arguments: '{"agent":"reviewer","task":"x"}' });
  view.apply({ type: 'subagent_event', subagent: { ...sub, model: 'vendor/claude-haiku-4-5' }, event: { type: 'tool_started', callId: 'c1', name: 'workspace__read_file', arguments: '{}' } });
  view.apply({ type: 'subagent_event', subagent: { ...sub, id: 'sub-2', callId: 'd1' }, event: { type: 'tool_started', callId: 'c2', name: 'workspace__read_file', arguments: '{}' } });
  const tags = view.entries.flatMap((e) => (e.kind === 'tool' && e.subagent ? [e.subagent] : []));
  assert.deepEqual(tags, [
    { id: 'sub-1', name: 'reviewer', model: 'vendor/claude-haiku-4-5' },
    { id: 'sub-2', name: 'reviewer' },
  ]);
});
