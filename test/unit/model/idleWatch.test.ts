/**
 * The model client's silent-stream watch: a silent stream is cut, one that keeps sending or has
 * stopped is not, and the shared timer goes away once nothing is watched (no handle keeps a CLI alive
 * or an old client in memory). No timing assertions beyond "eventually".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdleWatch } from '../../../src/model/idleWatch';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function timerCount(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

test('cuts the silent stream only, never a stopped one, and drops its timer when nothing is watched', async () => {
  const before = timerCount();
  const watch = new IdleWatch(500);
  const cut: string[] = [];
  const silent = watch.watch(() => cut.push('silent'));
  const busy = watch.watch(() => cut.push('busy'));
  const stopped = watch.watch(() => cut.push('stopped'));
  stopped.stop();
  for (let i = 0; i < 300 && !cut.includes('silent'); i++) {
    busy.touch();
    await sleep(10);
  }
  assert.deepEqual(cut, ['silent']);
  busy.stop();
  silent.stop();
  for (let i = 0; i < 100 && timerCount() > before; i++) await sleep(10);
  assert.equal(timerCount(), before, 'the shared timer stops once nothing is watched');
  assert.deepEqual(cut, ['silent'], 'nothing else was cut');
});
