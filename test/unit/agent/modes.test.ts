// Modes as pure rules (src/agent/modes.ts, roundRequest.ts) and a Plan answer read as steps (planSteps.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMode, modeAllows, modeRefusal, modeSystemText, modeTools } from '../../../src/agent/modes';
import { approvedPlanPrompt, approvedPlanSteps, planSteps } from '../../../src/agent/planSteps';
import { roundRequest } from '../../../src/agent/roundRequest';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import type { ToolAnnotations, ToolInfo } from '../../../src/agent/messages';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const tool = (server: string, bareName: string, annotations: ToolAnnotations = {}): ToolInfo => ({
  server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations, isHook: bareName.startsWith('_'),
});
const TOOLS = [
  tool('workspace', 'read_file', { readOnlyHint: true }),
  tool('workspace', 'write_file', { readOnlyHint: false, destructiveHint: true }),
  tool('workspace', 'run_command', { readOnlyHint: false }),
  // No annotations at all: a server that says nothing is not read-only.
  tool('other', 'lookup'),
  tool('todo', 'todo', { readOnlyHint: false }),
  tool('todo', '_Stop', { readOnlyHint: true }),
];
const ctx = { settings: () => ({ ...DEFAULT_SETTINGS, systemPrompt: 'You are Sprout.' }) };

test('Agent offers every non-hook tool and adds no text; Ask and Plan offer only readOnlyHint tools, never a hook', () => {
  const agent = roundRequest(ctx, TOOLS, 'agent');
  assert.deepEqual(agent.specs.map((s) => s.name), ['workspace__read_file', 'workspace__write_file', 'workspace__run_command', 'other__lookup', 'todo__todo']);
  assert.equal(agent.system, 'You are Sprout.');
  assert.deepEqual(roundRequest(ctx, TOOLS).specs, agent.specs, 'no mode is Agent');
  for (const mode of ['ask', 'plan'] as const) {
    const request = roundRequest(ctx, TOOLS, mode);
    assert.deepEqual(request.specs.map((s) => s.name), ['workspace__read_file'], mode);
    assert.ok(request.system.startsWith('You are Sprout.\n\n'), mode);
    assert.ok(request.system.endsWith(modeSystemText(mode)), mode);
  }
  assert.match(modeSystemText('plan'), /numbered list of steps/);
  assert.match(modeSystemText('ask'), /do not change anything/);
});

test('modeAllows and modeTools agree; the refusal names the tool and the mode', () => {
  for (const mode of ['agent', 'ask', 'plan'] as const) {
    assert.deepEqual(modeTools(mode, TOOLS), TOOLS.filter((t) => modeAllows(mode, t)));
  }
  assert.equal(modeAllows('ask', tool('x', 'y', { readOnlyHint: true, destructiveHint: true })), true, 'readOnlyHint decides');
  assert.match(modeRefusal('ask', 'workspace__write_file'), /^Error: workspace__write_file was not run: Ask mode allows only read-only tools/);
  assert.match(modeRefusal('plan', 'workspace__write_file'), /put the change in your plan as a step/);
  assert.equal(isMode('plan'), true);
  assert.equal(isMode('Plan'), false);
  assert.equal(isMode(undefined), false);
});

test('planSteps: top-level numbered items, both numbering styles, emphasis and colons off, fences and nested lists skipped', () => {
  const answer = [
    'Here is the plan:',
    '',
    '1. **Read** `src/cart.ts` to find the total:',
    '2) Add a `discount` field',
    '   1. nested detail, not a step',
    '   - a bullet, not a step',
    '```ts',
    '3. inside a fence, not a step',
    '```',
    '3. Write   a test for the discount',
    '',
    'Then I will run the tests.',
  ].join('\n');
  assert.deepEqual(planSteps(answer), ['Read `src/cart.ts` to find the total', 'Add a `discount` field', 'Write a test for the discount']);
  assert.deepEqual(planSteps('I would just change the constant.'), [], 'no numbered list: no steps');
  assert.deepEqual(planSteps('  1. indented list\n  2. still top level\n'), ['indented list', 'still top level']);
});

test('approvedPlanPrompt lists the steps in order, with the user\'s words when given', () => {
  const prompt = approvedPlanPrompt(['Add a field', 'Write a test']);
  assert.ok(prompt.startsWith('Carry out the approved plan.'));
  assert.match(prompt, /todo list[\s\S]*\n1\. Add a field\n2\. Write a test$/);
  assert.ok(approvedPlanPrompt(['A'], ' Go, but skip the docs. ').startsWith('Go, but skip the docs.\n\n'));
});

test('the loop in Ask mode: only the read-only tool is offered; a write call is refused before _PreToolUse and never reaches its server', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'contents', write: () => 'written', _PreToolUse: () => '' }, annotations: { read: { readOnlyHint: true }, write: { readOnlyHint: false } } }],
    settings: settings({}, { allowlist: { kind: 'names', names: ['fs'] } }),
    script: [reply.tools(call('fs__write', { path: 'a.ts' }, 'w'), call('fs__read', { path: 'a.ts' }, 'r')), reply.text('read only')],
  });
  const outcome = await h.session.run('change a.ts', undefined, { mode: 'ask' });
  assert.equal(outcome.reason, 'end_turn');
  assert.deepEqual(h.model.requests[0]?.tools.map((t) => t.name), ['fs__read']);
  assert.match(String(h.model.requests[0]?.messages[0]?.content), /Mode: Ask/);
  const results = Object.fromEntries(h.session.state.history.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content]] : [])));
  assert.equal(results.w, modeRefusal('ask', 'fs__write'));
  assert.equal(results.r, 'contents');
  assert.deepEqual(h.tools.calls.map((c) => c.tool), ['_PreToolUse', 'read'], 'the write reached no server, not even its _PreToolUse');
  assert.deepEqual(h.of('prompt_started').map((e) => e.mode), ['ask']);
});

test("approvedPlanSteps reads back the approved steps only, not numbered lines of the user's own words; none from another prompt", () => {
  const prompt = approvedPlanPrompt(['Add a field', 'Write a test'], 'Go, but:\n1. skip the docs\n2. be quick');
  assert.deepEqual(approvedPlanSteps(prompt), ['Add a field', 'Write a test']);
  assert.deepEqual(approvedPlanSteps('1. a numbered ask\n2. of my own'), []);
});
