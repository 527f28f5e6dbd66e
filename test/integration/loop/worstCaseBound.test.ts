// The bound of docs/hooks.md#sovereignty-timeouts-kills-budgets, demonstrated: with a pack of hostile hook servers allowlisted at once (one objecting
// slowly every time, the others crashing, flooding both pipes, exiting mid-call, answering 1 MB,
// hanging while ignoring SIGTERM with a grandchild and coming back only slowly after the kill, never
// answering tools/list, or never answering initialize) a prompt with the repeated end-turn rule off
// still ends within maxRejections x (timeout + one model round) plus the final model round, one more
// timeout for the final verdict and one server-ready grace, under the product's default restart
// backoff and connect timeout. The same pack exposing every lifecycle hook costs at most one hook
// timeout per hook point the prompt passes (start, prompt submit, before and after each tool round,
// each gate round, the verdict, the session's end).
//
// On a loaded machine a hook timeout costs more wall-clock time than it says (the event loop is late),
// so the bounds are written in the timeouts this machine really delivered (the longest timed-out call
// of the run) and the slack scales with the machine's load (test/loadScale.ts). The servers that would
// stretch a prompt (the slow restart, the never-ready starts) take ten minutes: a prompt that waited for
// one would miss any bound by minutes, on any machine. The hub is then closed under servers still
// starting, which must end too (it once hung for good on a server killed right after initialize).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import type { HookBehaviour } from '../../fakes/hookServer';
import { loadFactor, scaledMs } from '../../loadScale';
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

/** Room for the objector's answer (a tenth of it) however busy the machine is. */
const TIMEOUT_MS = 3000;
const OBJECTOR_DELAY_MS = TIMEOUT_MS / 10;
const MAX_REJECTIONS = 3;
/** Far longer than any bound on any machine: waiting for this anywhere in the loop would show. */
const NEVER_MS = 10 * 60_000;
/** A slow restart and a server silent at start: both outlast the prompt, and the connect waits for them. */
const SLOW_RESTART_MS = NEVER_MS;
const SILENT_MS = NEVER_MS;
const GRACE_MS = 1000;
/** The product's defaults (backoff from 500 ms, doubling, capped at 8 s), but a connect that waits as long as the servers do. */
const HUB = { closeGraceMs: 500, connectTimeoutMs: NEVER_MS };

/** What one hook timeout really cost on this machine in this run: the longest timed-out call. */
function deliveredTimeout(r: Rig): number {
  return Math.max(TIMEOUT_MS, ...r.of('hook_finished').filter((e) => e.result === 'timeout').map((e) => e.durationMs));
}

/** Slack for what is not a timeout or a model round (kills, a 1 MB reply, process exits), scaled by load. */
const slackMs = (): number => 5000 * loadFactor();

/**
 * Starts every server (their first start is set-up, not part of the bound; `waitMs` caps the wait for
 * those never ready); returns each model round's duration as it happens.
 */
async function startAndTimeRounds(r: Rig, waitMs?: number, neverReady: string[] = []): Promise<number[]> {
  await r.runtime.hub.listTools(undefined, waitMs === undefined ? {} : { waitMs });
  // Every other server has listed its hooks before the prompt, however long its start took here: the
  // bound is about calls, not about a start that a busy machine made slower than the ready grace.
  const listed = (name: string): boolean => (r.runtime.hub.status().find((s) => s.name === name)?.hooks.length ?? 0) > 0;
  const answering = r.runtime.hub.serverNames().filter((name) => name !== 'work' && !neverReady.includes(name));
  await waitFor(() => answering.every(listed), `${answering.join(', ')} to list their hooks`, 60_000);
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
  await waitFor(() => !isAlive(stubbornPids[0] ?? NaN) && !isAlive(grandchild), 'the killed server and its grandchild to be gone');
}

