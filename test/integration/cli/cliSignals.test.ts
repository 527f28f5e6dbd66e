// SIGINT/SIGTERM mid-run: the CLI cancels the run, saves the session, closes every server and exits
// 130, leaving no child behind: the hook server (even one ignoring SIGTERM) and its grandchild are gone.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type { TranscriptRecord } from '../../../src/agent/events';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookServerConfig } from '../../fakes/hookServer';
import { isAlive, killPids, waitFor } from '../mcp/mcpHarness';
import { baseEnv, collect, spawnCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const leftovers: number[] = [];
afterEach(() => {
  killPids(leftovers.splice(0));
});
const cli = cliFixture('sprout-cli-signals-');

function sessionOutcome(file: string): string | undefined {
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TranscriptRecord);
  const last = records.at(-1)?.event;
  return last?.type === 'outcome' ? last.outcome.reason : undefined;
}

async function interruptedRun(name: string, config: HookServerConfig, signal: NodeJS.Signals, ready: () => boolean): Promise<{ code: number | null; pids: number[]; session: string }> {
  const log = join(cli.dir, `${name}.log`);
  const mcp = writeMcpConfig(join(cli.dir, `${name}.json`), [hookServerMcpConfig(name, hookServerConfig({ logFile: log, ...config }))]);
  const session = join(cli.dir, `${name}.jsonl`);
  const child = spawnCli(['--json', '--session', session, '--mcp-config', mcp, 'go'], { env: { ...baseEnv(cli.fake?.url ?? ''), MCP_HOOK_SERVERS: name } });
  child.stdin?.end();
  // No elapsed-time check: a CLI that ignored the signal would either finish the run (not 130, not
  // cancelled) or wait on a hang that never ends, which collect's hang guard fails.
  const done = collect(child, { timeoutMs: 30_000 });
  await waitFor(() => readHookServerLog(log).some((e) => e.type === 'started') && ready(), 'the run to reach the point of interruption', 20_000);
  const pids = readHookServerLog(log).flatMap((e) => (e.type === 'started' ? [e.pid] : []));
  leftovers.push(...pids);
  child.kill(signal);
  const result = await done;
  return { code: result.code, pids, session };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} while the model hangs: exit 130, session saved, no server left`, async () => {
    const fake = await cli.startFake({ responses: [fakeReply.hang()] });
    const f = fake;
    const run = await interruptedRun(`model${signal}`, { hooks: { _Stop: { kind: 'empty' } } }, signal, () => f.chatRequests().length > 0);
    assert.equal(run.code, 130);
    assert.equal(sessionOutcome(run.session), 'cancelled');
    for (const pid of run.pids) assert.equal(isAlive(pid), false, `server ${pid} is gone`);
  });
}

test('SIGTERM while a hook hangs: exit 130, the SIGTERM-ignoring server and its grandchild are gone', async () => {
  await cli.startFake({ responses: [fakeReply.text('done?')] });
  const pidFile = join(cli.dir, 'grandchild.pid');
  const run = await interruptedRun('hanger', { ignoreSigterm: true, hooks: { _Stop: { kind: 'spawnGrandchild', pidFile, then: 'hang' } } }, 'SIGTERM', () =>
    existsSync(pidFile),
  );
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  leftovers.push(grandchild);
  assert.equal(run.code, 130);
  assert.equal(sessionOutcome(run.session), 'cancelled');
  // The CLI awaited the group kill before exiting; allow the kernel a moment to reap.
  await waitFor(() => run.pids.every((pid) => !isAlive(pid)) && !isAlive(grandchild), 'server and grandchild gone', 5000);
});
