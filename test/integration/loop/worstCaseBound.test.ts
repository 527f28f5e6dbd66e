// SPEC 4's bound, demonstrated: with a pack of hostile hook servers allowlisted at once (one objecting
// slowly every time, the others crashing, flooding both pipes, exiting mid-call, answering 1 MB,
// hanging while ignoring SIGTERM with a grandchild and coming back only slowly after the kill, never
// answering tools/list, or never answering initialize) a prompt with the repeated end-turn rule off
// still ends within maxRejections x (timeout + one model round) plus the final model round and one
// server-ready grace, under the product's default restart backoff and connect timeout.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { isAlive, killPids, waitFor } from '../mcp/mcpHarness';
import { openRig, type Rig } from './loopHarness';

let rig: Rig | undefined;
const leftovers: number[] = [];
const pidDir = mkdtempSync(join(tmpdir(), 'sprout-bound-'));
const grandchildFile = join(pidDir, 'grandchild.pid');
afterEach(async () => {
  try {
    await rig?.close();
  } finally {
    rig = undefined;
    if (existsSync(grandchildFile)) leftovers.push(Number(readFileSync(grandchildFile, 'utf8')));
    killPids(leftovers.splice(0));
    rmSync(pidDir, { recursive: true, force: true });
  }
});

const TIMEOUT_MS = 700;
const MAX_REJECTIONS = 3;
/** Far longer than the whole bound: waiting for this restart anywhere in the loop would show. */
const SLOW_RESTART_MS = 12_000;
/** Longer than the product's 30 s connect timeout: a server that is never ready. */
const SILENT_MS = 60_000;
const GRACE_MS = 1000;

test('hostile hook servers cannot stretch a prompt past maxRejections x (timeout + one model round)', async () => {
  rig = await openRig({
    servers: [
      { name: 'objector', config: { hooks: { _Stop: { kind: 'delay', ms: TIMEOUT_MS - 250, text: 'still not done' } } } },
      { name: 'crasher', config: { hooks: { _Stop: { kind: 'crash', exitCode: 4 } } } },
      { name: 'flooder', config: { hooks: { _Stop: { kind: 'flood', bytes: 2 * 1024 * 1024, then: 'hang' } } } },
      { name: 'quitter', config: { hooks: { _Stop: { kind: 'exitMidCall' } } } },
      { name: 'huge', config: { hooks: { _Stop: { kind: 'bigText', bytes: 1024 * 1024 } } } },
      {
        name: 'stubborn',
        config: { ignoreSigterm: true, restartDelayMs: SLOW_RESTART_MS, hooks: { _Stop: { kind: 'spawnGrandchild', pidFile: grandchildFile } } },
      },
      { name: 'slowlister', config: { listToolsDelayMs: SILENT_MS, hooks: { _Stop: { kind: 'object', text: 'never heard' } } } },
      { name: 'mute', config: { startDelayMs: SILENT_MS, hooks: { _Stop: { kind: 'object', text: 'never heard' } } } },
    ],
    settings: { serverReadyGraceMs: GRACE_MS, firstPromptServerWaitMs: GRACE_MS },
    hooks: { timeoutMs: TIMEOUT_MS, stopMaxRejections: MAX_REJECTIONS, repeatedEndTurnStops: false },
    // The product's defaults: backoff from 500 ms, doubling, capped at 8 s.
    hub: { closeGraceMs: 500 },
    responses: Array.from({ length: MAX_REJECTIONS + 1 }, (_, i) => fakeReply.text(`attempt ${i + 1}`)),
  });
  // The first start of every server is set-up, not part of the prompt's bound; the two that are never
  // ready get a few seconds here, and are then not waited for again.
  await rig.runtime.hub.listTools(undefined, { waitMs: 8000 });
  const roundStarts: number[] = [];
  const modelRounds: number[] = [];
  rig.runtime.session.subscribe((event) => {
    if (event.type === 'round_started') roundStarts.push(Date.now());
    if (event.type === 'usage') modelRounds.push(Date.now() - (roundStarts.at(-1) ?? Date.now()));
  });

  const started = Date.now();
  const outcome = await rig.runtime.session.run('finish the job');
  const took = Date.now() - started;

  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved?.cause, 'budget_exhausted');
  assert.equal(rig.runtime.session.state.rejectionsUsed, MAX_REJECTIONS);
  assert.equal(rig.fake.chatRequests().length, MAX_REJECTIONS + 1);
  const modelRound = Math.max(...modelRounds);
  const bound = MAX_REJECTIONS * (TIMEOUT_MS + modelRound) + modelRound + GRACE_MS;
  // Generous slack for a noisy 2-core box (kills, JSON of 1 MB); still far below one slow restart.
  assert.ok(took < bound + 5000, `the prompt took ${took} ms; the SPEC bound is ${bound} ms`);

  // What reached the model is capped and wrapped; the failing servers never counted as objections.
  const objectors = new Set(rig.of('hook_objected').map((e) => e.server));
  assert.deepEqual([...objectors].sort(), ['huge', 'objector']);
  const huge = rig.of('hook_objected').find((e) => e.server === 'huge');
  assert.ok(Buffer.byteLength(huge?.text ?? '') <= 16 * 1024 + 20 && huge?.text.endsWith('\n[content truncated]'));
  assert.equal(rig.of('server_killed').filter((e) => e.server === 'stubborn').length, 1, 'killed on its second consecutive timeout');
  assert.ok(rig.of('server_killed').some((e) => e.server === 'flooder'), 'the flooding hang was killed too');
  // The never-ready servers offered no tools and no hooks: nothing of theirs was waited for or called.
  const offered = rig.chatBodies().flatMap((b) => (b.tools ?? []).map((t) => t.function.name));
  assert.ok(!offered.some((name) => name.startsWith('slowlister__') || name.startsWith('mute__')));

  const stubbornPids = rig.log('stubborn').flatMap((e) => (e.type === 'started' ? [e.pid] : []));
  leftovers.push(...stubbornPids);
  const grandchild = Number(readFileSync(grandchildFile, 'utf8'));
  leftovers.push(grandchild);
  await waitFor(() => !isAlive(stubbornPids[0] ?? NaN) && !isAlive(grandchild), 'the killed server and its grandchild to be gone', 10_000);
});
