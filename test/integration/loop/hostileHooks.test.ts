// The promise of docs/hooks.md#sovereignty-timeouts-kills-budgets, end to end: no hook server, however broken or malicious, traps the agent. Each
// prompt ends whatever the hook does (crash, exit mid-call, isError, whitespace, image, 100 KB,
// hostile text, ignoring SIGTERM, spawning a grandchild), and what does reach the model is capped and
// JSON-wrapped. A hang is ended by the hook timeout; no test measures how long that took.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { HOSTILE_TEXT, type HookBehaviour } from '../../fakes/hookServer';
import { isAlive, killPids, waitFor } from '../mcp/mcpHarness';
import { openRig, type Rig } from './loopHarness';

let rig: Rig | undefined;
const leftovers: number[] = [];
afterEach(async () => {
  try {
    await rig?.close();
  } finally {
    rig = undefined;
    killPids(leftovers.splice(0));
  }
});

const TIMEOUT_MS = 600;

/**
 * One prompt whose `_Stop` hooks behave as `behaviours` (server name: behaviour): the turn must end
 * with nothing objected and one model call; what each hook's call came to, by server.
 */
async function stopHookResults(behaviours: Record<string, HookBehaviour>, timeoutMs: number): Promise<Record<string, string>> {
  rig = await openRig({
    servers: Object.entries(behaviours).map(([name, behaviour]) => ({ name, config: { hooks: { _Stop: behaviour } } })),
    hooks: { timeoutMs },
    responses: [fakeReply.text('done')],
  });
  await rig.runtime.hub.listTools();
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved, undefined);
  assert.equal(rig.of('hook_objected').length, 0);
  assert.equal(rig.fake.chatRequests().length, 1);
  return Object.fromEntries(rig.of('hook_finished').map((e) => [e.server, e.result]));
}

test('failing hooks are no objection: crash, exit mid-call, isError, whitespace', async () => {
  // A hook timeout of hours: a server that exits mid-call must be seen as an error however slow the
  // machine, and a failure the agent did not notice would hold the turn until the test's hang guard.
  const behaviours: Record<string, HookBehaviour> = {
    crash: { kind: 'crash', exitCode: 7 },
    midcall: { kind: 'exitMidCall' },
    iserror: { kind: 'isError', text: 'I object loudly but as an error' },
    blank: { kind: 'whitespace' },
  };
  assert.deepEqual(await stopHookResults(behaviours, 6 * 3_600_000), { crash: 'error', midcall: 'error', iserror: 'error', blank: 'no_objection' });
});

test('a hook that hangs is no objection either: its timeout ends the turn', async () => {
  // The hang never ends: that the turn ends at all shows the timeout released it (the test's hang
  // guard fails it otherwise), and the result says it was the timeout.
  assert.deepEqual(await stopHookResults({ hang: { kind: 'hang' }, blank: { kind: 'whitespace' } }, TIMEOUT_MS), { hang: 'timeout', blank: 'no_objection' });
});

test('image, 100 KB and hostile text reach the model capped and JSON-wrapped', async () => {
  rig = await openRig({
    servers: [
      { name: 'img', config: { hooks: { _Stop: { kind: 'image', mimeType: 'image/png', bytes: 2048 } } } },
      { name: 'huge', config: { hooks: { _Stop: { kind: 'bigText', bytes: 100 * 1024 } } } },
      { name: 'evil', config: { hooks: { _Stop: { kind: 'hostile' } } } },
    ],
    hooks: { timeoutMs: 5000, stopMaxRejections: 1 },
    responses: [fakeReply.text('done'), fakeReply.text('still done')],
  });
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const tools = rig.messages(1).filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)) as { server: string; text: string });
  assert.deepEqual(tools.map((t) => t.server), ['img', 'huge', 'evil']);
  assert.equal(tools[0]?.text, '[image: image/png, 2048 bytes]');
  assert.ok(Buffer.byteLength(tools[1]?.text ?? '') <= 16 * 1024 + 40, 'capped at 16 KiB plus the marker');
  assert.ok(tools[1]?.text.endsWith('\n[content truncated]'));
  assert.equal(tools[2]?.text, HOSTILE_TEXT.trim());
  const roles = rig.messages(1).map((m) => m.role);
  assert.deepEqual(roles, ['user', 'assistant', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool'], 'no injected role');
});

// The grandchild case (its pid checked gone) is in hookTimeouts.test.ts.
test('a hanging hook that ignores SIGTERM is killed on the second timeout; the agent moves on', async () => {
  rig = await openRig({
    servers: [{ name: 'bad', config: { ignoreSigterm: true, hooks: { _Stop: { kind: 'hang' } } } }],
    hooks: { timeoutMs: TIMEOUT_MS, stopMaxRejections: 3 },
    responses: [fakeReply.text('one'), fakeReply.text('two')],
  });
  // The hang never ends and the server ignores SIGTERM: that both prompts end at all shows the
  // timeouts released them (the test's hang guard fails them otherwise); the kill is an event.
  const first = await rig.runtime.session.run('first');
  const serverPid = rig.log('bad').find((e) => e.type === 'started')?.pid ?? NaN;
  leftovers.push(serverPid);
  const second = await rig.runtime.session.run('second');
  assert.deepEqual([first.reason, second.reason], ['end_turn', 'end_turn']);
  assert.deepEqual(rig.of('hook_timed_out').map((e) => e.consecutive), [1, 2]);
  assert.equal(rig.of('server_killed').length, 1);
  await waitFor(() => !isAlive(serverPid), 'the SIGTERM-ignoring server is gone', 10_000);
});
