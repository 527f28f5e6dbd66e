// The walker's bounds, with the clock in the test's hands: it stops at its file count and at its time
// budget (saying which), does not enter folders whose paths could not be named, and the yielding walk
// finds exactly what the one-go walk finds.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { walkFiles, walkFilesYielding } from '../../../src/servers/common/fileWalker';

describe('walkFiles bounds', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'sprout-walk-'));
    for (const dir of ['a', 'b', 'c']) {
      mkdirSync(join(root, dir, 'x', 'y'), { recursive: true });
      for (const file of ['1.txt', '2.txt']) writeFileSync(join(root, dir, 'x', 'y', file), '');
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('stops at the file count', () => {
    const walk = walkFiles({ start: root, rootReal: root, maxEntries: 3 });
    assert.equal(walk.files.length, 3);
    assert.equal(walk.stoppedBy, 'entries');
    assert.equal(walk.truncated, true);
  });

  it('stops at the time budget, read from its clock', () => {
    let now = 0;
    // Every folder read costs 10 "ms"; the budget is 25.
    const walk = walkFiles({ start: root, rootReal: root, maxEntries: 100, maxMs: 25, now: () => (now += 10) });
    assert.equal(walk.stoppedBy, 'time');
    assert.ok(walk.files.length < 6, `${walk.files.length} files`);
  });

  it('does not enter a folder whose paths would pass the depth, and counts it', () => {
    const walk = walkFiles({ start: root, rootReal: root, maxEntries: 100, maxDepth: 3 });
    assert.deepEqual(walk.files, []);
    assert.equal(walk.tooDeep, 3, 'a/x/y, b/x/y, c/x/y: their files would be 4 levels deep');
    assert.equal(walkFiles({ start: root, rootReal: root, maxEntries: 100, maxDepth: 4 }).files.length, 6);
  });

  it('the yielding walk finds what the one-go walk finds', async () => {
    assert.deepEqual(await walkFilesYielding({ start: root, rootReal: root, maxEntries: 100 }), walkFiles({ start: root, rootReal: root, maxEntries: 100 }));
  });
});
