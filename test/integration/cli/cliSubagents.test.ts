// Subagents through `node dist/cli.js` (docs/hooks.md#subagents), against the fake model server and a
// real hook server child process: the parent delegates, the child works with its own tools, a
// `_SubagentStop` objection sends it back to work once, its final text reaches the parent's next
// request as the delegate call's result, and `--json` shows the child's events with its id. Depth 1
// (the child is never offered the tool) and a cancel that stops the child are checked too.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { fakeReply, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { waitFor } from '../mcp/mcpHarness';
import { baseEnv, collect, parseEvents, runCli, spawnCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-subagents-', { checkRequests: true });

type Body = { messages: Array<{ role: string; content: string | null; tool_call_id?: string }>; tools?: Array<{ function: { name: string } }> };
const bodyAt = (f: FakeOpenAi, i: number): Body => f.chatRequests()[i]?.body as Body;
const toolNames = (body: Body | undefined): string[] => body?.tools?.map((t) => t.function.name) ?? [];
const wrapped = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'subagent_event' ? [e] : []));

function servers(name: string): { mcp: string; log: string } {
  const log = join(cli.dir, `${name}.gate.log`);
  const mcp = writeMcpConfig(join(cli.dir, `${name}.json`), [
    hookServerMcpConfig('work', hookServerConfig({ logFile: join(cli.dir, `${name}.work.log`) })),
    hookServerMcpConfig('gate', hookServerConfig({ logFile: log, echo: false, hooks: { _SubagentStop: { kind: 'object', text: 'run echo once more', times: 1 }, _PreToolUse: { kind: 'empty' } } })),
  ]);
  return { mcp, log };
}

test('a _SubagentStop objection sends the child back to work; its answer is the parent\'s tool result; --json names the child', async () => {
  const fake = await cli.startFake({
    responses: [
      fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'general', task: 'Echo hi and report what it said.' } }]),
      fakeReply.toolCalls([{ id: 'c1', name: 'work__echo', arguments: { text: 'hi' } }]),
      fakeReply.text('it said hi'),
      fakeReply.toolCalls([{ id: 'c2', name: 'work__echo', arguments: { text: 'hi again' } }]),
      fakeReply.text('echo answered "hi" and "hi again".'),
      fakeReply.text('The subagent reports the echo works.'),
    ],
  });
  const { mcp, log } = servers('objected');
  const run = await runCli(['--json', '--mcp-config', mcp, 'check the echo tool'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'gate' } });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(fake.chatRequests().length, 6);

  assert.ok(toolNames(bodyAt(fake, 0)).includes('sprout__delegate'), 'the CLI offers delegate with the generic agent');
  assert.ok(!toolNames(bodyAt(fake, 1)).includes('sprout__delegate'), 'depth 1: the child is not offered it');
  assert.deepEqual(bodyAt(fake, 1).messages.filter((m) => m.role !== 'system').map((m) => m.content), ['Echo hi and report what it said.'], 'the child starts from its task alone');
  const objection = bodyAt(fake, 3).messages.find((m) => m.role === 'tool' && m.content?.includes('_SubagentStop'));
  assert.equal(objection?.content, JSON.stringify({ hook: '_SubagentStop', server: 'gate', text: 'run echo once more' }), 'the objection reaches the child as a hook envelope');
  const answer = bodyAt(fake, 5).messages.find((m) => m.role === 'tool' && m.tool_call_id === 'd1');
  assert.equal(answer?.content, 'echo answered "hi" and "hi again".', 'the child\'s final text is the delegate call\'s result');
  assert.ok(!bodyAt(fake, 5).messages.some((m) => m.tool_call_id === 'c1'), 'the child\'s calls stay in its own history');

  const calls = readHookServerLog(log).filter((e) => e.type === 'call');
  const meta = (tool: string) => calls.filter((e) => e.tool === tool).map((e) => (e.meta as Record<string, Record<string, unknown>>)['sprout/hook']);
  assert.deepEqual(meta('_SubagentStop').map((m) => [m?.agent, m?.rejectionsUsed, m?.prompt]), [
    [{ id: 'sub-1', name: 'general' }, 0, 'Echo hi and report what it said.'],
    [{ id: 'sub-1', name: 'general' }, 1, 'Echo hi and report what it said.'],
  ]);
  assert.deepEqual(meta('_PreToolUse').map((m) => m?.agent), [{ id: 'sub-1', name: 'general' }, { id: 'sub-1', name: 'general' }], 'the child\'s tool calls tell the hook which agent called');

  const events = parseEvents(run.stdout);
  const child = wrapped(events);
  assert.ok(child.length > 0 && child.every((e) => e.subagent.id === 'sub-1' && e.subagent.callId === 'd1'));
  assert.deepEqual(child.filter((e) => e.event.type === 'tool_started').map((e) => (e.event.type === 'tool_started' ? e.event.name : '')), ['work__echo', 'work__echo']);
  assert.ok(child.some((e) => e.event.type === 'hook_objected' && e.event.hook === '_SubagentStop'));
  assert.ok(!events.some((e) => e.type === 'hook_objected'), 'the parent had no objection of its own');
});

test('SIGTERM while the child waits on the model: the child is cancelled with the parent, exit 130', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'general', task: 'think hard' } }]), fakeReply.hang()] });
  const { mcp } = servers('cancel');
  const child = spawnCli(['--json', '--mcp-config', mcp, 'go'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'gate' } });
  child.stdin?.end();
  const done = collect(child, { timeoutMs: 30_000 });
  await waitFor(() => fake.chatRequests().length > 1, 'the child\'s model call', 20_000);
  child.kill('SIGTERM');
  const result = await done;
  assert.equal(result.code, 130);
  const events = parseEvents(result.stdout);
  const childEnd = wrapped(events).find((e) => e.event.type === 'outcome');
  assert.ok(childEnd?.event.type === 'outcome' && childEnd.event.outcome.reason === 'cancelled', 'the child ended cancelled');
  assert.equal(fake.chatRequests().length, 2, 'nothing ran after the cancel');
});
