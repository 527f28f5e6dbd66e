// The bound of docs/hooks.md#sovereignty-timeouts-kills-budgets, demonstrated: with a pack of hostile hook servers allowlisted at once (one objecting
// slowly every time, the others crashing, flooding both pipes, exiting mid-call, answering 1 MB,
// hanging while ignoring SIGTERM with a grandchild and coming back only slowly after the kill, never
// answering tools/list, or never answering initialize) a prompt with the repeated end-turn rule off
// still ends within maxRejections x (timeout + one model round) plus the final model round, one more
// timeout for the final verdict and one server-ready grace, under the product's default restart
// backoff and connect timeout. The same pack exposing every lifecycle hook costs at most one hook
// timeout per hook point the prompt passes (start, prompt submit, before and after each tool round,
// each gate round, the verdict, the session's end).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import type { HookBehaviour } from '../../fakes/hookServer';
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
    rmSync(grandchildFile, { force: true });
  }
});
after(() => rmSync(pidDir, { recursive: true, force: true }));

const TIMEOUT_MS = 700;
const MAX_REJECTIONS = 3;
/** Far longer than the whole bound: waiting for this restart anywhere in the loop would show. */
const SLOW_RESTART_MS = 12_000;
/** Longer than the product's 30 s connect timeout: a server that is never ready. */
const SILENT_MS = 60_000;
const GRACE_MS = 1000;

/**
 * Starts every server (their first start is set-up, not part of the bound; `waitMs` caps the wait for
 * those never ready); returns each model round's duration as it happens.
 */
async function startAndTimeRounds(r: Rig, waitMs?: number): Promise<number[]> {
  await r.runtime.hub.listTools(undefined, waitMs === undefined ? {} : { waitMs });
  const roundStarts: number[] = [];
  const modelRounds: number[] = [];
  r.runtime.session.subscribe((event) => {
    if (event.type === 'round_started') roundStarts.push(Date.now());
    if (event.type === 'usage') modelRounds.push(Date.now() - (roundStarts.at(-1) ?? Date.now()));
  });
  return modelRounds;
}

/** The SIGTERM-ignoring server and the grandchild it spawned were really killed. */
async function assertStubbornGone(r: Rig): Promise<void> {
  const stubbornPids = r.log('stubborn').flatMap((e) => (e.type === 'started' ? [e.pid] : []));
  leftovers.push(...stubbornPids);
  const grandchild = Number(readFileSync(grandchildFile, 'utf8'));
  leftovers.push(grandchild);
  await waitFor(() => !isAlive(stubbornPids[0] ?? NaN) && !isAlive(grandchild), 'the killed server and its grandchild to be gone', 10_000);
}

test('hostile hook servers cannot stretch a prompt past maxRejections x (timeout + one model round) plus the verdict', async () => {
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
  // The two never-ready servers get a few seconds here, and are then not waited for again.
  const modelRounds = await startAndTimeRounds(rig, 8000);

  const started = Date.now();
  const outcome = await rig.runtime.session.run('finish the job');
  const took = Date.now() - started;

  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved?.cause, 'budget_exhausted');
  assert.equal(rig.runtime.session.state.rejectionsUsed, MAX_REJECTIONS);
  assert.equal(rig.fake.chatRequests().length, MAX_REJECTIONS + 1);
  const modelRound = Math.max(...modelRounds);
  // The final verdict (budget spent) is one more parallel round of _Stop calls, one more timeout at most.
  const bound = MAX_REJECTIONS * (TIMEOUT_MS + modelRound) + modelRound + TIMEOUT_MS + GRACE_MS;
  // Generous slack for a noisy 2-core box (kills, JSON of 1 MB); still far below one slow restart.
  assert.ok(took < bound + 5000, `the prompt took ${took} ms; the contract's bound is ${bound} ms`);

  // What reached the model is capped and wrapped; the failing servers never counted as objections.
  const objectors = new Set(rig.of('hook_objected').map((e) => e.server));
  assert.deepEqual([...objectors].sort(), ['huge', 'objector']);
  const huge = rig.of('hook_objected').find((e) => e.server === 'huge');
  assert.ok(Buffer.byteLength(huge?.text ?? '') <= 16 * 1024 + 20 && huge?.text.endsWith('\n[content truncated]'));
  // Four _Stop rounds (three gate rounds and the verdict), all timing out: killed on the second and the fourth.
  assert.equal(rig.of('server_killed').filter((e) => e.server === 'stubborn').length, 2, 'killed on every second consecutive timeout');
  assert.ok(rig.of('server_killed').some((e) => e.server === 'flooder'), 'the flooding hang was killed too');
  // The never-ready servers offered no tools and no hooks: nothing of theirs was waited for or called.
  const offered = rig.chatBodies().flatMap((b) => (b.tools ?? []).map((t) => t.function.name));
  assert.ok(!offered.some((name) => name.startsWith('slowlister__') || name.startsWith('mute__')));

  await assertStubbornGone(rig);
});

