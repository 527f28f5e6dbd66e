// `sprout-agent hooks check` against real FakeHookServer processes: lists hooks and the allowlist,
// calls each hook once with sample `_meta` marked dryRun (the chosen --tool/--args included), reports
// answers and timeouts, and exits 0 only when every call answered within the hook timeout.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CheckReport } from '../../../src/cli/hooksCheckReport';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookServerConfig } from '../../fakes/hookServer';
import { baseEnv, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-hooks-check-');

function config(name: string, servers: Record<string, HookServerConfig>): string {
  return writeMcpConfig(
    join(cli.dir, `${name}.json`),
    Object.entries(servers).map(([server, c]) => hookServerMcpConfig(server, hookServerConfig({ logFile: join(cli.dir, `${name}.${server}.log`), ...c }))),
  );
}

const env = (extra: Record<string, string> = {}) => ({ ...baseEnv('http://127.0.0.1:9/v1'), ...extra });

test('every hook answered in time: exit 0; the report names hooks, allowlisting and what each answer would do', async () => {
  const mcp = config('good', {
    guard: { hooks: { _PreToolUse: { kind: 'text', text: 'no rm -rf' }, _Stop: { kind: 'empty' }, _Typo: { kind: 'empty' } } },
    other: { hooks: { _SessionEnd: { kind: 'isError', text: 'broken but answering' } } },
    plain: {},
  });
  const result = await runCli(['hooks', 'check', '--mcp-config', mcp], { env: env({ MCP_HOOK_SERVERS: 'guard' }) });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /guard: allowlisted\n {2}speaks MCP 2026-07-28 \(modern era\)\n {2}hooks: _PreToolUse, _Stop\n {2}ignored "_" tools \(no hook of that name\): _Typo/);
  assert.match(result.stdout, /_PreToolUse {2}\d+ ms {2}answered within 2500 ms: the call would be denied: "no rm -rf"/);
  assert.match(result.stdout, /other: NOT allowlisted, so a real run ignores its hooks; add it to MCP_HOOK_SERVERS/);
  assert.match(result.stdout, /_SessionEnd {2}\d+ ms {2}answered isError within 2500 ms: no effect \(fail open\)/);
  assert.match(result.stdout, /plain: not allowlisted \(nothing to enable\)\n {2}speaks MCP 2026-07-28 \(modern era\)\n {2}no lifecycle hooks/, 'no advice to allowlist a server without hooks');
  assert.match(result.stdout, /3 calls: 3 answered within the timeout, 0 did not\.\nOK\n$/);
  assert.equal(readHookServerLog(join(cli.dir, 'good.guard.log')).filter((e) => e.tool === '_Typo').length, 0, 'unknown _ tools are not called');
});

