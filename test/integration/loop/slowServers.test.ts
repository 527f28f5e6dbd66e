// Servers that are not ready do not hold a prompt: the first prompt waits at most the startup wait and
// says which servers it waits for, later rounds at most the grace, a server that comes up late joins
// the next round (tools_changed), and a hook call to a server still (re)connecting counts as a timeout.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { scaleAtLoadNow } from '../../loadScale';
import { waitFor } from '../mcp/mcpHarness';
import { openRig, type Rig } from './loopHarness';

// The startup wait is written for an idle machine and stretched by how loaded it is when the file
// starts, so the good server can start within it. Nothing is timed: what a prompt must not wait for
// (the late server's start, a restart, the connect timeout) takes hours or until the test lets it go,
// so a prompt that waited for it would fail by the test's hang guard.
const ms = scaleAtLoadNow();
const HOURS = 6 * 3_600_000;

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test('the first prompt waits at most the startup wait, names the slow server, and it joins a later round', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-late-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gate = join(dir, 'go');
  rig = await openRig({
    servers: [{ name: 'good' }, { name: 'late', config: { startWhenExists: gate } }],
    settings: { firstPromptServerWaitMs: ms(3000), serverReadyGraceMs: 300 },
    // The rig's fast restarts, and a connect timeout of hours, so the late server is late, not failed.
    hub: { restart: { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 5 }, closeGraceMs: 500, connectTimeoutMs: HOURS },
    responses: [fakeReply.text('first answer'), fakeReply.toolCalls([{ name: 'late__echo', arguments: { text: 'joined' } }]), fakeReply.text('done')],
  });
  const first = await rig.runtime.session.run('hello');
  assert.equal(first.reason, 'end_turn');
  const waiting = rig.of('servers_waiting');
  assert.equal(waiting.length, 1);
  assert.ok(waiting[0]?.servers.includes('late') && waiting[0].waitMs === ms(3000), JSON.stringify(waiting));
  const waited = rig.of('servers_waited');
  assert.equal(waited.length, 1, 'the announced wait says how it ended');
  assert.deepEqual(waited[0]?.late, ['late'], 'the round went on without the late server');
  assert.ok((waited[0]?.waitedMs ?? 0) >= ms(3000) - 100, `it waited the startup wait: ${JSON.stringify(waited)}`);
  const offered = (n: number) => (rig?.chatBodies()[n]?.tools ?? []).map((t) => t.function.name);
  assert.deepEqual(offered(0), ['good__echo']);

  writeFileSync(gate, '');
  await waitFor(() => rig?.of('tools_changed').some((e) => e.server === 'late'), 'the late server to join', 20_000);
  const second = await rig.runtime.session.run('now use it');
  assert.equal(second.reason, 'end_turn');
  assert.deepEqual(offered(1), ['good__echo', 'late__echo']);
  assert.equal(rig.of('tool_finished')[0]?.text, 'joined');
  assert.equal(rig.of('servers_waiting').length, 1, 'only the first listing of the session announces a wait');
});

test('a _Stop call to a hook server that is still restarting counts as a timeout, and the prompt goes on', async () => {
  rig = await openRig({
    servers: [{ name: 'hooky', config: { restartDelayMs: HOURS, hooks: { _Stop: { kind: 'object', text: 'not yet' } } } }],
    hooks: { timeoutMs: 600 },
    settings: { serverReadyGraceMs: 300 },
    hub: { restart: { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 5 }, closeGraceMs: 500, connectTimeoutMs: HOURS },
    responses: [fakeReply.text('finished')],
  });
  await rig.runtime.hub.listTools();
  await rig.runtime.hub.killServer('hooky', 'test: make it restart');
  const outcome = await rig.runtime.session.run('finish');
  assert.equal(outcome.reason, 'end_turn');
  assert.deepEqual(
    rig.of('hook_finished').map((e) => [e.server, e.result]),
    [['hooky', 'timeout']],
  );
  assert.equal(rig.of('hook_timed_out')[0]?.consecutive, 1);
});
