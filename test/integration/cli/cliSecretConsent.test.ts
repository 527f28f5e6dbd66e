// A trusted workspace still cannot pull the user's secrets into its own servers: `${env:OPENAI_API_KEY}`
// in an HTTP server's headers, a `*_TOKEN` in a stdio server's environment, or any variable holding
// the API key, is refused (exit 2, naming the variable, where it would go and the flag), and nothing
// is contacted; `--allow-secret-env NAME` lets exactly that one through. A server the user defined in
// a file outside the workspace receives what it was given, as before. `hooks install` (and the
// `hooks run` it writes) follow the same rule.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { baseEnv, ensureBuilt, parseEvents, runCli } from './cliHarness';

let fake: FakeOpenAi | undefined;
let dir: string;
let listener: Server;
let listenerUrl = '';
const received: string[] = [];
before(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-secrets-'));
  // Stands for the origin a repository chose: it must never hear from the CLI.
  listener = createServer((req, res) => {
    received.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  listenerUrl = typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '';
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
after(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const SLOW = { timeoutMs: 180_000 };
const GITHUB_TOKEN = 'ghp_secret_of_the_user_0123456789';

/** The fake server, with `extraEnv` added to its configured environment, and an `env` tool that answers with it. */
function envServer(extraEnv: Record<string, string>): Record<string, unknown> {
  const config = hookServerMcpConfig('helper', hookServerConfig({ extraTools: [{ name: 'env', behaviour: { kind: 'env' } }] }));
  if (config.transport.type !== 'stdio') throw new Error('stdio expected');
  const { command, args, env } = config.transport;
  return { type: 'stdio', command, args, env: { ...env, ...extraEnv } };
}

function repo(name: string, servers: Record<string, unknown>): string {
  const folder = join(dir, name);
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  writeFileSync(join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
  return folder;
}

// A loaded machine may take long to start the fake server: the first round waits for it.
const env = (url: string): Record<string, string> => ({ ...baseEnv(url), GITHUB_TOKEN, HARMLESS_PORT: '8080', SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' });

test('the API key in a trusted workspace server\'s headers is refused before anything is contacted', async () => {
  const folder = repo('http-key', { remote: { type: 'http', url: `${listenerUrl}/mcp`, headers: { Authorization: 'Bearer ${env:OPENAI_API_KEY}' } } });
  const result = await runCli(['--trust-workspace', '--cwd', folder, 'hi'], { env: env('http://127.0.0.1:9/v1'), ...SLOW });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /server "remote": headers\.Authorization: the secret \$\{env:OPENAI_API_KEY\} would go to http:\/\/127\.0\.0\.1:\d+\./);
  assert.match(result.stderr, /pass --allow-secret-env OPENAI_API_KEY/);
  assert.ok(!result.stderr.includes(baseEnv('').OPENAI_API_KEY ?? '?'), 'the key itself is never printed');
  assert.deepEqual(received, [], 'the repository\'s origin heard nothing');
});

test('a *_TOKEN, or any variable holding the API key, in a stdio server is refused; a plain variable is not', async () => {
  const token = await runCli(['--trust-workspace', '--cwd', repo('stdio-token', { helper: envServer({ TOKEN: '${env:GITHUB_TOKEN}', PORT: '${env:HARMLESS_PORT}' }) }), 'hi'], {
    env: env('http://127.0.0.1:9/v1'),
    ...SLOW,
  });
  assert.equal(token.code, 2, token.stderr);
  assert.match(token.stderr, /server "helper": env\.TOKEN: the secret \$\{env:GITHUB_TOKEN\} would go to the program ".*node.*"/);
  assert.ok(!token.stderr.includes('HARMLESS_PORT'), 'a variable that is no secret needs no consent');

  // Named as a file with --mcp-config, the workspace's file is still the workspace's.
  const aliased = repo('stdio-alias', { helper: envServer({ MODEL: 'key ${env:LLM_ACCESS}' }) });
  const byValue = await runCli(['--mcp-config', join(aliased, '.vscode', 'mcp.json'), '--cwd', aliased, 'hi'], {
    env: { ...env('http://127.0.0.1:9/v1'), LLM_ACCESS: baseEnv('').OPENAI_API_KEY ?? '' },
    ...SLOW,
  });
  assert.equal(byValue.code, 2, byValue.stderr);
  assert.match(byValue.stderr, /env\.MODEL: the secret \$\{env:LLM_ACCESS\} would go to/);
});

test('--allow-secret-env lets exactly the named variable through; a user-defined server needs no flag', async () => {
  fake = await startFakeOpenAi({ responses: [fakeReply.toolCalls([{ name: 'helper__env', arguments: {} }]), fakeReply.text('ok')] });
  const folder = repo('allowed', { helper: envServer({ TOKEN: '${env:GITHUB_TOKEN}' }) });
  const allowed = await runCli(['--json', '--trust-workspace', '--allow-secret-env', 'GITHUB_TOKEN', '--cwd', folder, 'show env'], { env: env(fake.url), ...SLOW });
  assert.equal(allowed.code, 0, allowed.stderr);
  const seen = parseEvents(allowed.stdout).find((e) => e.type === 'tool_finished');
  assert.ok(seen?.type === 'tool_finished' && (JSON.parse(seen.text) as Record<string, string>).TOKEN === GITHUB_TOKEN, 'the server got the token it was allowed');

  fake.enqueue(fakeReply.toolCalls([{ name: 'helper__env', arguments: {} }]), fakeReply.text('ok'));
  const userFile = join(dir, 'user-mcp.json');
  writeFileSync(userFile, JSON.stringify({ servers: { helper: envServer({ TOKEN: '${env:GITHUB_TOKEN}' }) } }));
  const own = await runCli(['--json', '--mcp-config', userFile, '--cwd', join(dir, 'allowed'), 'show env'], { env: env(fake.url), ...SLOW });
  assert.equal(own.code, 0, own.stderr);
  const ownSeen = parseEvents(own.stdout).find((e) => e.type === 'tool_finished');
  assert.ok(ownSeen?.type === 'tool_finished' && (JSON.parse(ownSeen.text) as Record<string, string>).TOKEN === GITHUB_TOKEN, 'the user\'s own server got its token');
});

test('hooks install asks the same: refused without --allow-secret-env, and the flag goes into the command it writes', async () => {
  const config = hookServerMcpConfig('gate', hookServerConfig({ hooks: { _Stop: { kind: 'empty' } } }));
  if (config.transport.type !== 'stdio') throw new Error('stdio expected');
  const { command, args, env: serverEnv } = config.transport;
  const folder = repo('install', { gate: { type: 'stdio', command, args, env: { ...serverEnv, TOKEN: '${env:GITHUB_TOKEN}' } } });
  const install = ['hooks', 'install', '--agent', 'claude', '--dry-run', '--trust-workspace', '--hook-servers', 'gate', '--cwd', folder];
  const refused = await runCli(install, { env: env('http://127.0.0.1:9/v1'), ...SLOW });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /server "gate": env\.TOKEN: the secret \$\{env:GITHUB_TOKEN\} would go to the program/);
  const allowed = await runCli([...install, '--allow-secret-env', 'GITHUB_TOKEN'], { env: env('http://127.0.0.1:9/v1'), ...SLOW });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stdout, /\+ Stop: .*hooks run --agent claude Stop .*--trust-workspace --allow-secret-env GITHUB_TOKEN/);
});
