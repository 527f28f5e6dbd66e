import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatAge, renderNotRunObjection, renderRedObjection, renderTestResult } from '../../../src/servers/tests/renderTestResult';
import {
  capFailures,
  MAX_FAILURES,
  MESSAGE_CUT_MARKER,
  MESSAGE_MAX_LINES,
  MESSAGE_OMITTED,
  TOTAL_MESSAGE_CHARS,
  type TestRunResult,
} from '../../../src/servers/tests/testResult';

function result(over: Partial<TestRunResult> = {}): TestRunResult {
  return {
    status: 'failed',
    passed: 3,
    failed: 1,
    skipped: 1,
    command: 'npm test',
    exitCode: 1,
    durationMs: 1200,
    failures: [{ name: 'cart › totals prices', file: 'src/cart.test.js', line: 5, message: 'expect(received).toBe(expected)\nExpected: 11\nReceived: 12' }],
    omittedFailures: 0,
    format: 'jest-json',
    finishedAt: 1_000_000,
    fingerprint: 'tree:x',
    outputTail: 'FAIL src/cart.test.js',
    ...over,
  };
}

describe('test results: caps and what the model reads', () => {
  it('clips each message with a marker, caps the count, and keeps the total within its cap', () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const many = Array.from({ length: MAX_FAILURES + 7 }, (_, i) => ({ name: `t${i}`, message: i === 0 ? long : 'x'.repeat(1500) }));
    const capped = capFailures(many);
    assert.equal(capped.failures.length, MAX_FAILURES);
    assert.equal(capped.omitted, 7);
    const first = capped.failures[0]?.message.split('\n') ?? [];
    assert.equal(first.length, MESSAGE_MAX_LINES + 1);
    assert.equal(first.at(-1), MESSAGE_CUT_MARKER);
    const total = capped.failures.reduce((sum, f) => sum + (f.message === MESSAGE_OMITTED ? 0 : f.message.length), 0);
    assert.ok(total <= TOTAL_MESSAGE_CHARS, `messages within the total cap (${total})`);
    assert.equal(capped.failures.at(-1)?.message, MESSAGE_OMITTED, 'past the total cap, messages say they were left out');
  });

  it('names each failing test with file:line and its expected/actual lines', () => {
    const text = renderTestResult(result());
    assert.match(text, /^Tests FAILED: 1 failed, 3 passed, 1 skipped \(jest-json\)\ncommand: npm test \| exit code: 1 \| duration: 1\.2 s\n/);
    assert.match(text, /- cart › totals prices \(src\/cart\.test\.js:5\)\n {4}expect\(received\)\.toBe\(expected\)\n {4}Expected: 11\n {4}Received: 12$/);
  });

  it('shows the output tail when the command failed without failing tests, or was not understood', () => {
    assert.match(renderTestResult(result({ status: 'error', failed: 0, failures: [] })), /^Tests ERRORED: [\s\S]*Output \(last lines\):\nFAIL src/);
    assert.match(renderTestResult(result({ format: undefined, failures: [] })), /counts not recognised[\s\S]*Output \(last lines\)/);
  });

  it('says how old a fresh result is, and how stale a stale one is', () => {
    assert.equal(formatAge(400), 'just now');
    assert.equal(formatAge(42_000), '42 s ago');
    assert.equal(formatAge(5 * 60_000), '5 min ago');
    assert.match(renderRedObjection(result(), 1_012_000), /^The tests fail on the current state of the workspace \(a fresh result: the run finished 12 s ago/);
    const stale = renderNotRunObjection({ runningSince: 1_000_000, stale: result(), changed: true, now: 1_000_000 + 3 * 60_000 });
    assert.match(stale, /\(a run is in progress, started 3 min ago\)\. Run `tests__run_tests`/);
    assert.match(stale, /The last result is stale: it is from 3 min ago, and the workspace has changed since\.\nTests FAILED/);
    assert.match(stale, /src\/cart\.test\.js:5/);
    assert.doesNotMatch(renderNotRunObjection({ changed: true, now: 0 }), /stale/);
  });
});
