// Instruction files through the real CLI (dist/) against the fake model server: they arrive in the
// system message (never as a user turn), a nested AGENTS.md joins only after a file of its folder was
// read, they are still there after compaction, an untrusted run reads none of the workspace's (and
// says so once) while the user's own still apply, and `sprout-agent instructions` lists what applies.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-instr-');

type Message = { role: string; content: string | null };

function messagesOf(index: number): Message[] {
  return (cli.fake?.chatRequests()[index]?.body as { messages: Message[] }).messages;
}

function workspace(name: string): { ws: string; home: string } {
  const ws = join(cli.dir, name);
  const home = join(cli.dir, `${name}-home`);
  mkdirSync(join(ws, 'pkg', 'app'), { recursive: true });
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(join(ws, 'AGENTS.md'), 'ROOT-RULE: use pnpm, never npm.\n');
  writeFileSync(join(ws, 'pkg', 'app', 'AGENTS.md'), 'APP-RULE: run make check in pkg/app before finishing.\n');
  writeFileSync(join(ws, 'pkg', 'app', 'main.ts'), 'export const x = 1;\n');
  writeFileSync(join(home, '.codex', 'AGENTS.md'), 'USER-RULE: answer briefly.\n');
  return { ws, home };
}

function env(home: string): Record<string, string> {
  return { ...baseEnv(cli.fake?.url ?? ''), HOME: home, SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', XDG_STATE_HOME: join(home, 'state') };
}

const readMain = fakeReply.toolCalls([{ name: 'workspace__read_file', arguments: { path: 'pkg/app/main.ts' } }]);

test('instructions go in the system message; a nested AGENTS.md joins after a file of its folder is read', async () => {
  const fake = await cli.startFake({ responses: [readMain, fakeReply.text('done')] });
  const { ws, home } = workspace('scoped');
  const result = await runCli(['--json', '--trust-workspace', '--cwd', ws, 'fix main'], { env: env(home) });
  assert.equal(result.code, 0, result.stderr);
  const [first, second] = [messagesOf(0), messagesOf(1)];
  assert.equal(first[0]?.role, 'system');
  assert.match(String(first[0]?.content), /USER-RULE[\s\S]*ROOT-RULE/, 'the user\'s file, then the root\'s');
  assert.doesNotMatch(String(first[0]?.content), /APP-RULE/, 'nothing in pkg/app was touched yet');
  assert.match(String(second[0]?.content), /ROOT-RULE[\s\S]*APP-RULE/, 'the nested file joins after the read, closest last');
  for (const m of [...first, ...second].filter((m) => m.role !== 'system')) assert.doesNotMatch(String(m.content), /ROOT-RULE|APP-RULE/, 'never in a user or tool turn');
  const announced = parseEvents(result.stdout).flatMap((e) => (e.type === 'instructions' ? [e.applied.map((a) => a.path)] : []));
  assert.deepEqual(announced, [['~/.codex/AGENTS.md', 'AGENTS.md'], ['~/.codex/AGENTS.md', 'AGENTS.md', 'pkg/app/AGENTS.md']]);
  assertAllRequestsValid(fake.requests);
});

test('after compaction the instructions, the nested one too, are still in the system message', async () => {
  const fake = await cli.startFake({
    responses: [readMain, fakeReply.text('first answer', { usage: { prompt_tokens: 1900, completion_tokens: 5 } }), fakeReply.text('NOTES: read main.'), fakeReply.text('second answer')],
  });
  const { ws, home } = workspace('compacted');
  const session = join(cli.dir, 'compacted.jsonl');
  const runEnv = { ...env(home), SPROUT_AGENT_MAX_CONTEXT_TOKENS: '2000' };
  assert.equal((await runCli(['--trust-workspace', '--session', session, '--cwd', ws, 'first'], { env: runEnv })).code, 0);
  const second = await runCli(['--json', '--trust-workspace', '--session', session, '--cwd', ws, 'second'], { env: runEnv });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(parseEvents(second.stdout).filter((e) => e.type === 'compaction').length, 1, 'the second run compacted');
  const last = messagesOf(fake.chatRequests().length - 1);
  assert.match(String(last.find((m) => m.role !== 'system')?.content), /NOTES: read main/, 'this request is the one after compaction');
  assert.match(String(last[0]?.content), /ROOT-RULE[\s\S]*APP-RULE/);
  assertAllRequestsValid(fake.requests);
});

test('without --trust-workspace none of the workspace\'s files are read, said once; the user\'s still apply', async () => {
  await cli.startFake({ responses: [readMain, fakeReply.text('done')] });
  const { ws, home } = workspace('untrusted');
  const result = await runCli(['--cwd', ws, 'fix main'], { env: env(home) });
  assert.equal(result.code, 0, result.stderr);
  for (const index of [0, 1]) {
    const system = String(messagesOf(index)[0]?.content);
    assert.match(system, /USER-RULE/);
    assert.doesNotMatch(system, /ROOT-RULE|APP-RULE/);
  }
  assert.equal(result.stderr.match(/none of its instruction files/g)?.length, 1, result.stderr);
});

test('--verbose names the files that apply; `instructions` lists them and why, per agent', async () => {
  await cli.startFake({ responses: [fakeReply.text('done')] });
  const { ws, home } = workspace('listed');
  writeFileSync(join(ws, 'CLAUDE.md'), 'CLAUDE-RULE\n');
  const verbose = await runCli(['--verbose', '--trust-workspace', '--cwd', ws, 'hi'], { env: env(home) });
  assert.match(verbose.stderr, /3 instruction files apply:\n {2}~\/\.codex\/AGENTS\.md \(a user-level file\)\n {2}AGENTS\.md \(at the workspace root\)\n {2}CLAUDE\.md/);
  const listed = await runCli(['instructions', 'pkg/app', '--json'], { env: env(home), cwd: ws });
  assert.equal(listed.code, 0, listed.stderr);
  const json = JSON.parse(listed.stdout) as { applied: { path: string; why: string }[] };
  assert.deepEqual(json.applied.map((a) => a.path), ['~/.codex/AGENTS.md', 'AGENTS.md', 'CLAUDE.md', 'pkg/app/AGENTS.md']);
  const claude = await runCli(['instructions', '--agent', 'claude'], { env: env(home), cwd: ws });
  assert.match(claude.stdout, /as claude reads them:\n {2}CLAUDE\.md {2}\(at the workspace root\)\n/);
  assert.doesNotMatch(claude.stdout, /AGENTS\.md/);
});
