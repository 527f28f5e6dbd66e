// Private state that a repository (or anyone else) prepared as a link is refused with one line, never
// followed: a state root `$XDG_STATE_HOME/sprout-agent` that is a symlink, a `--session` file the
// repository shipped as a symlink, and one whose folder inside the workspace is a symlink leading out.
// An older transcript that is readable by others is tightened to 0600, and a session file the user
// names outside the workspace still works.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { baseEnv, runCli, type CliResult } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-private-');

const SLOW = { timeoutMs: 180_000 };

function repo(name: string): string {
  const folder = join(cli.dir, name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** Exit 2 with one line on stderr: no stack trace. */
function refusedInOneLine(result: CliResult, pattern: RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
}

test('a state root that is a symlink is refused, and nothing is written where it points', async () => {
  const stateHome = join(cli.dir, 'state-linked');
  const elsewhere = join(cli.dir, 'elsewhere');
  mkdirSync(stateHome, { recursive: true });
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(stateHome, 'sprout-agent'));
  const result = await runCli(['--cwd', repo('state-root'), 'hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', XDG_STATE_HOME: stateHome }, ...SLOW });
  refusedInOneLine(result, /state folder .*state-linked\/sprout-agent is a symbolic link; refusing to keep private state there/);
  assert.deepEqual(readdirSync(elsewhere), []);
});

test('a --session file the repository shipped as a symlink is refused, and the file it points to is untouched', async () => {
  const folder = repo('session-link');
  const target = join(cli.dir, 'bashrc');
  writeFileSync(target, 'export PATH=$PATH\n');
  mkdirSync(join(folder, '.sprout'));
  symlinkSync(target, join(folder, '.sprout', 'session.jsonl'));
  const result = await runCli(['--cwd', folder, '--session', join(folder, '.sprout', 'session.jsonl'), 'hi'], { env: baseEnv('http://127.0.0.1:9/v1'), ...SLOW });
  refusedInOneLine(result, /--session: .*session\.jsonl is a symbolic link \(to .*bashrc\); a transcript is written only to a regular file/);
  assert.equal(readFileSync(target, 'utf8'), 'export PATH=$PATH\n');
});

test('a --session folder inside the workspace that is a symlink leading out is refused', async () => {
  const folder = repo('session-dir-link');
  const outside = join(cli.dir, 'outside-folder');
  mkdirSync(outside);
  symlinkSync(outside, join(folder, '.sprout'));
  const result = await runCli(['--cwd', folder, '--session', '.sprout/session.jsonl', 'hi'], { env: baseEnv('http://127.0.0.1:9/v1'), cwd: folder, ...SLOW });
  refusedInOneLine(result, /--session: .*session\.jsonl is in the workspace, but a symbolic link among its folders leads outside it/);
  assert.deepEqual(readdirSync(outside), []);
});

test('an older transcript readable by others is tightened to 0600; a session file named outside the workspace works', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.text('one'), fakeReply.text('two')] });
  const folder = repo('session-modes');
  const inside = join(folder, 'session.jsonl');
  writeFileSync(inside, '', { mode: 0o644 });
  const first = await runCli(['--cwd', folder, '--session', inside, 'hi'], { env: baseEnv(fake.url), ...SLOW });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(statSync(inside).mode & 0o777, 0o600);

  const mine = join(cli.dir, 'my-sessions', 'kept.jsonl');
  const second = await runCli(['--cwd', folder, '--session', mine, 'hi'], { env: baseEnv(fake.url), ...SLOW });
  assert.equal(second.code, 0, second.stderr);
  assert.ok(existsSync(mine) && (statSync(mine).mode & 0o777) === 0o600);
});
