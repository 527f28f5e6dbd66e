/**
 * The prompt signal's abort relay (`onAbort`, under `raceAbort`): every step of every round listens on
 * the same signal, so it must hold one real listener however many steps listened, and each step's
 * callback must run once on abort, or never once stopped.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { CancelledError, onAbort, raceAbort } from '../../../src/agent/cancellation';

test('many listeners on one signal: one EventTarget listener, each callback once, stopped ones never', () => {
  const controller = new AbortController();
  const calls: number[] = [];
  const stops = Array.from({ length: 50 }, (_, i) => onAbort(controller.signal, () => calls.push(i)));
  for (let i = 0; i < 50; i += 2) stops[i]?.();
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
  controller.abort();
  controller.abort();
  assert.deepEqual(calls, Array.from({ length: 25 }, (_, k) => 2 * k + 1));
});

test('a signal aborted already runs the callback at once', () => {
  let ran = 0;
  onAbort(AbortSignal.abort(), () => (ran += 1));
  assert.equal(ran, 1);
});

test('thousands of settled races add no EventTarget listener, and a race still rejects on abort', async () => {
  const controller = new AbortController();
  for (let i = 0; i < 2000; i++) assert.equal(await raceAbort(Promise.resolve(i), controller.signal), i);
  await assert.rejects(raceAbort(Promise.reject(new Error('boom')), controller.signal), /boom/);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
  const pending = raceAbort(new Promise<never>(() => undefined), controller.signal);
  controller.abort();
  await assert.rejects(pending, CancelledError);
});
