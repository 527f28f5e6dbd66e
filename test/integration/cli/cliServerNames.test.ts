// A server name with a character that does not show (a zero-width space, a direction override, a
// control) is printed escaped, so the message cannot seem to name a plain `todo` (issue 31, item 4).
// Through the built CLI: a configuration whose server is named `todo<U+200B>` exits 2 naming
// `"todo\u200b"`, and an allowlist entry with a right-to-left override names `todo\u202e` (the
// terminal writer removes a raw override, which would leave a bare `todo`).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { baseEnv, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-names-');

// No request reaches this address: both runs stop at their configuration.
const env = { ...baseEnv('http://127.0.0.1:9/v1'), HOME: tmpdir() };

test('a server name with a zero-width space is refused with the character shown as \\u200b', async () => {
  const config = join(cli.dir, 'zero-width.json');
  writeFileSync(config, JSON.stringify({ servers: { 'todo\u200b': { command: process.execPath, args: ['-e', ''] } } }));
  const result = await runCli(['--mcp-config', config, 'hello'], { env, cwd: cli.dir, timeoutMs: 120_000 });
  assert.equal(result.code, 2, result.stderr);
  assert.ok(result.stderr.includes('server "todo\\u200b"'), result.stderr);
  assert.ok(!result.stderr.includes('\u200b'), 'the raw character is not printed');
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'one message, no stack trace');
});

test('an allowlist entry with a direction override is named with the override escaped', async () => {
  const result = await runCli(['hello'], { env: { ...env, MCP_HOOK_SERVERS: 'todo\u202e' }, cwd: cli.dir, timeoutMs: 120_000 });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /MCP_HOOK_SERVERS names todo\\u202e, which is no server of this run/);
});
