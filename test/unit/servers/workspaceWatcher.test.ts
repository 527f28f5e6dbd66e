import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchWorkspace, type WorkspaceWatcher } from '../../../src/servers/tests/workspaceWatcher';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (probe()) return;
    await sleep(100);
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('workspaceWatcher (real file system events)', () => {
  let dir: string;
  let watcher: WorkspaceWatcher | undefined;
  let quiet = 0;
  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-watch-')));
    for (const sub of ['src', 'out', 'node_modules', '.git', 'state']) mkdirSync(join(dir, sub));
    writeFileSync(join(dir, '.gitignore'), 'out/\n*.log\n');
    writeFileSync(join(dir, 'src', 'a.js'), 'a\n');
    quiet = 0;
    watcher = watchWorkspace({ rootReal: dir, exclude: [join(dir, 'state')], debounceMs: 100, onQuiet: () => quiet++ });
    await sleep(500); // let the initial scan finish
  });
  afterEach(async () => {
    await watcher?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ignores .gitignored paths, node_modules, .git and the state dir; a burst of edits is one quiet moment', async () => {
    writeFileSync(join(dir, 'out', 'bundle.js'), 'x');
    writeFileSync(join(dir, 'debug.log'), 'x');
    writeFileSync(join(dir, 'node_modules', 'dep.js'), 'x');
    writeFileSync(join(dir, '.git', 'index'), 'x');
    writeFileSync(join(dir, 'state', 'last-test-run.json'), '{}');
    await sleep(1500);
    assert.equal(quiet, 0, 'no edit a developer would call an edit');
    writeFileSync(join(dir, 'src', 'a.js'), 'b\n');
    writeFileSync(join(dir, 'src', 'b.js'), 'b\n');
    await until('the edits to be noticed', () => quiet > 0);
    await sleep(500);
    assert.equal(quiet, 1, 'two writes in a row: one background run');
  });

  it('follows .gitignore changes', async () => {
    mkdirSync(join(dir, 'src', 'gen'));
    writeFileSync(join(dir, '.gitignore'), 'out/\n*.log\nsrc/gen/\n');
    await until('the .gitignore edit to be noticed', () => quiet > 0);
    const before = quiet;
    writeFileSync(join(dir, 'src', 'gen', 'types.js'), 'x');
    await sleep(1500);
    assert.equal(quiet, before, 'a newly ignored folder is ignored');
  });
});
