// docs/hooks.md#sovereignty-timeouts-kills-budgets end to end: a hung hook releases the agent on time and is sent notifications/cancelled; the
// second consecutive timeout kills the server's whole process group (grandchild included) and a later
// call restarts it; a completed reply in between resets the counter; cancel during a hook is prompt
// and leaves a valid history.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { isAlive, killPids, waitFor } from '../mcp/mcpHarness';
import { openRig, rigSettings, waitUntil, type Rig } from './loopHarness';

let rig: Rig | undefined;
const leftovers: number[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  try {
    await rig?.close();
  } finally {
    rig = undefined;
    killPids(leftovers.splice(0));
    for (const cleanup of cleanups.splice(0)) cleanup();
  }
});

test('a hung _Stop hook releases the agent after the timeout and gets notifications/cancelled', async () => {
  rig = await openRig({
    servers: [{ name: 'stuck', config: { hooks: { _Stop: { kind: 'hang' } } } }],
    hooks: { timeoutMs: 500 },
    responses: [fakeReply.text('done')],
  });
  await rig.runtime.hub.listTools();
  // The hang never ends: that the run ends at all shows the release (the test's hang guard fails it
  // otherwise), and the events below show it was the timeout that released it.
  const outcome = await rig.runtime.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  assert.deepEqual(rig.of('hook_timed_out').map((e) => e.consecutive), [1]);
  assert.deepEqual(rig.of('hook_finished').map((e) => e.result), ['timeout']);
  await waitUntil(() => (rig?.log('stuck') ?? []).some((e) => e.type === 'cancelled'), 'notifications/cancelled at the server');
});

test('the second consecutive timeout kills the whole process group; a later call restarts the server', async () => {
  const pidDir = mkdtempSync(join(tmpdir(), 'sprout-gc-'));
  cleanups.push(() => rmSync(pidDir, { recursive: true, force: true }));
  const pidFile = join(pidDir, 'grandchild.pid');
  rig = await openRig({
    servers: [{ name: 'stuck', config: { ignoreSigterm: true, hooks: { _Stop: { kind: 'spawnGrandchild', pidFile } } } }],
    hooks: { timeoutMs: 400 },
    responses: [fakeReply.text('one'), fakeReply.text('two'), fakeReply.toolCalls([{ name: 'stuck__echo', arguments: { text: 'back' } }]), fakeReply.text('three')],
  });
  await rig.runtime.session.run('first');
  const grandchild = await waitFor(() => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')), 'grandchild pid');
  const serverPid = rig.log('stuck').find((e) => e.type === 'started')?.pid ?? NaN;
  leftovers.push(grandchild, serverPid);
  assert.equal(rig.of('server_killed').length, 0, 'one timeout is not enough to kill');
  await rig.runtime.session.run('second');
  assert.deepEqual(rig.of('hook_timed_out').map((e) => e.consecutive), [1, 2]);
  assert.equal(rig.of('server_killed').length, 1);
  assert.match(rig.of('server_killed')[0]?.reason ?? '', /state .* is lost/);
  await waitFor(() => !isAlive(serverPid) && !isAlive(grandchild), 'server and grandchild gone', 10_000);

  const third = await rig.runtime.session.run('third');
  assert.equal(third.reason, 'end_turn');
  const toolResult = rig.messages(3).find((m) => m.role === 'tool');
  assert.equal(toolResult?.content, 'back', 'the echo call reached a restarted server');
  const starts = rig.log('stuck').filter((e) => e.type === 'started');
  assert.ok(starts.length >= 2 && starts.at(-1)?.pid !== serverPid, 'a new server process started');
  for (const pid of starts.map((e) => e.pid)) leftovers.push(pid);
  if (existsSync(pidFile)) leftovers.push(Number(readFileSync(pidFile, 'utf8')));
});

test('a completed reply (here _PostCompact) resets the consecutive-timeout counter', async () => {
  // _Stop hangs and must time out; _PostCompact must answer, however slow the machine: it is called
  // with a hook timeout of hours, and the timeout goes back to short as soon as it has answered (the
  // timeout is read as each hook call starts, and the session's listeners run as the event is emitted).
  const settings = { contextWindowTokens: 1000, compactThreshold: 0.5 };
  const short = rigSettings(settings, { timeoutMs: 500 });
  const hours = rigSettings(settings, { timeoutMs: 6 * 3_600_000 });
  rig = await openRig({
    servers: [{ name: 'flaky', config: { hooks: { _Stop: { kind: 'hang' }, _PostCompact: { kind: 'text', text: 'remember the plan' } } } }],
    hooks: short.hooks,
    settings,
    responses: [
      fakeReply.text('one', { usage: { prompt_tokens: 900, completion_tokens: 5 } }),
      fakeReply.text('Summary: the task is go; next step: continue.'),
      fakeReply.text('two', { usage: { prompt_tokens: 100, completion_tokens: 5 } }),
    ],
  });
  const session = rig.runtime.session;
  await session.run('first');
  session.updateSettings(hours);
  session.subscribe((event) => {
    if (event.type === 'hook_finished' && event.hook === '_PostCompact') session.updateSettings(short);
  });
  await session.run('second');
  assert.equal(rig.of('compaction').length, 1, 'the second prompt compacted first');
  assert.deepEqual(rig.of('compaction')[0]?.injected, [{ server: 'flaky', text: 'remember the plan' }]);
  assert.deepEqual(rig.of('hook_finished').map((e) => `${e.hook}:${e.result}`), ['_Stop:timeout', '_PostCompact:objection', '_Stop:timeout']);
  assert.deepEqual(rig.of('hook_timed_out').map((e) => e.consecutive), [1, 1]);
  assert.equal(rig.of('server_killed').length, 0);
});

test('cancel during a hook ends the prompt at once with a history valid for the next prompt', async () => {
  rig = await openRig({
    servers: [{ name: 'stuck', config: { hooks: { _Stop: { kind: 'hang' } } } }],
    // A hook timeout of hours (tool calls have no timeout of their own): only the cancel can end the
    // hook call before the test's hang guard fails it.
    hooks: { timeoutMs: 6 * 3_600_000 },
    responses: [fakeReply.text('done?'), fakeReply.text('next answer')],
  });
  const controller = new AbortController();
  const run = rig.runtime.session.run('go', controller.signal);
  await waitUntil(() => (rig?.calls('stuck', '_Stop').length ?? 0) > 0, 'the hook call at the server');
  controller.abort();
  const outcome = await run;
  assert.equal(outcome.reason, 'cancelled');
  assert.deepEqual(rig.of('hook_timed_out'), [], 'the cancel, not the hook timeout, ended the call');
  await waitUntil(() => (rig?.log('stuck') ?? []).some((e) => e.type === 'cancelled'), 'notifications/cancelled at the server');
  // The next prompt must be accepted by the API: the cancelled turn left nothing unanswered.
  rig.runtime.session.updateSettings({ ...rigSettings(), hooks: { ...rigSettings().hooks, stopMaxRejections: 0 } });
  const next = await rig.runtime.session.run('again');
  assert.equal(next.reason, 'end_turn');
  assert.equal(rig.fake.chatRequests().length, 2);
  assert.deepEqual(rig.messages(1).at(-1), { role: 'user', content: 'again' });
});
