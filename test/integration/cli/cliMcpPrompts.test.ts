// MCP prompts as slash commands through the real CLI (dist/) with the reference server
// (@modelcontextprotocol/server-everything over stdio, whose prompts take arguments) and the fake
// model server: "/mcp.everything.args-prompt Paris Texas" fills the arguments in declared order and
// the server's text is the user message the model receives and the prompt `_UserPromptSubmit` sees;
// --input gives one by name; Claude Code's /mcp__server__prompt form is read; an embedded resource's
// text is part of the prompt; a missing required argument, an unknown prompt and the server's own
// refusal exit 2 before the model is asked, the refusal named with the server.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, runCli, writeMcpConfig } from './cliHarness';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let fake: FakeOpenAi | undefined;
let dir: string;
let mcp: string;
let log: string;
before(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-mcp-prompts-'));
  log = join(dir, 'watch.log');
  mcp = writeMcpConfig(join(dir, 'mcp.json'), [
    { name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} } },
    hookServerMcpConfig('watch', hookServerConfig({ logFile: log, hooks: { _UserPromptSubmit: { kind: 'text', text: 'seen' } } })),
  ]);
});
afterEach(async () => {
  if (fake) assertAllRequestsValid(fake.requests);
  await fake?.close();
  fake = undefined;
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Message = { role: string; content: unknown };

function firstUserText(): string {
  const messages = (fake?.chatRequests()[0]?.body as { messages: Message[] }).messages;
  const user = messages.find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

async function run(...args: string[]) {
  fake = await startFakeOpenAi({ responses: [fakeReply.text('done')] });
  return runCli(['--json', '--cwd', dir, '--mcp-config', mcp, ...args], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'watch' }, timeoutMs: 60_000 });
}

function promptsSeen(): unknown[] {
  return readHookServerLog(log)
    .filter((e) => e.type === 'call' && e.tool === '_UserPromptSubmit')
    .map((e) => ((e.meta as Record<string, Record<string, unknown>> | undefined)?.['sprout/hook'] ?? {}).prompt);
}

test('"/mcp.everything.args-prompt Paris Texas": the arguments in declared order; the server\'s text is the user message and the prompt _UserPromptSubmit sees', async () => {
  const result = await run('/mcp.everything.args-prompt Paris Texas');
  assert.equal(result.code, 0, result.stderr);
  assert.equal(firstUserText(), "What's weather in Paris, Texas?");
  assert.ok(promptsSeen().includes("What's weather in Paris, Texas?"), JSON.stringify(promptsSeen()));
});

test('--input gives an argument by name; Claude Code\'s /mcp__server__prompt form is read too', async () => {
  const result = await run('--input', 'city=Oslo', '/mcp__everything__args-prompt');
  assert.equal(result.code, 0, result.stderr);
  assert.equal(firstUserText(), "What's weather in Oslo?");
});

test('an embedded resource\'s text is part of the prompt', async () => {
  const result = await run('/mcp.everything.resource-prompt Text 3');
  assert.equal(result.code, 0, result.stderr);
  const text = firstUserText();
  assert.match(text, /This prompt includes the Text resource with id: 3/);
  assert.match(text, /Resource 3: This is a plaintext resource/);
});

test('a missing required argument exits 2 naming it and how to give it; the model is not asked', async () => {
  const result = await run('/mcp.everything.args-prompt');
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /\/mcp\.everything\.args-prompt needs the argument city \(Name of the city\): give them after the command in this order \(city state\) or pass --input city=\.\.\./);
  assert.equal(fake?.chatRequests().length, 0);
});

test('an unknown prompt exits 2 listing the server\'s prompts; the server\'s refusal exits 2, named with the server', async () => {
  const unknown = await run('/mcp.everything.weather Paris');
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /\/mcp\.everything\.weather is not a prompt of a connected MCP server\. MCP server "everything" lists: .*\/mcp\.everything\.args-prompt/);
  await fake?.close();
  const refused = await run('/mcp.everything.resource-prompt Poem 1');
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /\/mcp\.everything\.resource-prompt: MCP server "everything" answered prompts\/get with an error: .*Invalid resourceType: Poem/);
  assert.equal(fake?.chatRequests().length, 0);
});

test('`sprout-agent prompts` lists the configured servers\' prompts beside the prompt files (server, name, arguments), with --json; a server that cannot start is a note; a workspace\'s own mcp.json starts only when trusted', async () => {
  const broken = writeMcpConfig(join(dir, 'broken.json'), [
    { name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} } },
    { name: 'gone', transport: { type: 'stdio', command: join(dir, 'no-such-server'), args: [], env: {} } },
  ]);
  const env = { PATH: process.env.PATH ?? '', HOME: dir, SPROUT_AGENT_BUILTIN_SERVERS: '' };
  const listed = await runCli(['prompts', '--json', '--cwd', dir, '--mcp-config', broken], { env, timeoutMs: 60_000 });
  assert.equal(listed.code, 0, listed.stderr);
  type Listed = { server: string; name: string; command: string; description: string; arguments: { name: string; description?: string; required: boolean }[] };
  const json = JSON.parse(listed.stdout) as { mcpPrompts: Listed[]; notes: string[]; commands: unknown[] };
  const args = json.mcpPrompts.find((p) => p.name === 'args-prompt');
  assert.deepEqual(args && { server: args.server, command: args.command, arguments: args.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`) }, { server: 'everything', command: '/mcp.everything.args-prompt', arguments: ['city', 'state?'] });
  assert.ok(json.mcpPrompts.some((p) => p.name === 'simple-prompt'), JSON.stringify(json.mcpPrompts));
  assert.ok(json.notes.some((n) => /^MCP server "gone": its prompts are not listed: /.test(n)), JSON.stringify(json.notes));
  const text = await runCli(['prompts', '--cwd', dir, '--mcp-config', mcp], { env, timeoutMs: 60_000 });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /MCP prompts:\n[\s\S]* {2}\/mcp\.everything\.args-prompt <city> \[state\] {2}.*\(MCP server "everything"\)/);
  // The workspace's own file: listed only with --trust-workspace (it would start the repository's commands).
  const ws = mkdtempSync(join(dir, 'ws-'));
  mkdirSync(join(ws, '.vscode'));
  writeMcpConfig(join(ws, '.vscode', 'mcp.json'), [{ name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} } }]);
  const untrusted = await runCli(['prompts', '--json', '--cwd', ws], { env, timeoutMs: 60_000 });
  assert.equal(untrusted.code, 0, untrusted.stderr);
  assert.deepEqual((JSON.parse(untrusted.stdout) as { mcpPrompts: unknown[] }).mcpPrompts, []);
  assert.match(untrusted.stderr, /defines servers everything, which did not start/);
  const trusted = await runCli(['prompts', '--json', '--cwd', ws, '--trust-workspace'], { env, timeoutMs: 60_000 });
  assert.ok((JSON.parse(trusted.stdout) as { mcpPrompts: Listed[] }).mcpPrompts.some((p) => p.command === '/mcp.everything.args-prompt'), trusted.stdout + trusted.stderr);
});
