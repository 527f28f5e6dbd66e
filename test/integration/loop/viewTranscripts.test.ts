// The transcripts the views' state tests replay (test/unit/extension/viewStates.test.ts), recorded from
// the real loop: the agent core, the real `openai` client against the fake Chat Completions server and
// FakeHookServer child processes. Each test plays one story a user sees in the chat and the Hooks view,
// checks its outcome, then records the transcript as a fixture (SPROUT_RECORD_TRANSCRIPTS=1) or checks
// that the core still emits what the fixture holds (recordedTranscripts.ts).
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { AgentSession } from '../../../src/agent/session';
import { ApprovalToolHost } from '../../../src/extension/approvals/approvalToolHost';
import { nodeClock } from '../../../src/platform/nodeClock';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { InMemoryTranscriptStore } from '../../fakes/InMemoryTranscriptStore';
import { openRig, rigSettings, type Rig, type RigOptions } from './loopHarness';
import { CART_FAILURES, recordOrCheck } from './recordedTranscripts';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const echo = (text: string) => ({ name: 'tests__echo', arguments: { text } });

/** Opens the rig with a transcript, runs `prompt`, ends the session as the CLI does, and returns the transcript. */
async function record(options: RigOptions, prompt: string): Promise<{ store: InMemoryTranscriptStore; rig: Rig }> {
  const store = new InMemoryTranscriptStore();
  rig = await openRig({ ...options, transcript: store });
  // Started before the prompt, so however slowly a busy machine starts them, no round goes on without them.
  await rig.runtime.hub.listTools();
  await rig.runtime.session.run(prompt);
  await rig.runtime.session.end('exit');
  return { store, rig };
}

test('stop-complied: a completion check objects with failing tests, the model works, the check passes', async () => {
  const { store, rig: r } = await record(
    {
      servers: [{ name: 'tests', config: { hooks: { _Stop: { kind: 'testVerdict', failures: CART_FAILURES, passed: 3, times: 1 } } } }],
      responses: [fakeReply.text('Done.'), fakeReply.toolCalls([echo('fixing the total')]), fakeReply.text('Fixed the total.')],
    },
    'Fix the cart tests.',
  );
  assert.deepEqual(r.of('outcome').map((e) => [e.outcome.reason, e.outcome.unresolved]), [['end_turn', undefined]]);
  assert.deepEqual(r.of('hook_objected').map((e) => e.failures?.map((f) => f.name)), [CART_FAILURES.map((f) => f.name)]);
  recordOrCheck('stop-complied', store.records, r.dir);
});

test('stop-declined: the model works on one objection, then ends again without acting on the next', async () => {
  const { store, rig: r } = await record(
    {
      servers: [{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: 'Objection {n}: the changelog is not updated.' } } } }],
      hooks: { stopMaxRejections: 3, repeatedEndTurnStops: true },
      responses: [fakeReply.text('Done.'), fakeReply.toolCalls([{ name: 'nag__echo', arguments: { text: 'updating' } }]), fakeReply.text('Done now.'), fakeReply.text('It is done.')],
    },
    'Release it.',
  );
  assert.deepEqual(r.of('objection_resolved').map((e) => e.resolution), ['complied', 'declined']);
  assert.equal(r.of('outcome')[0]?.outcome.unresolved?.cause, 'declined');
  recordOrCheck('stop-declined', store.records, r.dir);
});

test('stop-budget-spent: a per-prompt budget of one is spent and the final verdict still objects', async () => {
  const { store, rig: r } = await record(
    {
      servers: [{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: 'Not done: 2 todo items open.' } } } }],
      hooks: { stopMaxRejections: 1, repeatedEndTurnStops: false, stopBudgetScope: 'prompt' },
      responses: [fakeReply.text('One.'), fakeReply.text('Two.')],
    },
    'Finish the list.',
  );
  assert.equal(r.of('outcome')[0]?.outcome.unresolved?.cause, 'budget_exhausted');
  assert.deepEqual(r.of('hook_objected').map((e) => e.scope), ['prompt']);
  recordOrCheck('stop-budget-spent', store.records, r.dir);
});

test('tool-hooks: session and prompt context injected, a tool check blocks one call and lets the next run', async () => {
  const { store, rig: r } = await record(
    {
      servers: [
        {
          name: 'guard',
          config: {
            hooks: {
              _SessionStart: { kind: 'text', text: 'Project rules: keep diffs small.' },
              _UserPromptSubmit: { kind: 'text', text: 'The user prefers TypeScript.' },
              _PreToolUse: { kind: 'ifMeta', key: 'arguments', value: { text: 'rm -rf /' }, then: { kind: 'text', text: 'no rm -rf here' } },
              _PostToolUse: { kind: 'empty' },
              _SessionEnd: { kind: 'empty' },
            },
          },
        },
      ],
      responses: [
        fakeReply.toolCalls([{ name: 'guard__echo', arguments: { text: 'rm -rf /' } }]),
        fakeReply.toolCalls([{ name: 'guard__echo', arguments: { text: 'ls' } }]),
        fakeReply.text('Listed.'),
      ],
    },
    'Clean up the build folder.',
  );
  assert.deepEqual(r.of('tool_denied').map((e) => e.server), ['guard']);
  assert.deepEqual(r.of('hook_injected').map((e) => e.hook), ['_SessionStart', '_UserPromptSubmit']);
  recordOrCheck('tool-hooks', store.records, r.dir);
});

test('approvals: the user allows one call and denies the next', async () => {
  rig = await openRig({
    servers: [{ name: 'work', config: {} }],
    responses: [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'first' } }]), fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'second' } }]), fakeReply.text('Done.')],
  });
  await rig.runtime.hub.listTools();
  const answers = ['once', 'deny'] as const;
  let asked = 0;
  const tools = new ApprovalToolHost(rig.runtime.hub, {
    autoApproved: () => false,
    protectedTarget: () => undefined,
    ask: async () => answers[asked++] ?? 'deny',
    allowInWorkspace: async () => undefined,
  });
  const store = new InMemoryTranscriptStore();
  const session = await AgentSession.open({ sessionId: 'approvals', settings: rigSettings(), model: rig.runtime.model, tools, clock: nodeClock, transcript: store });
  try {
    await session.run('Echo twice.');
  } finally {
    session.dispose();
  }
  assert.equal(asked, 2);
  recordOrCheck('approvals', store.records, rig.dir);
});