test('the sample _meta is a real run\'s, marked dryRun, with --tool and --args; --event picks one hook; --json', async () => {
  const mcp = config('meta', { guard: { hooks: { _PreToolUse: { kind: 'empty' }, _Stop: { kind: 'empty' } } } });
  const result = await runCli(['hooks', 'check', '--mcp-config', mcp, '--event', 'PreToolUse', '--tool', 'shell__run', '--args', '{"command":"git push"}', '--json'], {
    env: env({ MCP_HOOK_SERVERS: '*', SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS: '3' }),
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as CheckReport;
  assert.equal(report.ok, true);
  assert.deepEqual(report.servers.map((s) => [s.name, s.allowlisted, s.hooks, s.calls.map((c) => [c.hook, c.result, c.answered])]), [
    ['guard', true, ['_PreToolUse', '_Stop'], [['_PreToolUse', 'no_objection', true]]],
  ]);
  const calls = readHookServerLog(join(cli.dir, 'meta.guard.log')).filter((e) => e.type === 'call');
  assert.deepEqual(calls.map((c) => c.tool), ['_PreToolUse']);
  assert.deepEqual(calls[0]?.arguments, {});
  const meta = (calls[0]?.meta as Record<string, Record<string, unknown>>)['sprout/hook'];
  assert.match(String(meta?.sessionId), /^hooks-check-/);
  assert.deepEqual({ ...meta, sessionId: 'x' }, {
    event: '_PreToolUse',
    sessionId: 'x',
    dryRun: true,
    tool: 'shell__run',
    server: 'shell',
    toolName: 'run',
    arguments: { command: 'git push' },
    callId: 'call_hooks_check_1',
    denialsUsed: 0,
    denialBudget: 3,
  });
});

test('a hook that does not answer in time: exit 1 with the timeout verdict', async () => {
  const mcp = config('slow', { slow: { hooks: { _UserPromptSubmit: { kind: 'hang' }, _Stop: { kind: 'text', text: 'fine' } } } });
  const result = await runCli(['hooks', 'check', '--mcp-config', mcp], { env: env({ MCP_HOOK_SERVERS: 'slow', SPROUT_AGENT_HOOK_TIMEOUT_MS: '400' }) });
  assert.equal(result.code, 1);
  assert.match(result.stdout, /_UserPromptSubmit {2}\d+ ms {2}TIMED OUT \(limit 400 ms\)/);
  assert.match(result.stdout, /_Stop {2}\d+ ms {2}answered within 400 ms: an objection: the agent would keep working: "fine"/);
  assert.match(result.stdout, /NOT OK\n$/);
});

test('an allowlist entry that names no server here is reported, and the check is not OK', async () => {
  const mcp = config('typo', { guard: { hooks: { _Stop: { kind: 'empty' } } } });
  const result = await runCli(['hooks', 'check', '--mcp-config', mcp], { env: env({ MCP_HOOK_SERVERS: 'guard,gaurd' }) });
  assert.equal(result.code, 1);
  assert.match(result.stdout, /MCP_HOOK_SERVERS names gaurd, which is no server here: a run would stop with a configuration error\./);
  assert.match(result.stdout, /guard: allowlisted/);
  assert.match(result.stdout, /NOT OK\n$/);
});

test('no hook to call, a bad --event or --args: exit 1 and 2 with what to do', async () => {
  const mcp = config('none', { plain: {} });
  const none = await runCli(['hooks', 'check', '--mcp-config', mcp], { env: env() });
  assert.equal(none.code, 1);
  assert.match(none.stdout, /No hook was called/);
  const event = await runCli(['hooks', 'check', '--mcp-config', mcp, '--event', 'Start'], { env: env() });
  assert.equal(event.code, 2);
  assert.match(event.stderr, /--event: "Start" is no hook; use one of _SessionStart, /);
  const args = await runCli(['hooks', 'check', '--args', '[1]'], { env: env() });
  assert.equal(args.code, 2);
  assert.match(args.stderr, /--args: expected a JSON object/);
  const sub = await runCli(['hooks', 'list'], { env: env() });
  assert.equal(sub.code, 2);
  assert.match(sub.stderr, /unknown hooks command "list"/);
  const help = await runCli(['hooks', '--help'], { env: env() });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: sprout-agent hooks check/);
});

test('--event SubagentStop calls _SubagentStop with the _Stop fields and the sample agent; its objection is the subagent\'s', async () => {
  const mcp = config('sub', { gate: { hooks: { _SubagentStop: { kind: 'text', text: 'run the tests first' } } } });
  const result = await runCli(['hooks', 'check', '--mcp-config', mcp, '--event', 'SubagentStop'], { env: env({ MCP_HOOK_SERVERS: 'gate' }) });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /_SubagentStop {2}\d+ ms {2}answered within 2500 ms: an objection: the subagent would keep working: "run the tests first"/);
  const calls = readHookServerLog(join(cli.dir, 'sub.gate.log')).filter((e) => e.type === 'call');
  const meta = (calls[0]?.meta as Record<string, Record<string, unknown>>)['sprout/hook'];
  assert.deepEqual(meta?.agent, { id: 'sub-1', name: 'general' });
  assert.equal(meta?.dryRun, true);
});
