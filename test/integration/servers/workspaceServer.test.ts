import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from './serverProcess';
import { scaledMs } from '../../loadScale';
import { waitFor } from '../../waitFor';

/** Alive and not a zombie (a container's PID 1 may never reap orphans). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('workspace server (child process over stdio)', () => {
  let base: string;
  let root: string;
  let server: ServerProcess;

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-ws-'));
    root = join(base, 'root');
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    mkdirSync(join(root, 'build'));
    mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n');
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
    writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'const needle = "found";\n');
    writeFileSync(join(root, 'src', 'notes.md'), 'needle in markdown\n');
    writeFileSync(join(root, 'build', 'out.ts'), 'const needle = 1;\n');
    writeFileSync(join(root, 'debug.log'), 'needle\n');
    writeFileSync(join(root, 'node_modules', 'pkg', 'index.ts'), 'needle\n');
    writeFileSync(join(base, 'secret.txt'), 'top secret\n');
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'secret.txt'), join(root, 'link-to-secret'));
    symlinkSync(join(base, 'outside'), join(root, 'link-dir'));
    server = await startServer('workspace', ['--root', root, '--state-dir', join(base, 'state')]);
  });

  after(async () => {
    await server?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('lists its tools with read-only and destructive annotations', async () => {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['read_file', 'list_files', 'search_text']) assert.equal(byName.get(name)?.annotations?.readOnlyHint, true, name);
    for (const name of ['write_file', 'edit_file', 'run_command']) assert.equal(byName.get(name)?.annotations?.destructiveHint, true, name);
  });

  it('reads a file and a line range', async () => {
    const whole = await server.call('read_file', { path: 'src/a.ts' });
    assert.match(whole.text, /export const c = 3;/);
    const range = await server.call('read_file', { path: 'src/a.ts', startLine: 2, endLine: 2 });
    assert.match(range.text, /lines 2-2 of 4/);
    assert.match(range.text, /const b = 2/);
    assert.doesNotMatch(range.text, /const a = 1/);
  });

  it('caps what one read returns', async () => {
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(10_000));
    const capped = await server.call('read_file', { path: 'big.txt', maxBytes: 100 });
    assert.match(capped.text, /truncated at 100 bytes/);
    assert.ok(capped.text.length < 400);
  });

  it('lists files honouring .gitignore and skipping node_modules', async () => {
    const all = await server.call('list_files', {});
    const lines = all.text.split('\n');
    assert.ok(lines.includes('src/a.ts') && lines.includes('src/deep/b.ts'), all.text);
    assert.ok(!lines.some((l) => l.startsWith('build/') || l.endsWith('.log') || l.startsWith('node_modules/')), all.text);
    assert.ok(!lines.includes('link-to-secret'), 'a symlink pointing outside is not listed');
    const ts = await server.call('list_files', { pattern: '*.ts' });
    assert.deepEqual(ts.text.split('\n'), ['src/a.ts', 'src/deep/b.ts']);
  });

  it('searches text with a regex, a file filter and a result cap', async () => {
    const hits = await server.call('search_text', { pattern: 'needle' });
    assert.match(hits.text, /src\/deep\/b\.ts:1: const needle/);
    assert.match(hits.text, /src\/notes\.md:1:/);
    assert.doesNotMatch(hits.text, /build\/|debug\.log|node_modules/);
    const filtered = await server.call('search_text', { pattern: 'need+le', include: '*.md' });
    assert.equal(filtered.text, 'src/notes.md:1: needle in markdown');
    const capped = await server.call('search_text', { pattern: 'export', maxResults: 2 });
    assert.match(capped.text, /stopped at 2 matches/);
    const bad = await server.call('search_text', { pattern: '(' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /invalid regular expression/);
  });

  it('writes and edits files, failing clearly on a missing or ambiguous match', async () => {
    const wrote = await server.call('write_file', { path: 'new/dir/file.txt', content: 'one two two\n' });
    assert.match(wrote.text, /created new\/dir\/file\.txt/);
    const ambiguous = await server.call('edit_file', { path: 'new/dir/file.txt', oldString: 'two', newString: '2' });
    assert.equal(ambiguous.isError, true);
    assert.match(ambiguous.text, /occurs 2 times/);
    const missing = await server.call('edit_file', { path: 'new/dir/file.txt', oldString: 'three', newString: '3' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /not found/);
    const unique = await server.call('edit_file', { path: 'new/dir/file.txt', oldString: 'one', newString: '1' });
    assert.equal(unique.isError, false, unique.text);
    const all = await server.call('edit_file', { path: 'new/dir/file.txt', oldString: 'two', newString: '2', replaceAll: true });
    assert.match(all.text, /replaced 2 occurrences/);
    assert.equal(readFileSync(join(root, 'new', 'dir', 'file.txt'), 'utf8'), '1 2 2\n');
  });

  it('refuses paths outside the workspace: .., absolute elsewhere, symlinks out', async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ['read_file', { path: '../secret.txt' }],
      ['read_file', { path: join(base, 'secret.txt') }],
      ['read_file', { path: 'link-to-secret' }],
      ['write_file', { path: 'link-dir/planted.txt', content: 'x' }],
      ['write_file', { path: '../../escape.txt', content: 'x' }],
      ['edit_file', { path: 'link-to-secret', oldString: 'top', newString: 'no' }],
      ['list_files', { path: '..' }],
      ['search_text', { pattern: 'secret', path: 'link-dir' }],
      ['run_command', { command: 'pwd', cwd: '..' }],
    ];
    for (const [tool, args] of attempts) {
      const result = await server.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(result.text, /outside the workspace/, result.text);
    }
    assert.equal(existsSync(join(base, 'outside', 'planted.txt')), false);
    assert.equal(readFileSync(join(base, 'secret.txt'), 'utf8'), 'top secret\n');
  });

  it('runs a command: exit code, tail-truncated output, full output saved to the named file', async () => {
    const ok = await server.call('run_command', { command: 'echo hello && pwd' });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /exit code 0/);
    assert.match(ok.text, /hello/);
    const failed = await server.call('run_command', { command: 'echo bad >&2; exit 3' });
    assert.equal(failed.isError, true);
    assert.match(failed.text, /exit code 3/);
    const long = await server.call('run_command', { command: `node -e "for (let i = 0; i < 5000; i++) console.log('line ' + i)"` });
    assert.match(long.text, /output truncated/);
    assert.match(long.text, /line 4999/);
    assert.doesNotMatch(long.text, /line 0\n/);
    const file = /full output: (.+)$/m.exec(long.text)?.[1];
    assert.ok(file, long.text);
    const full = readFileSync(file, 'utf8');
    assert.match(full, /^line 0\n/);
    assert.match(full, /line 4999/);
  });

  it('times out a command and kills its process group', async () => {
    // The command sleeps for hours: only its timeout can end the call before the call's and the test's
    // hang guards. The timeout must leave the shell time to write bg.pid first: a margin scaled by the load.
    const timeoutMs = scaledMs(3000);
    const result = await server.call('run_command', { command: 'sleep 36000 & echo $! > bg.pid; sleep 36000; echo never', timeoutMs });
    assert.equal(result.isError, true);
    assert.match(result.text, new RegExp(`timed out after ${timeoutMs} ms`));
    const backgroundPid = Number(readFileSync(join(root, 'bg.pid'), 'utf8'));
    assert.ok(backgroundPid > 0);
    // Its end is waited for, not given 200 ms; it sleeps far longer than the wait's bound, so only the kill ends it.
    await waitFor(() => !isRunning(backgroundPid), 'the background child of the command to be killed too');
  });
});
