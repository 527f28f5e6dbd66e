// The lifecycle hooks through `node dist/cli.js`, as external tests will drive them: `_SessionStart`
// on a new and on a resumed --session, `_SessionEnd` on exit 0, on SIGTERM and on an error, the
// --json events for denials and injections, the readable lines, the denial budget from the
// environment, and the final `_Stop` verdict in the outcome.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookServerConfig, type HookServerLogEntry } from '../../fakes/hookServer';
import { waitFor } from '../mcp/mcpHarness';
import { baseEnv, collect, outcomeOf, parseEvents, runCli, spawnCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';
import { scaledMs } from '../../loadScale';

const cli = cliFixture('sprout-cli-hooks-', { checkRequests: true });

/** One hook server named `name` (plus a plain `work` server for tools), as an mcp.json; returns its path and log. */
function servers(name: string, config: HookServerConfig): { mcp: string; log: string } {
  const log = join(cli.dir, `${name}.log`);
  const mcp = writeMcpConfig(join(cli.dir, `${name}.json`), [
    hookServerMcpConfig('work', hookServerConfig({ logFile: join(cli.dir, `${name}.work.log`) })),
    hookServerMcpConfig(name, hookServerConfig({ logFile: log, ...config })),
  ]);
  return { mcp, log };
}

const hookCalls = (log: string, hook: string): HookServerLogEntry[] => readHookServerLog(log).filter((e) => e.type === 'call' && e.tool === hook);
const hookMeta = (entry: HookServerLogEntry | undefined): Record<string, unknown> | undefined =>
  (entry?.meta as Record<string, Record<string, unknown>> | undefined)?.['sprout/hook'];

test('--session: _SessionStart "new", then "resume" on the next run; _SessionEnd "exit" after each; --json shows the injection', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.text('first'), fakeReply.text('second')] });
  const { mcp, log } = servers('life', {
    hooks: { _SessionStart: { kind: 'ifMeta', key: 'source', value: 'resume', then: { kind: 'text', text: 'welcome back' } }, _SessionEnd: { kind: 'text', text: 'ignored' } },
  });
  const session = join(cli.dir, 'life.jsonl');
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'life' };
  const first = await runCli(['--json', '--session', session, '--mcp-config', mcp, 'one'], { env });
  assert.equal(first.code, 0, first.stderr);
  const second = await runCli(['--json', '--session', session, '--mcp-config', mcp, 'two'], { env });
  assert.equal(second.code, 0, second.stderr);

  assert.deepEqual(hookCalls(log, '_SessionStart').map((c) => hookMeta(c)?.source), ['new', 'resume']);
  assert.deepEqual(hookCalls(log, '_SessionEnd').map((c) => hookMeta(c)?.reason), ['exit', 'exit']);
  const events = parseEvents(second.stdout);
  assert.deepEqual(events.filter((e) => e.type === 'hook_injected'), [{ type: 'hook_injected', hook: '_SessionStart', server: 'life', text: 'welcome back' }]);
  const ends = events.filter((e) => e.type === 'hook_finished' && e.hook === '_SessionEnd');
  assert.equal(ends.length, 1, 'the _SessionEnd call is shown');
  assert.equal(events.at(-1)?.type, 'hook_finished', '_SessionEnd comes after the outcome');
  assert.equal(outcomeOf(events.slice(0, events.findIndex((e) => e.type === 'outcome') + 1))?.reason, 'end_turn');
  const request = fake.chatRequests()[1]?.body as { messages: Array<{ role: string; content: string | null }> };
  assert.ok(request.messages.some((m) => m.role === 'tool' && m.content === JSON.stringify({ hook: '_SessionStart', server: 'life', text: 'welcome back' })));
});

test('SIGTERM while the model hangs: _SessionEnd "interrupted" before the servers are closed, exit 130', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.hang()] });
  const f = fake;
  const { mcp, log } = servers('term', { hooks: { _SessionEnd: { kind: 'empty' } } });
  const child = spawnCli(['--json', '--mcp-config', mcp, 'go'], { env: { ...baseEnv(f.url), MCP_HOOK_SERVERS: 'term' } });
  child.stdin?.end();
  const done = collect(child, { timeoutMs: 30_000 });
  await waitFor(() => f.chatRequests().length > 0, 'the model call', 20_000);
  child.kill('SIGTERM');
  const result = await done;
  assert.equal(result.code, 130);
  assert.deepEqual(hookCalls(log, '_SessionEnd').map((c) => hookMeta(c)), [{ event: '_SessionEnd', sessionId: hookMeta(hookCalls(log, '_SessionEnd')[0])?.sessionId, reason: 'interrupted' }]);
  assert.match(String(hookMeta(hookCalls(log, '_SessionEnd')[0])?.sessionId), /^cli-/);
});

test('an error exit (the model refuses the key) still calls _SessionEnd, within the hook timeout', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.error(401, 'Incorrect API key provided')] });
  const { mcp, log } = servers('err', { hooks: { _SessionEnd: { kind: 'hang' } } });
  // The hook never answers: only its timeout lets the CLI exit. A held exit meets the run's hang guard
  // (killed, no exit code), never a wall-clock bound a busy machine could cross.
  const result = await runCli(['--mcp-config', mcp, 'go'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'err', SPROUT_AGENT_HOOK_TIMEOUT_MS: '500' }, timeoutMs: 120_000 });
  assert.equal(result.code, 1, `a hung _SessionEnd does not hold the exit: ${result.stderr}`);
  assert.deepEqual(hookCalls(log, '_SessionEnd').map((c) => hookMeta(c)?.reason), ['exit']);
});