test('hostile hook servers cannot stretch a prompt past maxRejections x (timeout + one model round) plus the verdict', async () => {
  rig = await openRig({
    servers: [
      { name: 'objector', config: { hooks: { _Stop: { kind: 'delay', ms: OBJECTOR_DELAY_MS, text: 'still not done' } } } },
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
    hub: HUB,
    responses: Array.from({ length: MAX_REJECTIONS + 1 }, (_, i) => fakeReply.text(`attempt ${i + 1}`)),
  });
  // The two never-ready servers get a few seconds here, and are then not waited for again.
  const modelRounds = await startAndTimeRounds(rig, 8000, ['slowlister', 'mute']);

  const started = Date.now();
  const outcome = await rig.runtime.session.run('finish the job');
  const took = Date.now() - started;

  assert.equal(outcome.reason, 'end_turn');
  assert.equal(outcome.unresolved?.cause, 'budget_exhausted');
  assert.equal(rig.runtime.session.state.rejectionsUsed, MAX_REJECTIONS);
  assert.equal(rig.fake.chatRequests().length, MAX_REJECTIONS + 1);
  const modelRound = Math.max(...modelRounds);
  const timeout = deliveredTimeout(rig);
  // The final verdict (budget spent) is one more parallel round of _Stop calls, one more timeout at most.
  const bound = MAX_REJECTIONS * (timeout + modelRound) + modelRound + timeout + scaledMs(GRACE_MS);
  // Far below one slow restart or silent start, which the prompt must never wait for.
  assert.ok(took < bound + slackMs(), `the prompt took ${took} ms; the contract's bound is ${bound} ms with timeouts of ${timeout} ms here`);
  assert.ok(bound + slackMs() < NEVER_MS / 2);

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
      { name: 'objector', config: everyHook({ kind: 'delay', ms: OBJECTOR_DELAY_MS, text: 'no' }) },
      { name: 'crasher', config: everyHook({ kind: 'crash', exitCode: 4 }) },
      { name: 'flooder', config: everyHook({ kind: 'flood', bytes: 2 * 1024 * 1024, then: 'hang' }) },
      { name: 'quitter', config: everyHook({ kind: 'exitMidCall' }) },
      { name: 'huge', config: everyHook({ kind: 'bigText', bytes: 1024 * 1024 }) },
      {
        name: 'stubborn',
        config: { ignoreSigterm: true, restartDelayMs: SLOW_RESTART_MS, ...everyHook({ kind: 'hang' }, { _SessionStart: { kind: 'spawnGrandchild', pidFile: grandchildFile } }) },
      },
    ],
    // The servers killed mid-prompt restart slowly (stubborn never in time): the wait for them is the
    // short grace this bound counts on, not the rig's generous first-prompt hang guard.
    settings: { serverReadyGraceMs: GRACE_MS, firstPromptServerWaitMs: GRACE_MS },
    // One denial: the first round's call is denied, the second runs (so _PostToolUse is reached).
    hooks: { timeoutMs: TIMEOUT_MS, stopMaxRejections: 1, repeatedEndTurnStops: false, preToolUseMaxDenials: 1 },
    hub: HUB,
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
  const timeout = deliveredTimeout(rig);
  const bound = hookPoints * timeout + modelRounds.length * modelRound;
  assert.ok(took < bound + slackMs(), `the prompt and its end took ${took} ms; the bound is ${bound} ms with timeouts of ${timeout} ms here`);
  assert.ok(bound + slackMs() < NEVER_MS / 2);
  for (const hook of EVERY_HOOK.filter((h) => h !== '_PostCompact')) {
    assert.ok(rig.of('hook_called').some((e) => e.hook === hook), `${hook} was called`);
  }
  const injected = rig.of('hook_injected');
  assert.ok(injected.every((e) => ['objector', 'huge'].includes(e.server)), 'only the answering servers injected anything');
  assert.ok(injected.every((e) => Buffer.byteLength(e.text) <= 16 * 1024 + 20), 'injected text is capped');
  assert.equal(rig.of('server_killed').filter((e) => e.server === 'stubborn').length >= 1, true);

  await assertStubbornGone(rig);
});
