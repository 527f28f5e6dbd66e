// The CLI as a cloned repository's attacker would meet it: the model asks the bundled workspace server
// to write `.git/config` (code execution on the next `git status` via core.fsmonitor) and the CLI
// refuses unless --allow-protected-writes; command output and server state go to a private per-user
// folder (0700, files 0600) named by a random session id, never to a shared /tmp path.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { isAlive, killPids, readPid, waitFor } from '../mcp/mcpHarness';
import { baseEnv, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-sec-');

const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const EVIL = '[core]\n\tfsmonitor = "touch pwned"\n';

function clonedRepo(name: string): string {
  const repo = join(cli.dir, name);
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), GIT_CONFIG);
  return repo;
}

function env(stateHome: string): Record<string, string> {
  return { ...baseEnv(cli.fake?.url ?? ''), SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', XDG_STATE_HOME: stateHome };
}

const writeGitConfig = fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: '.git/config', content: EVIL } }]);

test('a protected write is refused by default and the model is told why', async () => {
  const fake = await cli.startFake({ responses: [writeGitConfig, fakeReply.text('ok')] });
  const repo = clonedRepo('refused');
  const result = await runCli(['--json', '--cwd', repo, 'set up the repo'], { env: env(join(cli.dir, 'state-refused')) });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(join(repo, '.git', 'config'), 'utf8'), GIT_CONFIG, '.git/config is unchanged');
  const finished = parseEvents(result.stdout).find((e) => e.type === 'tool_finished');
  assert.ok(finished && finished.type === 'tool_finished' && finished.isError, 'the write came back as an error');
  assert.match(finished.text, /refused: \.git\/config is a protected path .*--allow-protected-writes/s);
  const toolMessage = (fake.chatRequests()[1]?.body as { messages: { role: string; content?: unknown }[] }).messages.find((m) => m.role === 'tool');
  assert.match(String(toolMessage?.content), /protected path/, 'the refusal reached the model');
});

test('--allow-protected-writes lets the same write through', async () => {
  await cli.startFake({ responses: [writeGitConfig, fakeReply.text('ok')] });
  const repo = clonedRepo('allowed');
  const result = await runCli(['--json', '--allow-protected-writes', '--cwd', repo, 'set up the repo'], { env: env(join(cli.dir, 'state-allowed')) });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(outcomeOf(parseEvents(result.stdout))?.reason, 'end_turn');
  assert.equal(readFileSync(join(repo, '.git', 'config'), 'utf8'), EVIL);
});

test('SPROUT_AGENT_PROTECTED_PATHS adds patterns; one that tries to remove protection is exit 2', async () => {
  await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'deploy/prod.yml', content: 'x' } }]), fakeReply.text('ok')] });
  const repo = clonedRepo('extra');
  const added = await runCli(['--json', '--cwd', repo, 'go'], { env: { ...env(join(cli.dir, 'state-extra')), SPROUT_AGENT_PROTECTED_PATHS: 'deploy/**, *.pem' } });
  assert.equal(added.code, 0, added.stderr);
  assert.ok(!existsSync(join(repo, 'deploy', 'prod.yml')));
  assert.match(added.stdout, /deploy\/prod\.yml is a protected path \(it matches \\"deploy\/\*\*\\"\)/);
  const bad = await runCli(['--cwd', repo, 'go'], { env: { ...env(join(cli.dir, 'state-extra')), SPROUT_AGENT_PROTECTED_PATHS: '!.git/**' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /SPROUT_AGENT_PROTECTED_PATHS: protected path pattern "!\.git\/\*\*" starts with "!"/);
});

test('command output goes to a private per-user folder under a random session id', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command: 'echo secret-token-42' } }]), fakeReply.text('ok')] });
  const repo = clonedRepo('state');
  const stateHome = join(cli.dir, 'state-home');
  const session = join(repo, 'session.jsonl');
  const result = await runCli(['--json', '--session', session, '--cwd', repo, 'run it'], { env: env(stateHome) });
  assert.equal(result.code, 0, result.stderr);
  const events = parseEvents(result.stdout);
  const started = events.find((e) => e.type === 'session_started');
  const sessionId = started?.type === 'session_started' ? started.sessionId : '';
  assert.match(sessionId, /^cli-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random (v4) id, not a hash of the path');
  const finished = events.find((e) => e.type === 'tool_finished');
  const logPath = finished?.type === 'tool_finished' ? (/full output: (.+)$/m.exec(finished.text)?.[1] ?? '') : '';
  const sessionDir = join(stateHome, 'sprout-agent', 'sessions', sessionId);
  assert.ok(logPath.startsWith(join(sessionDir, 'workspace', 'command-output')), logPath);
  assert.equal(readFileSync(logPath, 'utf8'), 'secret-token-42\n');
  assert.equal(statSync(logPath).mode & 0o777, 0o600);
  for (const folder of [join(stateHome, 'sprout-agent'), join(stateHome, 'sprout-agent', 'sessions'), sessionDir]) assert.equal(statSync(folder).mode & 0o777, 0o700, folder);
  assert.equal(statSync(session).mode & 0o777, 0o600, 'the session transcript (it holds the output too) is private');
  // Resuming keeps the id, so the session finds its state again.
  fake.enqueue(fakeReply.text('again'));
  const again = await runCli(['--json', '--session', session, '--cwd', repo, 'more'], { env: env(stateHome) });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(readdirSync(join(stateHome, 'sprout-agent', 'sessions')), [sessionId]);
});

test('a run without --session keeps its state under runs/, where week-old folders are removed', async () => {
  await cli.startFake({ responses: [fakeReply.text('ok')] });
  const stateHome = join(cli.dir, 'state-runs');
  const old = join(stateHome, 'sprout-agent', 'runs', 'cli-old');
  mkdirSync(old, { recursive: true });
  const eightDaysAgo = (Date.now() - 8 * 24 * 3600_000) / 1000;
  utimesSync(old, eightDaysAgo, eightDaysAgo);
  const result = await runCli(['--json', '--cwd', clonedRepo('runs'), 'hi'], { env: env(stateHome) });
  assert.equal(result.code, 0, result.stderr);
  const runs = readdirSync(join(stateHome, 'sprout-agent', 'runs'));
  assert.equal(runs.length, 1);
  assert.notEqual(runs[0], 'cli-old');
  assert.match(runs[0] ?? '', /^cli-/);
});

test('a server\'s setsid grandchild, orphaned at once, is gone when the CLI exits', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'spawner__escape', arguments: {} }]), fakeReply.text('done')] });
  const pidFile = join(cli.dir, 'escapee.pid');
  const escape = { name: 'escape', behaviour: { kind: 'spawnEscapee' as const, pidFile, orphan: true } };
  const mcp = writeMcpConfig(join(cli.dir, 'escapee.json'), [hookServerMcpConfig('spawner', hookServerConfig({ extraTools: [escape] }))]);
  const result = await runCli(['--json', '--mcp-config', mcp, 'go'], { env: baseEnv(fake.url) });
  const pid = readPid(pidFile);
  try {
    assert.equal(result.code, 0, result.stderr);
    assert.ok(pid !== undefined, 'the grandchild started');
    await waitFor(() => !isAlive(pid), 'the setsid grandchild to be gone', 5000);
  } finally {
    killPids([pid]);
  }
});
