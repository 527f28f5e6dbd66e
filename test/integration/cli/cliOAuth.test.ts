// The CLI signs in to an OAuth-protected HTTP server: it prints the sign-in URL, waits on a loopback
// port for the redirect, keeps the tokens in the user's private state folder (0600 in 0700), and the
// next run uses them without asking.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../fakes/oauthMcpServer';
import { baseEnv, collect, ensureBuilt, spawnCli } from './cliHarness';

let dir: string;
let server: OAuthMcpServer;
let fake: FakeOpenAi;
before(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-oauth-'));
  server = await startOAuthMcpServer();
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ servers: { secure: { type: 'http', url: server.url } } }));
});
after(async () => {
  await fake?.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runOnce(): Promise<{ code: number | null; stdout: string; stderr: string; signInUrls: string[] }> {
  fake = await startFakeOpenAi({ responses: [fakeReply.toolCalls([{ name: 'secure__whoami', arguments: {} }]), fakeReply.text('done')] });
  const child = spawnCli(['--mcp-config', join(dir, 'mcp.json'), 'who am I'], {
    env: { ...baseEnv(fake.url), XDG_STATE_HOME: join(dir, 'state'), SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '20000' },
  });
  child.stdin?.end();
  const signInUrls: string[] = [];
  let seen = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    for (const match of seen.matchAll(/^ {2}(http\S+)$/gm)) {
      if (!signInUrls.includes(match[1] ?? '')) {
        signInUrls.push(match[1] ?? '');
        void browse(match[1] ?? '');
      }
    }
  });
  const result = await collect(child, { timeoutMs: 60_000 });
  await fake.close();
  return { ...result, signInUrls };
}

it('the first run prints the sign-in URL and completes after the redirect; the next run reuses the tokens', async () => {
  const first = await runOnce();
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /MCP server "secure" asks you to sign in\. Open this URL in a browser on this machine:/);
  assert.equal(first.signInUrls.length, 1);
  assert.match(first.stdout, /<- secure__whoami: client /);

  const folder = join(dir, 'state', 'sprout-agent', 'oauth');
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  const files = readdirSync(folder);
  assert.equal(files.length, 1);
  assert.equal(statSync(join(folder, files[0] ?? '')).mode & 0o777, 0o600);

  const second = await runOnce();
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.signInUrls.length, 0, 'no sign-in the second time');
  assert.match(second.stdout, /<- secure__whoami: client /);
  assert.deepEqual(server.auth.log.filter((e) => e === 'authorize'), ['authorize']);
});
