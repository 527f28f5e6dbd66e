// Subagents (src/agent/subagents.ts, docs/hooks.md#subagents): `sprout__delegate` runs a child session
// whose final text is the call's result. The pure limits (depth 1, the parallel cap, the choices),
// then the loop over in-memory doubles: the child's own history, tools, `_SubagentStop` gate and
// events (wrapped with its id), the round cap, and the parent's cancel reaching the child.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GENERIC_AGENT, type AgentProfile } from '../../../src/agent/agentProfiles';
import type { AgentEvent } from '../../../src/agent/events';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { DELEGATE_TOOL_NAME, SubagentSlots, delegateChoices, readDelegateCall } from '../../../src/agent/subagents';
import { hangs, objects } from '../../fakes/InMemoryToolHost';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const reviewer: AgentProfile = { name: 'reviewer', description: 'Reviews code.', source: '.github/agents/reviewer.agent.md', instructions: 'Only read; report findings.', tools: ['workspace/read_file'] };

describe('the limits', () => {
  it('choices: the generic agent always, none in a subagent (depth 1), when off, without a host list, or outside Agent mode', () => {
    assert.deepEqual(delegateChoices([], true, false).map((a) => a.name), ['general']);
    assert.deepEqual(delegateChoices([reviewer, reviewer], true, false).map((a) => a.name), ['general', 'reviewer']);
    assert.deepEqual(delegateChoices([reviewer], true, true), [], 'a subagent is never offered delegate');
    assert.deepEqual(delegateChoices([reviewer], false, false), []);
    assert.deepEqual(delegateChoices(undefined, true, false), []);
    assert.deepEqual(delegateChoices([reviewer], true, false, 'plan'), []);
    const own = { ...reviewer, name: 'general' };
    assert.deepEqual(delegateChoices([own], true, false), [own], 'a custom agent named general replaces the generic one');
  });

  it('a call naming no agent, or with no task, is answered with words that say what to send', () => {
    const choices = [GENERIC_AGENT, reviewer];
    const text = (args: string): string => {
      const read = readDelegateCall({ arguments: args }, choices);
      return 'text' in read ? read.text : '';
    };
    assert.match(text('{"agent":"nobody","task":"x"}'), /no agent named "nobody". Agents: general, reviewer/);
    assert.match(text('{"agent":"reviewer","task":"  "}'), /"task" is empty/);
    assert.match(text('[1]'), /not a JSON object/);
  });

  it('slots: at most 3 at once, the next waits for a release; a waiting call ends on abort', async () => {
    const slots = new SubagentSlots(3);
    const never = new AbortController().signal;
    const held = await Promise.all([slots.acquire(never), slots.acquire(never), slots.acquire(never)]);
    assert.equal(slots.active, 3);
    let fourth = false;
    const waiting = slots.acquire(never).then((release) => ((fourth = true), release));
    const abort = new AbortController();
    const cancelled = slots.acquire(abort.signal);
    abort.abort();
    await assert.rejects(cancelled, /cancelled/);
    assert.equal(fourth, false, 'the fourth waits while three run');
    held[0]?.();
    const release = await waiting;
    assert.equal(slots.active, 3);
    release();
    held[1]?.();
    held[2]?.();
    assert.equal(slots.active, 0);
    assert.deepEqual([slots.nextId(), slots.nextId()], ['sub-1', 'sub-2']);
  });
});

const inner = (events: AgentEvent[]): AgentEvent[] => events.flatMap((e) => (e.type === 'subagent_event' ? [e.event] : []));

