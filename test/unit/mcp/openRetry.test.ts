/**
 * The pure parts of a start's retry after a stdio server exited on the era question: which stderr
 * lines of the second run are shown, and the sentence the failure ends with. The runs themselves,
 * against real child processes, are in test/integration/mcp/protocolEras.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exitRetryFailure, runStderr } from '../../../src/mcp/openRetry';

function feed(lines: string[], earlier?: readonly string[]): { shown: string[]; kept: readonly string[] } {
  const shown: string[] = [];
  const run = runStderr((line) => shown.push(line), earlier);
  for (const line of lines) run.onLine(line);
  return { shown, kept: run.lines };
}

describe('the retry after an exit on the era question', () => {
  it('a first run shows every line and keeps them to compare the next run with', () => {
    assert.deepEqual(feed(['a', 'b', 'a']), { shown: ['a', 'b', 'a'], kept: ['a', 'b', 'a'] });
  });

  it('a second run does not show again the lines that repeat the first run from its start', () => {
    assert.deepEqual(feed(['boom', 'at line 3'], ['boom', 'at line 3']).shown, []);
    assert.deepEqual(feed(['boom', 'at line 3', 'and more'], ['boom', 'at line 3']).shown, ['and more']);
  });

  it('once a line differs, that line and every later one are shown, even ones the first run printed', () => {
    assert.deepEqual(feed(['boom', 'run 2', 'at line 3'], ['boom', 'run 1', 'at line 3']).shown, ['run 2', 'at line 3']);
    assert.deepEqual(feed(['other', 'boom'], ['boom']).shown, ['other', 'boom']);
  });

  it('keeps at most 100 lines, and shows what comes after them', () => {
    const many = Array.from({ length: 150 }, (_, i) => `line ${i}`);
    const first = feed(many);
    assert.equal(first.kept.length, 100);
    assert.deepEqual(feed(many, first.kept).shown, many.slice(100));
  });

  it('keeps nothing once the start is over', () => {
    const run = runStderr(() => undefined, undefined);
    run.onLine('a');
    const kept = run.lines;
    run.forget();
    run.onLine('b');
    assert.deepEqual(run.lines, []);
    assert.deepEqual(kept, ['a'], 'what was handed on stays as it was');
  });

  it('the failure says both runs, once when they ended the same way, and what to do', () => {
    const same = exitRetryFailure('exited with code 3; last stderr: no key', new Error('Connection closed'), 'exited with code 3; last stderr: no key');
    assert.equal(
      same.message,
      'it exited when asked for its protocol era (server/discover) and again when started with initialize, the same way both times (exited with code 3; last stderr: no key). Run the command in a terminal to see why it stops.',
    );
    const different = exitRetryFailure('exited with code 1; last stderr: run 1', new Error('Connection closed'), 'exited with code 1; last stderr: run 2');
    assert.equal(
      different.message,
      'it exited when asked for its protocol era (server/discover) (exited with code 1; last stderr: run 1), and again when started with initialize (exited with code 1; last stderr: run 2). Run the command in a terminal to see why it stops.',
    );
  });

  it('a second run that was still going when the start gave up is told in the SDK words, without the exit hint', () => {
    const cause = new Error('Request timed out');
    const failure = exitRetryFailure('exited with code 0', cause, undefined);
    assert.equal(failure.message, 'it exited when asked for its protocol era (server/discover) (exited with code 0), and when started again with initialize: Request timed out');
    assert.equal(failure.cause, cause);
  });
});
