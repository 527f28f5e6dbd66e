// Slash commands through the real CLI (dist/) against the fake model server: "/name args" expands the
// workspace's prompt file and the expanded text arrives as the user message (its #file: reference
// attached, its mode applied), a missing ${input:} or an unknown command exits 2 before anything starts
// saying what to do, an untrusted run reads none of the workspace's files (the user's own
// ~/.claude/commands still work: vibestamps' fix-issue.md from the shared test data), and
// `sprout-agent prompts --json` lists them.
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { needsSharedData } from '../../sharedTestData';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const FIXTURE = resolve(__dirname, '..', '..', 'fixtures', 'prompt-files');
const cli = cliFixture('sprout-cli-prompts-');

type Message = { role: string; content: unknown };
type WireRequest = { messages: Message[]; tools?: Array<{ function: { name: string } }> };

function workspace(name: string): { ws: string; home: string } {
  const ws = join(cli.dir, name);
  const home = join(cli.dir, `${name}-home`);
  cpSync(FIXTURE, ws, { recursive: true });
  mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
  return { ws, home };
}

function env(home: string): Record<string, string> {
  return { ...baseEnv(cli.fake?.url ?? ''), HOME: home, SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', XDG_STATE_HOME: join(home, 'state') };
}

function request(index: number): WireRequest {
  return cli.fake?.chatRequests()[index]?.body as WireRequest;
}

function userText(index: number): string {
  const user = request(index).messages.filter((m) => m.role === 'user');
  return user.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}

test('"/fix-tests" with --input: the expanded prompt file is the user message, its #file: attached', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.text('done')] });
  const { ws, home } = workspace('expanded');
  const result = await runCli(['--json', '--trust-workspace', '--cwd', ws, '--input', 'framework=vitest', '/fix-tests src/a.ts'], { env: env(home) });
  assert.equal(result.code, 0, result.stderr);
  const text = userText(0);
  assert.match(text, /^Fix the failing vitest tests\. Keep the style of #file:\.\.\/\.\.\/src\/style\.md and do not skip tests\.\n\nsrc\/a\.ts/);
  assert.match(text, /Attached: src\/style\.md\n```\nUse two-space indentation and named exports\./);
  assert.doesNotMatch(String(request(0).messages[0]?.content), /Fix the failing/, 'not in the system message');
  const started = parseEvents(result.stdout).find((e) => e.type === 'prompt_started');
  assert.match(JSON.stringify(started), /Fix the failing vitest tests/);
  assertAllRequestsValid(fake.requests);
});

test('a prompt file with `mode: ask` runs in Ask mode (read-only tools); --mode overrides it', async () => {
  await cli.startFake({ responses: [fakeReply.text('it adds'), fakeReply.text('done')] });
  const { ws, home } = workspace('moded');
  const ask = await runCli(['--trust-workspace', '--cwd', ws, '/explain src/style.md'], { env: env(home) });
  assert.equal(ask.code, 0, ask.stderr);
  const offered = (i: number): string[] => (request(i).tools ?? []).map((t) => t.function.name);
  assert.ok(offered(0).includes('workspace__read_file'));
  assert.ok(!offered(0).includes('workspace__write_file'), offered(0).join(','));
  assert.match(userText(0), /^Explain what the code does, plainly\.\n\nsrc\/style\.md$/);
  const agent = await runCli(['--trust-workspace', '--mode', 'agent', '--cwd', ws, '/explain'], { env: env(home) });
  assert.equal(agent.code, 0, agent.stderr);
  assert.ok(offered(1).includes('workspace__write_file'), 'the explicit --mode wins');
});

test('a missing ${input:}, an unknown command and a bad --input exit 2 before the model is asked, saying what to do', async () => {
  const fake = await cli.startFake({ responses: [] });
  const { ws, home } = workspace('errors');
  const missing = await runCli(['--trust-workspace', '--cwd', ws, '/fix-tests src/a.ts'], { env: env(home) });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /\/fix-tests \(\.github\/prompts\/fix-tests\.prompt\.md\) needs the input framework \(jest or vitest\): pass --input framework=\.\.\./);
  const unknown = await runCli(['--trust-workspace', '--cwd', ws, '/fix-test'], { env: env(home) });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /\/fix-test is not a command\. Did you mean \/fix-tests\? List them with: sprout-agent prompts\./);
  const bad = await runCli(['--trust-workspace', '--cwd', ws, '--input', 'framework', '/fix-tests'], { env: env(home) });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--input "framework" is not NAME=VALUE/);
  assert.equal(fake.chatRequests().length, 0);
});

const shared = needsSharedData('instruction-files');

test('untrusted: the workspace\'s commands are not read (said); the user\'s ~/.claude/commands still run', { skip: shared.skip }, async () => {
  await cli.startFake({ responses: [fakeReply.text('done')] });
  const { ws, home } = workspace('untrusted');
  copyFileSync(join(shared.dir, 'vibestamps.fix-issue.md'), join(home, '.claude', 'commands', 'fix-issue.md'));
  const refused = await runCli(['--cwd', ws, '--input', 'framework=jest', '/fix-tests'], { env: env(home) });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /\/fix-tests is not a command\. Available: \/fix-issue\.[\s\S]*note: The workspace is not trusted, so none of its prompt files/);
  const mine = await runCli(['--cwd', ws, '/fix-issue 123'], { env: env(home) });
  assert.equal(mine.code, 0, mine.stderr);
  assert.match(userText(0), /^Analyze and fix GitHub issue: 123\n[\s\S]*gh issue view 123/);
  const listed = await runCli(['prompts', '--json'], { env: env(home), cwd: ws });
  assert.equal(listed.code, 0, listed.stderr);
  const json = JSON.parse(listed.stdout) as { commands: { name: string; source: string; description: string }[]; builtin: { name: string }[] };
  assert.deepEqual(json.commands.map((c) => `${c.name} ${c.source}`).sort(), [
    'explain .github/prompts/explain.prompt.md',
    'fix-issue ~/.claude/commands/fix-issue.md',
    'fix-tests .github/prompts/fix-tests.prompt.md',
    'frontend:component .claude/commands/frontend/component.md',
  ]);
  assert.equal(json.commands.find((c) => c.name === 'fix-tests')?.description, 'Fix the failing tests of a file');
  assert.deepEqual(json.builtin.map((b) => b.name), ['new', 'compact', 'hooks']);
});
