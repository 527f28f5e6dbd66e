// Private state through the real workspace server: run_command's full output lands in a 0700 folder as
// a 0600 file with an unguessable name, and a state folder someone else prepared (a symlink, another
// user's folder) is refused instead of used; a state file is replaced whole (writePrivateFileAtomic).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { stateHome, writePrivateFileAtomic } from '../../../src/platform/privateState';
import { REPO_ROOT, startServer, type ServerProcess } from './serverProcess';

const mode = (path: string): number => statSync(path).mode & 0o777;

function startFails(stateDir: string, root: string): { status: number | null; stderr: string } {
  const entry = resolve(REPO_ROOT, 'src', 'servers', 'workspace', 'main.ts');
  const run = spawnSync(process.execPath, ['--import', 'tsx', entry, '--root', root, '--state-dir', stateDir], { input: '', encoding: 'utf8', cwd: REPO_ROOT });
  return { status: run.status, stderr: run.stderr };
}

describe('private state of the workspace server', () => {
  let base: string;
  let server: ServerProcess;

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-state-'));
    mkdirSync(join(base, 'root'));
    // An existing, too-open folder is tightened rather than refused: it is ours.
    mkdirSync(join(base, 'state'), { mode: 0o755 });
    chmodSync(join(base, 'state'), 0o755);
    server = await startServer('workspace', ['--root', join(base, 'root'), '--state-dir', join(base, 'state')]);
  });

  after(async () => {
    await server?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('keeps run_command output in a 0700 folder as a 0600 file with a random name', async () => {
    const result = await server.call('run_command', { command: 'echo token=abc123' });
    assert.equal(result.isError, false, result.text);
    const logPath = /full output: (.+)$/m.exec(result.text)?.[1] ?? '';
    assert.ok(logPath.startsWith(join(base, 'state', 'command-output')), logPath);
    assert.equal(readFileSync(logPath, 'utf8'), 'token=abc123\n');
    assert.equal(mode(logPath), 0o600);
    assert.equal(mode(dirname(logPath)), 0o700);
    assert.equal(mode(join(base, 'state')), 0o700);
    assert.match(basename(logPath), /-[0-9a-f]{16}\.log$/, '64 random bits in the name');
  });

  it('refuses a state folder that is a symlink', () => {
    mkdirSync(join(base, 'elsewhere'));
    symlinkSync(join(base, 'elsewhere'), join(base, 'linked-state'));
    const run = startFails(join(base, 'linked-state'), join(base, 'root'));
    assert.equal(run.status, 2);
    assert.match(run.stderr, /linked-state is a symbolic link; refusing to keep private state there/);
  });

  it('refuses a state folder that belongs to another user', { skip: process.getuid?.() !== 0 && 'needs root to make a folder owned by another user' }, () => {
    const foreign = join(base, 'foreign-state');
    mkdirSync(foreign, { mode: 0o777 });
    chownSync(foreign, 4242, 4242);
    const run = startFails(foreign, join(base, 'root'));
    assert.equal(run.status, 2);
    assert.match(run.stderr, /belongs to another user \(uid 4242\)/);
  });

  it('replaces a state file whole: 0600 in a 0700 folder it creates, no temp file left, never in a symlinked folder', () => {
    const file = join(base, 'fresh-state', 'todo.json');
    writePrivateFileAtomic(file, '{"a":1}');
    writePrivateFileAtomic(file, '{"a":2}');
    assert.equal(readFileSync(file, 'utf8'), '{"a":2}');
    assert.equal(mode(file), 0o600);
    assert.equal(mode(dirname(file)), 0o700);
    assert.deepEqual(readdirSync(dirname(file)), ['todo.json']);
    mkdirSync(join(base, 'target'));
    symlinkSync(join(base, 'target'), join(base, 'linked-file-state'));
    assert.throws(() => writePrivateFileAtomic(join(base, 'linked-file-state', 'todo.json'), '{}'), /is a symbolic link; refusing to keep private state there/);
    assert.deepEqual(readdirSync(join(base, 'target')), []);
  });

  it('puts the per-user state root under XDG_STATE_HOME, else ~/.local/state', () => {
    assert.equal(stateHome({ XDG_STATE_HOME: '/x/state' }, 'linux', '/home/u'), '/x/state/sprout-agent');
    assert.equal(stateHome({ XDG_STATE_HOME: 'relative' }, 'linux', '/home/u'), '/home/u/.local/state/sprout-agent', 'a relative XDG path is ignored, as the spec says');
    assert.equal(stateHome({}, 'darwin', '/Users/u'), '/Users/u/.local/state/sprout-agent');
    assert.equal(stateHome({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u').endsWith('sprout-agent'), true);
  });
});