test('a _PreToolUse denial: --json has tool_denied, the text output says who blocked it; the budget comes from the environment', async () => {
  const fake = await cli.startFake({
    responses: [fakeReply.toolCalls([{ id: 'c1', name: 'work__echo', arguments: { text: 'rm -rf /' } }]), fakeReply.text('ok, I will not'), fakeReply.toolCalls([{ id: 'c2', name: 'work__echo', arguments: { text: 'x' } }]), fakeReply.text('ran')],
  });
  const { mcp, log } = servers('guard', { hooks: { _PreToolUse: { kind: 'text', text: 'no destructive commands' } } });
  // A hook that answers must answer in time however busy the machine is: the timeout scales with its load.
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'guard', SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(2500)) };
  const json = await runCli(['--json', '--mcp-config', mcp, 'clean up'], { env });
  assert.equal(json.code, 0, json.stderr);
  const denied = parseEvents(json.stdout).filter((e) => e.type === 'tool_denied');
  assert.deepEqual(denied, [{ type: 'tool_denied', callId: 'c1', name: 'work__echo', server: 'guard', text: 'no destructive commands', denialsUsed: 1, denialBudget: 10 }]);
  assert.equal(readHookServerLog(join(cli.dir, 'guard.work.log')).filter((e) => e.tool === 'echo').length, 0);

  const text = await runCli(['--mcp-config', mcp, 'again'], { env: { ...env, SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS: '0' } });
  assert.equal(text.code, 0, text.stderr);
  assert.equal(hookCalls(log, '_PreToolUse').length, 1, '0 never calls _PreToolUse');
  assert.match(text.stdout, /-> work__echo/);
});

test('the readable output marks a denial and an injection; a bad SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS exits 2 naming it', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'x' } }]), fakeReply.text('done')] });
  const { mcp } = servers('both', { hooks: { _PreToolUse: { kind: 'text', text: 'blocked\u001b[31m here' }, _UserPromptSubmit: { kind: 'text', text: 'context for you' } } });
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'both' };
  const result = await runCli(['--mcp-config', mcp, 'go'], { env });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /\+\+ _UserPromptSubmit from both: context for you/);
  assert.match(result.stdout, /xx work__echo blocked by both \(_PreToolUse 1\/10\):\n {2}\| blocked here/);
  const bad = await runCli(['--mcp-config', mcp, 'go'], { env: { ...env, SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS: '-1' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS/);
});

test('a spent budget: the final verdict (final: true) is reported unresolved in --json and in the text', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.text('done'), fakeReply.text('really done'), fakeReply.text('done'), fakeReply.text('really done')] });
  const { mcp, log } = servers('nag', { hooks: { _Stop: { kind: 'text', text: 'tests still fail' } } });
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'nag', SPROUT_AGENT_STOP_MAX_REJECTIONS: '1', SPROUT_AGENT_REPEATED_END_TURN_STOPS: 'false', SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(2500)) };
  const json = await runCli(['--json', '--mcp-config', mcp, 'fix'], { env });
  const outcome = parseEvents(json.stdout).find((e) => e.type === 'outcome');
  assert.deepEqual(outcome?.type === 'outcome' && outcome.outcome.unresolved, { cause: 'budget_exhausted', objections: [{ server: 'nag', text: 'tests still fail' }] });
  assert.deepEqual(hookCalls(log, '_Stop').map((c) => hookMeta(c)?.final ?? false), [false, true]);
  assert.equal(fake.chatRequests().length, 2, 'no model round after the verdict');

  const text = await runCli(['--mcp-config', mcp, 'fix'], { env });
  assert.match(text.stdout, /unresolved hook objection \(budget spent, and the final verdict still objects\)/);
  assert.match(text.stdout, /nag:\n {2}\| tests still fail/);
});

test('the bundled todo server re-injects its open list when a --session is resumed', async () => {
  const fake = await cli.startFake({
    responses: [fakeReply.toolCalls([{ name: 'todo__todo', arguments: { items: [{ text: 'write the fix', done: false }] } }]), fakeReply.text('later'), fakeReply.text('back at it')],
  });
  const session = join(cli.dir, 'todo.jsonl');
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'todo', SPROUT_AGENT_STOP_MAX_REJECTIONS: '0' };
  const first = await runCli(['--json', '--builtin-servers', 'todo', '--session', session, 'plan it'], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(parseEvents(first.stdout).filter((e) => e.type === 'hook_injected').length, 0, 'a new session has nothing to pick up');
  const second = await runCli(['--json', '--builtin-servers', 'todo', '--session', session, 'go on'], { env });
  assert.equal(second.code, 0, second.stderr);
  const injected = parseEvents(second.stdout).filter((e) => e.type === 'hook_injected');
  assert.deepEqual(injected, [{ type: 'hook_injected', hook: '_SessionStart', server: 'todo', text: '# Todo List (resumed session)\n\n1. [ ] write the fix  <- next' }]);
});
