import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceFingerprint } from '../../../src/servers/tests/workspaceFingerprint';

describe('workspaceFingerprint', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-fp-')));
    writeFileSync(join(dir, 'a.js'), 'one\n');
    writeFileSync(join(dir, '.gitignore'), 'out/\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('without git: stable, changes with a file, ignores gitignored and node_modules files', async () => {
    const first = await workspaceFingerprint(dir);
    assert.match(first, /^tree:/);
    assert.equal(await workspaceFingerprint(dir), first);
    mkdirSync(join(dir, 'out'));
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'out', 'build.js'), 'x');
    writeFileSync(join(dir, 'node_modules', 'dep.js'), 'x');
    assert.equal(await workspaceFingerprint(dir), first);
    writeFileSync(join(dir, 'a.js'), 'one two\n');
    assert.notEqual(await workspaceFingerprint(dir), first);
  });

  it('in a git repository: changes with edits to tracked and untracked files', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
    const clean = await workspaceFingerprint(dir);
    assert.match(clean, /^git:/);
    assert.equal(await workspaceFingerprint(dir), clean);
    writeFileSync(join(dir, 'a.js'), 'ONE\n');
    const edited = await workspaceFingerprint(dir);
    assert.notEqual(edited, clean, 'same size, different content: the diff hash sees it');
    writeFileSync(join(dir, 'new.js'), 'x');
    const untracked = await workspaceFingerprint(dir);
    assert.notEqual(untracked, edited);
    writeFileSync(join(dir, 'new.js'), 'xy');
    assert.notEqual(await workspaceFingerprint(dir), untracked);
  });
});
