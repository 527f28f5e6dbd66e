// Text from outside never drives the user's terminal, on any path the CLI prints: a cloned
// repository's server names (the "not started" notice of a run and of `hooks check`, a configuration
// error), the model endpoint's error message, the model's own reply, and --json lines, which stay
// lossless (the same strings parse back) while carrying no raw control character.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { baseEnv, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-terminal-');

/** OSC 52 (write the clipboard), a screen clear, an 8-bit CSI and a direction override. */
const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007';
const ATTACK = `${CLIPBOARD}\u001b[2J\u009b1A\u202e`;
// eslint-disable-next-line no-control-regex
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The machine may be loaded: a run gets minutes, not the harness's default half minute. */
const SLOW = { timeoutMs: 180_000 };

function assertInert(stream: string, what: string): void {
  const at = OBEYED.exec(stream);
  assert.equal(at, null, `${what} carries ${JSON.stringify(at?.[0])} at ${at?.index}: ${JSON.stringify(stream.slice(Math.max(0, (at?.index ?? 0) - 40), (at?.index ?? 0) + 40))}`);
}

function repoWithServer(name: string, serverName: string): string {
  const repo = join(cli.dir, name);
  mkdirSync(join(repo, '.vscode'), { recursive: true });
  writeFileSync(join(repo, '.vscode', 'mcp.json'), JSON.stringify({ servers: { [serverName]: { command: 'node', args: ['server.js'] } } }));
  return repo;
}

test('a cloned repository\'s server name reaches the "not started" notice of a run, hooks check and hooks install inert', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.text(`all done ${ATTACK}here`)] });
  const repo = repoWithServer('notice', `helper${ATTACK}`);
  const run = await runCli(['--cwd', repo, 'hi'], { env: baseEnv(fake.url), ...SLOW });
  assert.equal(run.code, 0, run.stderr);
  assertInert(run.stderr, 'stderr');
  assertInert(run.stdout, 'stdout');
  assert.match(run.stderr, /defines servers helper\\u202e, which did not start/);
  // The reply streams in pieces, so a sequence may be cut in two: what is left of it is plain text.
  assert.match(run.stdout, /all done .*here/);

  const check = await runCli(['hooks', 'check', '--cwd', repo], { env: baseEnv(fake.url), ...SLOW });
  assertInert(check.stderr, 'hooks check stderr');
  assertInert(check.stdout, 'hooks check stdout');
  assert.match(check.stderr, /defines servers helper\\u202e, which did not start/);
  const install = await runCli(['hooks', 'install', '--agent', 'claude', '--dry-run', '--cwd', repo], { env: baseEnv(fake.url), ...SLOW });
  assertInert(install.stderr, 'hooks install stderr');
  assertInert(install.stdout, 'hooks install stdout');
  assert.match(install.stderr, /defines servers helper\\u202e, which did not start/);
});

test('a configuration error naming a hostile server is inert (exit 2)', async () => {
  const repo = repoWithServer('config-error', `bad name${ATTACK}`);
  const result = await runCli(['--cwd', repo, '--trust-workspace', 'hi'], { env: baseEnv('http://127.0.0.1:9/v1'), ...SLOW });
  assert.equal(result.code, 2, result.stderr);
  assertInert(result.stderr, 'stderr');
  assert.match(result.stderr, /server "bad name/);
});

test('the model endpoint\'s error message is inert on stderr', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.error(400, `bad request ${ATTACK}end`)] });
  const result = await runCli(['--json', 'hi'], { env: baseEnv(fake.url), ...SLOW });
  assert.equal(result.code, 1, result.stderr);
  assertInert(result.stderr, 'stderr');
  assertInert(result.stdout, 'the --json lines');
  assert.match(result.stderr, /bad request \\u202eend/);
  const outcome = parseEvents(result.stdout).find((e) => e.type === 'outcome');
  assert.ok(outcome?.type === 'outcome' && outcome.outcome.message?.includes(ATTACK), 'the JSON outcome keeps the message exactly, escaped');
});

test('--json lines carry tool output exactly, with nothing raw a terminal would obey', async () => {
  const text = `tool says ${ATTACK} \u2028 fine`;
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'srv__echo', arguments: { text } }]), fakeReply.text('ok')] });
  const mcp = writeMcpConfig(join(cli.dir, 'echo.json'), [hookServerMcpConfig('srv', hookServerConfig())]);
  const result = await runCli(['--json', '--mcp-config', mcp, 'echo it'], { env: { ...baseEnv(fake.url), SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' }, ...SLOW });
  assert.equal(result.code, 0, result.stderr);
  assertInert(result.stdout, 'the --json lines');
  assert.ok(!result.stdout.includes('\u2028'), 'no raw line separator either');
  const finished = parseEvents(result.stdout).find((e) => e.type === 'tool_finished');
  assert.ok(finished?.type === 'tool_finished');
  assert.equal(finished.text, text);
});
