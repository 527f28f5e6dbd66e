import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffDelayMs, MAX_SERVER_DELAY_MS, serverRetryDelayMs } from '../../../src/model/retryPolicy';

test('retry-after-ms wins over retry-after; seconds and HTTP dates are understood', () => {
  assert.equal(serverRetryDelayMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  assert.equal(serverRetryDelayMs(new Headers({ 'retry-after': '2' })), 2000);
  assert.equal(serverRetryDelayMs({ 'Retry-After': '1.5' }), 1500);
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(serverRetryDelayMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, now), 3000);
  assert.equal(serverRetryDelayMs({ 'retry-after': 'soon' }), undefined);
  assert.equal(serverRetryDelayMs(new Headers()), undefined);
  assert.equal(serverRetryDelayMs(undefined), undefined);
});

test('backoff doubles per attempt, is capped, and jitter only shortens it', () => {
  const pinned = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 };
  assert.deepEqual([1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, pinned)), [100, 200, 400, 800, 1000]);
  const worst = backoffDelayMs(3, { ...pinned, random: () => 0.999 });
  assert.ok(worst >= 300 && worst <= 400, `jittered delay ${worst}`);
});

test('a server-requested delay is honoured but bounded', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 };
  assert.equal(backoffDelayMs(1, options, 4321), 4321);
  assert.equal(backoffDelayMs(1, options, 10 * 60_000), MAX_SERVER_DELAY_MS);
});