describe('a delegation in the loop', () => {
  it('the child works in its own context, _SubagentStop objects once, and its answer is the parent\'s tool result', async () => {
    const h = await harness({
      servers: [
        { name: 'workspace', tools: { read_file: () => 'export const x = 1;', write_file: () => 'written' } },
        { name: 'guard', tools: { _PreToolUse: () => '', _SubagentStop: objects('read it again'), _Stop: () => '' } },
      ],
      script: [
        reply.tools(call(DELEGATE_TOOL_NAME, { agent: 'reviewer', task: 'Review src/x.ts' }, 'd1')),
        reply.tools(call('workspace__read_file', { path: 'src/x.ts' }, 'c1')),
        reply.text('looks fine'),
        reply.tools(call('workspace__read_file', { path: 'src/x.ts' }, 'c2')),
        reply.text('x is exported and correct.'),
        reply.text('The reviewer says x is correct.'),
      ],
    });
    const outcome = await h.session.run('review x', undefined, { agents: [reviewer] });
    assert.equal(outcome.reason, 'end_turn');
    const [parent1, child1, , , , parent2] = h.model.requests;
    assert.ok(parent1?.tools.some((t) => t.name === DELEGATE_TOOL_NAME), 'the parent is offered delegate');
    assert.deepEqual(child1?.tools.map((t) => t.name), ['workspace__read_file'], 'the child: its agent\'s tools, no delegate (depth 1)');
    assert.match(String(child1?.messages[0]?.content), /subagent[\s\S]*Only read; report findings/);
    assert.deepEqual(child1?.messages.slice(1).map((m) => m.role), ['user'], 'the child does not see the parent\'s conversation');
    const answer = parent2?.messages.find((m) => m.role === 'tool' && m.toolCallId === 'd1');
    assert.equal(answer?.content, 'x is exported and correct.');
    assert.ok(!h.session.state.history.some((m) => m.role === 'tool' && m.toolCallId === 'c1'), 'the child\'s messages stay out of the parent\'s history');
    assert.ok(isValidHistory(h.session.state.history));

    const wrapped = h.of('subagent_event');
    assert.ok(wrapped.every((e) => e.subagent.id === 'sub-1' && e.subagent.name === 'reviewer' && e.subagent.callId === 'd1'));
    const childEvents = inner(h.events);
    assert.deepEqual(childEvents.filter((e) => e.type === 'tool_started').map((e) => (e.type === 'tool_started' ? e.callId : '')), ['c1', 'c2']);
    const objected = childEvents.find((e) => e.type === 'hook_objected');
    assert.ok(objected?.type === 'hook_objected' && objected.hook === '_SubagentStop' && objected.rejectionsUsed === 1);
    assert.equal(h.of('hook_objected').length, 0, 'the parent\'s budget is untouched');
    assert.equal(h.session.state.rejectionsUsed, 0);
    assert.ok(!childEvents.some((e) => e.type === 'text_delta'), 'streamed text stays with the child');

    const pre = h.tools.callsTo('_PreToolUse').map((c) => (c.meta?.['sprout/hook'] as { agent?: unknown }).agent);
    assert.deepEqual(pre, [{ id: 'sub-1', name: 'reviewer' }, { id: 'sub-1', name: 'reviewer' }], 'the child\'s tool hooks say which agent called');
    const stops = h.tools.callsTo('_SubagentStop').map((c) => c.meta?.['sprout/hook'] as Record<string, unknown>);
    assert.equal(stops.length, 2);
    assert.deepEqual(stops[0]?.agent, { id: 'sub-1', name: 'reviewer' });
    assert.equal(stops[0]?.prompt, 'Review src/x.ts');
    assert.equal(h.tools.callsTo('_Stop').length, 1, 'the parent\'s own end of turn asks _Stop');
  });

  it('a child that never ends is stopped at the round cap and reported; a child that calls delegate gets unknown tool', async () => {
    const h = await harness({
      servers: [{ name: 'workspace', tools: { read_file: () => 'text' } }],
      settings: settings({ maxRounds: 3 }),
      script: [
        reply.tools(call(DELEGATE_TOOL_NAME, { agent: 'general', task: 'loop' }, 'd1')),
        reply.tools(call(DELEGATE_TOOL_NAME, { agent: 'general', task: 'deeper' }, 'n1')),
        reply.tools(call('workspace__read_file', {}, 'r2')),
        reply.tools(call('workspace__read_file', {}, 'r3')),
        reply.text('giving up'),
      ],
    });
    const outcome = await h.session.run('go', undefined, { agents: [] });
    assert.equal(outcome.reason, 'end_turn');
    const childEvents = inner(h.events);
    const nested = childEvents.find((e) => e.type === 'tool_finished' && e.callId === 'n1');
    assert.ok(nested?.type === 'tool_finished' && nested.isError && /unknown tool: sprout__delegate/.test(nested.text), 'depth 1');
    const result = h.events.find((e) => e.type === 'tool_finished' && e.callId === 'd1');
    assert.ok(result?.type === 'tool_finished' && result.isError);
    assert.match(result.text, /The agent "general" \(sub-1\) did not finish within 3 rounds/);
  });

  it('cancelling the prompt stops the child mid-tool: its call is cancelled and the parent ends cancelled', async () => {
    const abort = new AbortController();
    const h = await harness({
      // The child's tool is running (the server has the call) when the user stops the prompt.
      servers: [{ name: 'workspace', tools: { run_command: (args, options) => (queueMicrotask(() => abort.abort()), hangs(args, options)) } }],
      script: [reply.tools(call(DELEGATE_TOOL_NAME, { agent: 'general', task: 'build' }, 'd1')), reply.tools(call('workspace__run_command', {}, 'c1'))],
    });
    const outcome = await h.session.run('go', abort.signal, { agents: [] });
    assert.equal(outcome.reason, 'cancelled');
    assert.equal(h.tools.callsTo('run_command')[0]?.cancelled, true, 'the child\'s tool call was cancelled');
    const childOutcome = inner(h.events).find((e) => e.type === 'outcome');
    assert.ok(childOutcome?.type === 'outcome' && childOutcome.outcome.reason === 'cancelled');
    assert.ok(isValidHistory(h.session.state.history));
  });
});
