// The CLI leaves no child process behind on the exit paths the signal tests do not cover: a normal
// end (0), an error after servers started (1) and max rounds (3), each with a server that started a
// grandchild in its group. And --session resumes compaction state: a run after a compaction starts
// from the handoff notes, not from the history that was compacted away, and does not compact again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { fakeReply, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { isAlive, killPids, waitFor } from '../mcp/mcpHarness';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const leftovers: number[] = [];
afterEach(() => {
  killPids(leftovers.splice(0));
});
const cli = cliFixture('sprout-cli-life-');

const exitPaths: Array<[string, number, FakeResponse[], string[]]> = [
  ['normal end', 0, [fakeReply.toolCalls([{ name: 'spawner__spawn', arguments: {} }]), fakeReply.text('done')], []],
  ['model error after a tool round', 1, [fakeReply.toolCalls([{ name: 'spawner__spawn', arguments: {} }]), fakeReply.error(400, 'bad request')], []],
  ['max rounds', 3, [fakeReply.toolCalls([{ name: 'spawner__spawn', arguments: {} }])], ['--max-rounds', '1']],
];

for (const [label, code, responses, extraArgs] of exitPaths) {
  test(`exit ${code} (${label}): the server and its grandchild are gone when the CLI exits`, async () => {
    const fake = await cli.startFake({ responses });
    const name = `path${code}`;
    const pidFile = join(cli.dir, `${name}.pid`);
    const log = join(cli.dir, `${name}.log`);
    const spawner = { name: 'spawn', behaviour: { kind: 'spawnGrandchild' as const, pidFile, then: 'empty' as const } };
    const config = hookServerConfig({ logFile: log, ignoreSigterm: true, extraTools: [spawner] });
    const mcp = writeMcpConfig(join(cli.dir, `${name}.json`), [hookServerMcpConfig('spawner', config)]);
    const result = await runCli(['--json', '--mcp-config', mcp, ...extraArgs, 'go'], { env: baseEnv(fake.url) });
    const pids = readHookServerLog(log).flatMap((e) => (e.type === 'started' ? [e.pid] : []));
    const grandchild = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : NaN;
    leftovers.push(...pids, grandchild);
    assert.equal(result.code, code, result.stderr);
    assert.ok(pids.length === 1 && Number.isInteger(grandchild), 'the server ran and started a grandchild');
    // The CLI awaited the group kill before exiting; give the kernel a moment to reap.
    await waitFor(() => !isAlive(pids[0] ?? NaN) && !isAlive(grandchild), 'server and grandchild gone', 5000);
    if (code === 1) assert.match(result.stderr, /bad request/);
  });
}

test('--session resumes after a compaction from the handoff notes, with no second compaction', async () => {
  const fake = await cli.startFake({
    responses: [
      fakeReply.text('first answer', { usage: { prompt_tokens: 1900, completion_tokens: 5 } }),
      fakeReply.text('NOTES: task was first; next step: second.'),
      fakeReply.text('second answer', { usage: { prompt_tokens: 200, completion_tokens: 5 } }),
      fakeReply.text('third answer', { usage: { prompt_tokens: 250, completion_tokens: 5 } }),
    ],
  });
  const session = join(cli.dir, 'compacted.jsonl');
  const env = { ...baseEnv(fake.url), SPROUT_AGENT_MAX_CONTEXT_TOKENS: '2000' };
  assert.equal((await runCli(['--session', session, 'first prompt'], { env })).code, 0);
  const second = await runCli(['--json', '--session', session, 'second prompt'], { env });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(parseEvents(second.stdout).filter((e) => e.type === 'compaction').length, 1, 'the second run compacted');
  const third = await runCli(['--json', '--session', session, 'third prompt'], { env });
  assert.equal(third.code, 0, third.stderr);
  const events = parseEvents(third.stdout);
  assert.equal(events.filter((e) => e.type === 'compaction').length, 0, 'no compaction on resume');
  assert.equal(outcomeOf(events)?.reason, 'end_turn');

  const chats = fake.chatRequests();
  assert.equal(chats.length, 4, 'first, summary, second, third');
  const last = (chats[3]?.body as { messages: Array<{ role: string; content: string | null }> }).messages.filter((m) => m.role !== 'system');
  assert.match(String(last[0]?.content), /NOTES: task was first/);
  assert.deepEqual(
    last.slice(1).map((m) => [m.role, m.content]),
    [
      ['user', 'second prompt'],
      ['assistant', 'second answer'],
      ['user', 'third prompt'],
    ],
  );
  assert.ok(!JSON.stringify(last).includes('first answer'), 'the compacted history is gone');
  assertAllRequestsValid(fake.requests);
});
