import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HookCaller } from '../../../src/agent/hookCaller';
import { EVIDENCE_MAX_FAILURES, hookEvidence } from '../../../src/agent/hookEvidence';
import type { AgentEvent } from '../../../src/agent/events';
import { collectObjections } from '../../../src/agent/stopGateRules';
import { NodeClock } from '../../../src/platform/nodeClock';
import { InMemoryToolHost } from '../../fakes/InMemoryToolHost';

const context = { sessionId: 's', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false };

test('hook evidence keeps the monorepo package of a failure and the verdicts that are not a pass', () => {
  const evidence = hookEvidence({ status: 'no_tests', failures: [{ name: 'adds', file: 'packages/core/a.test.js', message: '', package: '@d/core' }, { name: 'b', message: '', package: 7 }] });
  assert.equal(evidence?.status, 'no_tests');
  assert.deepEqual(evidence?.failures, [{ name: 'adds', file: 'packages/core/a.test.js', message: '', package: '@d/core' }, { name: 'b', message: '' }]);
  assert.equal(hookEvidence({ status: 'could_not_run', failures: [] })?.status, 'could_not_run');
});

test('hook evidence keeps well-typed verdicts and failures, caps them, and drops the rest', () => {
  assert.equal(hookEvidence(undefined), undefined);
  assert.equal(hookEvidence([{ name: 'x' }]), undefined);
  assert.equal(hookEvidence({ unrelated: true }), undefined, 'structured content that is not evidence');
  const evidence = hookEvidence({
    status: 'failed',
    passed: 3,
    failed: -1,
    skipped: '2',
    stale: false,
    command: 'npm test',
    failures: [
      { name: 'adds', file: 'math.test.js', line: 4, message: 'expected 4\nactual 0' },
      { name: '', message: 'nameless' },
      { name: 'no location', line: 0, file: 7, message: 42 },
      'junk',
      { name: 'x'.repeat(2000), message: 'y'.repeat(10_000) },
    ],
  });
  assert.ok(evidence);
  assert.deepEqual({ ...evidence, failures: evidence.failures.slice(0, 2) }, {
    status: 'failed',
    passed: 3,
    stale: false,
    command: 'npm test',
    failures: [
      { name: 'adds', file: 'math.test.js', line: 4, message: 'expected 4\nactual 0' },
      { name: 'no location', message: '' },
    ],
  });
  assert.equal(evidence.failures[2]?.name.length, 500);
  assert.equal(evidence.failures[2]?.message.length, 4000);
  const many = hookEvidence({ status: 'failed', failures: Array.from({ length: 80 }, (_, i) => ({ name: `t${i}`, message: 'm'.repeat(4000) })) });
  assert.equal(many?.failures.length, EVIDENCE_MAX_FAILURES);
  const total = many?.failures.reduce((sum, f) => sum + f.message.length, 0) ?? 0;
  assert.equal(total, 16 * 1024, 'all messages together stay within 16 KiB');
  assert.equal(many?.failures.at(-1)?.message, '', 'past the total, a failure keeps its name only');
  assert.equal(hookEvidence({ status: 'exploded' }), undefined, 'an unknown verdict is not evidence');
});

test('a hook reply with structured content carries its evidence to hook_finished and to the objection', async () => {
  const structured = { status: 'failed', failed: 1, failures: [{ name: 'adds', file: 'math.test.js', line: 4, message: 'two plus two' }] };
  const tools = new InMemoryToolHost([
    { name: 'tests', tools: { _Stop: () => ({ isError: false, text: 'The tests fail.', structured }) } },
    { name: 'plain', tools: { _Stop: () => 'Keep going.' } },
  ]);
  const events: AgentEvent[] = [];
  const caller = new HookCaller({ tools, clock: new NodeClock(), emit: (e) => events.push(e), timeoutMs: () => 1000 });
  const outcomes = [await caller.call('tests', '_Stop', context), await caller.call('plain', '_Stop', context)];
  assert.deepEqual(outcomes[0]?.evidence, { status: 'failed', failed: 1, failures: structured.failures });
  const finished = events.filter((e) => e.type === 'hook_finished');
  assert.deepEqual(finished.map((e) => (e.type === 'hook_finished' ? e.evidence?.status : 'n/a')), ['failed', undefined]);
  assert.deepEqual(collectObjections(outcomes, ['tests', 'plain']), [
    { server: 'tests', text: 'The tests fail.', failures: structured.failures },
    { server: 'plain', text: 'Keep going.' },
  ]);
});
