// The exit code is derived from the outcome the CLI prints, never from what the servers look like a
// moment later: whatever the timing, `exit code === exitCodeForOutcome(printed outcome)`. A failed
// server the run needed (an allowlisted hook server that crashed mid-call) is listed on that outcome,
// which is why the run exits 2. The hostile case of the issue (budget 1, a 222 ms hook timeout, a
// resumed session, one server exiting mid-call) is checked run after run against the same rule.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Outcome } from '../../../src/agent/events';
import { EXIT_USAGE, exitCodeForOutcome } from '../../../src/runtime/exitCodes';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, type HookBehaviour } from '../../fakes/hookServer';
import { baseEnv, parseEvents, runCli, writeMcpConfig, type CliResult } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-exit-');

type PrintedOutcome = Outcome & { failedServers?: { server: string; why: string; error: string }[] };

/** The last outcome printed, checked against the exit code: the one rule this file is about. */
function agreed(result: CliResult, what: string): PrintedOutcome {
  const outcomes = parseEvents(result.stdout).flatMap((e) => (e.type === 'outcome' ? [e.outcome as PrintedOutcome] : []));
  assert.equal(outcomes.length, 1, `${what}: one outcome printed\n${result.stderr}`);
  const outcome = outcomes[0] as PrintedOutcome;
  assert.equal(result.code, exitCodeForOutcome(outcome), `${what}: exit ${result.code} but the printed outcome says ${JSON.stringify(outcome)}\n${result.stderr}`);
  return outcome;
}

function hookServers(name: string, hooks: Record<string, Record<string, HookBehaviour>>): string {
  const servers = Object.entries(hooks).map(([server, own]) => hookServerMcpConfig(server, hookServerConfig({ stateFile: join(cli.dir, `${name}-${server}.state`), hooks: own })));
  return writeMcpConfig(join(cli.dir, `${name}.json`), servers);
}

const SLOW = { timeoutMs: 240_000 };

test('an allowlisted hook server that crashes mid-call is on the printed outcome, and that is why the exit is 2', async () => {
  const fake = await cli.startFake();
  fake.setResponder(() => fakeReply.text('done'));
  const mcp = hookServers('crash', { h0: { _Stop: { kind: 'exitMidCall' } }, h1: { _Stop: { kind: 'empty' } } });
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'h0,h1', SPROUT_AGENT_HOOK_TIMEOUT_MS: '60000', SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' };
  const result = await runCli(['--json', '--mcp-config', mcp, 'finish'], { env, ...SLOW });
  const outcome = agreed(result, 'the crash');
  assert.equal(result.code, EXIT_USAGE);
  assert.deepEqual(outcome.failedServers?.map((f) => f.server), ['h0']);
  assert.match(result.stderr, /MCP server "h0" failed and this run needed it \(it is allowlisted in MCP_HOOK_SERVERS/);
});

test('hostile hook servers with budget 1, a 222 ms hook timeout and a resumed session: exit code and outcome agree on every run', async () => {
  const fake = await cli.startFake();
  fake.setResponder(() => fakeReply.text('done'));
  const cases: Record<string, Record<string, HookBehaviour>>[] = [
    { h0: { _Stop: { kind: 'exitMidCall' } }, h1: { _Stop: { kind: 'object', text: 'not yet' } } },
    { h0: { _Stop: { kind: 'object', text: 'still red' }, _SessionEnd: { kind: 'exitMidCall' } }, h1: { _Stop: { kind: 'delay', ms: 200, text: 'slow' } } },
    { h0: { _Stop: { kind: 'hang' }, _UserPromptSubmit: { kind: 'crash' } }, h1: { _Stop: { kind: 'object', text: 'once', times: 1 } } },
  ];
  for (const [i, hooks] of cases.entries()) {
    const mcp = hookServers(`hostile-${i}`, hooks);
    const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'h0,h1', SPROUT_AGENT_STOP_MAX_REJECTIONS: '1', SPROUT_AGENT_HOOK_TIMEOUT_MS: '222' };
    const session = join(cli.dir, `hostile-${i}.jsonl`);
    for (const run of ['first', 'resumed']) {
      const result = await runCli(['--json', '--session', session, '--mcp-config', mcp, `${run} prompt`], { env, ...SLOW });
      agreed(result, `case ${i}, ${run} run (${JSON.stringify(hooks)})`);
    }
  }
});
