// Bounded work in the built workspace server (dist/servers/workspace.js, as a user runs it): a path of
// 2,000 parts (4 KB; unbounded it held the server for minutes) or longer than PATH_MAX is refused at
// once, a tree nested deeper than a path may be is listed up to that depth with a note, and a search
// pattern that backtracks exponentially elsewhere answers, while one no linear engine can run is
// refused with a message that says what to do.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, REPO_ROOT } from '../cli/cliHarness';
import { startServer, type ServerProcess } from './serverProcess';

describe('workspace server bounds (the built bin)', () => {
  let base: string;
  let root: string;
  let server: ServerProcess;

  before(async () => {
    await ensureBuilt();
    base = mkdtempSync(join(tmpdir(), 'sprout-bounds-'));
    root = join(base, 'root');
    // 140 nested folders (past the 128 a path may have), a file at the bottom and one on the way.
    const deep = join(root, ...Array.from({ length: 140 }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'bottom.txt'), 'needle\n');
    writeFileSync(join(root, 'd', 'd', 'shallow.txt'), 'needle\n');
    writeFileSync(join(root, 'long.txt'), `${'a'.repeat(50_000)}b\n`);
    server = await startServer('workspace', ['--root', root, '--state-dir', join(base, 'state')], join(REPO_ROOT, 'dist', 'servers', 'workspace.js'));
  });

  after(async () => {
    await server?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('refuses a 2,000-part path at once, naming the limit', async () => {
    const path = `${Array.from({ length: 2000 }, () => 'a').join('/')}/f.txt`;
    const write = await server.call('write_file', { path, content: 'x' });
    assert.equal(write.isError, true);
    assert.match(write.text, /is 2001 folders deep; the limit is 128; give a shorter path/);
    const read = await server.call('read_file', { path });
    assert.match(read.text, /folders deep; the limit is 128/);
  });

  it('refuses a path longer than PATH_MAX', async () => {
    const result = await server.call('read_file', { path: 'x'.repeat(5000) });
    assert.equal(result.isError, true);
    assert.match(result.text, /is 5000 characters long; the limit is 4096/);
  });

  it('lists and searches a tree deeper than a path may be up to that depth, and says so', async () => {
    const listed = await server.call('list_files', { pattern: '*.txt' });
    assert.equal(listed.isError, false, listed.text);
    assert.match(listed.text, /^d\/d\/shallow\.txt$/m);
    assert.ok(!listed.text.includes('bottom.txt'), 'the file below the limit is not listed');
    assert.match(listed.text, /\[1 folder not entered: the paths inside would be more than 128 levels deep\]/);
    const found = await server.call('search_text', { pattern: 'needle' });
    assert.match(found.text, /^d\/d\/shallow\.txt:1: needle$/m);
  });

  it('answers a pattern that backtracks exponentially elsewhere, case-sensitive or not', async () => {
    for (const caseSensitive of [true, false]) {
      const result = await server.call('search_text', { pattern: '(a+)+$', caseSensitive });
      assert.equal(result.isError, false, result.text);
      assert.match(result.text, /^no matches for \/\(a\+\)\+\$\//, `caseSensitive ${caseSensitive}`);
    }
    const glob = await server.call('list_files', { pattern: `${'*a'.repeat(20)}*b` });
    assert.equal(glob.isError, false, glob.text);
  });

  it('refuses look-around and back-references with what to do instead', async () => {
    const result = await server.call('search_text', { pattern: '(a)\\1' });
    assert.equal(result.isError, true);
    assert.match(result.text, /cannot be matched in bounded time .* Look-around and back-references are not supported: rewrite the pattern without them/);
  });
});
