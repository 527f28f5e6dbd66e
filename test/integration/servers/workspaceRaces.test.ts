// The time-of-check/time-of-use attack on the real workspace server: a separate process swaps a
// symlink in and out as fast as it can while the server reads and writes through the same path, many
// times. The server may fail a call ("changed while..."), but nothing it writes may land outside the
// workspace and nothing outside may be read back.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from './serverProcess';

/** Enough rounds that the unprotected code escaped in every run tried (about 1% of calls hit the window). */
const ROUNDS = 1000;

/**
 * A process that flips `path` between a real entry and a symlink to `outside` as fast as it can, until
 * killed. A file is swapped by renaming over it, so the path always exists as one or the other.
 */
function swapper(path: string, outside: string, kind: 'dir' | 'file'): ChildProcess {
  const script = `
    const fs = require('fs');
    const [path, outside, kind] = process.argv.slice(1);
    const link = path + '.swap-link', file = path + '.swap-file';
    for (;;) {
      try {
        if (kind === 'dir') {
          fs.rmSync(path, { recursive: true, force: true });
          fs.symlinkSync(outside, path);
          fs.unlinkSync(path);
          fs.mkdirSync(path);
        } else {
          fs.symlinkSync(outside, link);
          fs.renameSync(link, path);
          fs.writeFileSync(file, 'public text original victim');
          fs.renameSync(file, path);
          // Symlink calls are quicker than file writes: linger so both states last about as long.
          for (let k = 0; k < 20000; k++);
        }
      } catch {}
    }`;
  return spawn(process.execPath, ['-e', script, path, outside, kind], { stdio: 'ignore' });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('workspace server under a concurrent symlink swap', () => {
  let base: string;
  let root: string;
  let outside = '';
  let server: ServerProcess;

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-race-'));
    root = join(base, 'root');
    mkdirSync(root);
    server = await startServer('workspace', ['--root', root, '--state-dir', join(base, 'state')]);
  });

  after(async () => {
    await server?.close();
    rmSync(base, { recursive: true, force: true });
  });

  beforeEach(() => {
    outside = mkdtempSync(join(base, 'outside-'));
    writeFileSync(join(outside, 'victim.txt'), 'original victim\n');
    writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET-OUTSIDE\n');
  });

  const outsideUntouched = (): void => {
    assert.deepEqual(readdirSync(outside).sort(), ['secret.txt', 'victim.txt'], 'no file was created outside the workspace');
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'original victim\n', 'the outside file was not overwritten');
  };

  it('never writes through a parent directory swapped for a symlink', async () => {
    const child = swapper(join(root, 'sub'), outside, 'dir');
    let written = 0;
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const result = await server.call('write_file', { path: 'sub/escaped.txt', content: `payload ${i}\n` });
        if (!result.isError) written++;
      }
    } finally {
      await stop(child);
    }
    outsideUntouched();
    assert.ok(written > 0, 'some writes went through while the directory was real (the test exercised the write path)');
  });

  it('never writes through a target file swapped for a symlink (write_file and edit_file)', async () => {
    const child = swapper(join(root, 'target.txt'), join(outside, 'victim.txt'), 'file');
    let changed = 0;
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const result =
          i % 2 === 0
            ? await server.call('write_file', { path: 'target.txt', content: `overwritten ${i}\n` })
            : await server.call('edit_file', { path: 'target.txt', oldString: 'original victim', newString: `edited ${i}` });
        if (!result.isError) changed++;
      }
    } finally {
      await stop(child);
    }
    outsideUntouched();
    assert.ok(changed > 0, 'some writes went through while the file was real');
  });

  it('never reads a file outside through a swapped symlink (read_file and search_text)', async () => {
    const child = swapper(join(root, 'public.txt'), join(outside, 'secret.txt'), 'file');
    let reads = 0;
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const result =
          i % 2 === 0 ? await server.call('read_file', { path: 'public.txt' }) : await server.call('search_text', { pattern: 'SECRET|public', path: 'public.txt' });
        assert.doesNotMatch(result.text, /TOP-SECRET-OUTSIDE/, `round ${i} read the outside file: ${result.text}`);
        if (/public text/.test(result.text)) reads++;
      }
    } finally {
      await stop(child);
    }
    assert.ok(reads > 0, 'some reads saw the real file');
  });
});
