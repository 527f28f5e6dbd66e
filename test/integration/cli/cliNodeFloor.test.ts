// The CLI on the oldest Node the README promises (package.json's engines.node), not only on the Node
// the suite runs on: `dist/cli.js` bundles the openai SDK (7.x, which declares Node 22 for itself), so
// the floor is proven by running it there. That exact Node comes from the npm registry (the package
// `node`, once, into the user's cache folder) and runs a whole turn: the real SDK against the fake
// model, a tool of a real MCP server, the bundled workspace server (started by the CLI with the same
// Node), and a `_Stop` hook that objects once. Below the floor, the CLI says so in one line.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { ensureNodeVersion } from '../../../scripts/ensureCodeServer';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, objectTimes } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, outcomeOf, parseEvents, REPO_ROOT, runCli, writeMcpConfig } from './cliHarness';

/** `>=22.15` in package.json is the promise; its first release is what runs here. */
function floorVersion(): string {
  const engines = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines.trim());
  assert.ok(match, `engines.node is a plain floor: ${engines}`);
  return `${match[1]}.${match[2]}.${match[3] ?? '0'}`;
}

let dir: string;
let fake: FakeOpenAi | undefined;
let node: string;
before(async () => {
  await ensureBuilt();
  node = ensureNodeVersion(floorVersion());
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-floor-'));
});
after(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('runs a whole turn on the Node floor of package.json', { timeout: 600_000 }, async () => {
  const version = floorVersion();
  fake = await startFakeOpenAi({
    apiKey: 'sk-test-cli-secret-0123456789',
    responses: [
      fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'on the floor' } }, { name: 'workspace__list_files', arguments: { path: '.' } }]),
      fakeReply.text('Done.'),
      fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'checked' } }]),
      fakeReply.text('Checked.'),
    ],
  });
  const tools = hookServerMcpConfig('tools', hookServerConfig({ logFile: join(dir, 'tools.log'), hooks: { _Stop: objectTimes('check once more', 1) } }));
  const config = writeMcpConfig(join(dir, 'mcp.json'), [tools]);
  const result = await runCli(['--json', '--cwd', dir, '--mcp-config', config, '--builtin-servers', 'workspace', 'go'], {
    node,
    env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'tools', XDG_STATE_HOME: join(dir, 'state') },
    timeoutMs: 300_000,
  });
  assert.equal(result.code, 0, `node ${version}: ${result.stderr}`);
  const events = parseEvents(result.stdout);
  assert.equal(outcomeOf(events)?.reason, 'end_turn');
  assert.deepEqual(
    // The first round's two calls run in parallel, so they may finish in either order.
    events.flatMap((e) => (e.type === 'tool_finished' ? [`${e.name}:${e.isError}`] : [])).sort(),
    ['tools__echo:false', 'tools__echo:false', 'workspace__list_files:false'],
  );
  assert.equal(events.filter((e) => e.type === 'hook_objected').length, 1);
  assert.equal(fake.chatRequests().length, 4);
  assertAllRequestsValid(fake.requests);
});

it('refuses a Node under the floor with one line and exit 2, before anything starts', { timeout: 600_000 }, async () => {
  const old = ensureNodeVersion('20.19.0');
  const result = await runCli(['--json', '--cwd', dir, 'go'], { node: old, env: { ...baseEnv('http://127.0.0.1:9/v1'), XDG_STATE_HOME: join(dir, 'state-old') }, timeoutMs: 120_000 });
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^sprout-agent needs Node\.js 22\.15 or later; this is Node\.js v20\.19\.0\./);
  assert.equal(result.stderr.trimEnd().split('\n').length, 1, `one line, no stack trace: ${result.stderr}`);
});

it('a hook event on a Node under the floor fails open (exit 1, not the "block" of exit 2)', { timeout: 600_000 }, async () => {
  const old = ensureNodeVersion('20.19.0');
  const result = await runCli(['hooks', 'run', '--agent', 'claude'], { node: old, env: baseEnv('http://127.0.0.1:9/v1'), timeoutMs: 120_000, input: '{}' });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^sprout-agent needs Node\.js 22\.15 or later/);
});