const EVERY_HOOK = ['_SessionStart', '_UserPromptSubmit', '_PreToolUse', '_PostToolUse', '_Stop', '_PostCompact', '_SessionEnd'] as const;
const everyHook = (behaviour: HookBehaviour, overrides: Partial<Record<(typeof EVERY_HOOK)[number], HookBehaviour>> = {}) => ({
  hooks: { ...Object.fromEntries(EVERY_HOOK.map((hook) => [hook, behaviour])), ...overrides },
});

test('the same pack on every lifecycle hook costs at most one hook timeout per hook point', async () => {
  rig = await openRig({
    servers: [
      { name: 'work', config: {} },
      { name: 'objector', config: everyHook({ kind: 'delay', ms: TIMEOUT_MS - 250, text: 'no' }) },
      { name: 'crasher', config: everyHook({ kind: 'crash', exitCode: 4 }) },
      { name: 'flooder', config: everyHook({ kind: 'flood', bytes: 2 * 1024 * 1024, then: 'hang' }) },
      { name: 'quitter', config: everyHook({ kind: 'exitMidCall' }) },
      { name: 'huge', config: everyHook({ kind: 'bigText', bytes: 1024 * 1024 }) },
      {
        name: 'stubborn',
        config: { ignoreSigterm: true, restartDelayMs: SLOW_RESTART_MS, ...everyHook({ kind: 'hang' }, { _SessionStart: { kind: 'spawnGrandchild', pidFile: grandchildFile } }) },
      },
    ],
    // One denial: the first round's call is denied, the second runs (so _PostToolUse is reached).
    hooks: { timeoutMs: TIMEOUT_MS, stopMaxRejections: 1, repeatedEndTurnStops: false, preToolUseMaxDenials: 1 },
    hub: { closeGraceMs: 500 },
    responses: [
      fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'one' } }]),
      fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'two' } }]),
      fakeReply.text('done?'),
      fakeReply.text('done.'),
    ],
  });
  const modelRounds = await startAndTimeRounds(rig);

  const started = Date.now();
  const outcome = await rig.runtime.session.run('finish the job');
  await rig.runtime.session.end('exit');
  const took = Date.now() - started;

  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved?.cause, 'budget_exhausted');
  assert.equal(rig.fake.chatRequests().length, 4);
  assert.deepEqual(rig.of('tool_denied').map((e) => e.callId), [rig.of('tool_started')[0]?.callId], 'only the first call was denied');
  // Hook points: start, prompt submit, before each of two calls, after the one that ran, one gate round, the verdict, the end.
  const hookPoints = 8;
  const modelRound = Math.max(...modelRounds);
  const bound = hookPoints * TIMEOUT_MS + modelRounds.length * modelRound;
  assert.ok(took < bound + 5000, `the prompt and its end took ${took} ms; the bound is ${bound} ms`);
  for (const hook of EVERY_HOOK.filter((h) => h !== '_PostCompact')) {
    assert.ok(rig.of('hook_called').some((e) => e.hook === hook), `${hook} was called`);
  }
  const injected = rig.of('hook_injected');
  assert.ok(injected.every((e) => ['objector', 'huge'].includes(e.server)), 'only the answering servers injected anything');
  assert.ok(injected.every((e) => Buffer.byteLength(e.text) <= 16 * 1024 + 20), 'injected text is capped');
  assert.equal(rig.of('server_killed').filter((e) => e.server === 'stubborn').length >= 1, true);

  await assertStubbornGone(rig);
});
