// Other agents' hook files see Sprout's tool calls under their agent's own names, through `node
// dist/cli.js --agent-hooks`: a guard written for the agent's shell tool (`"matcher": "Bash"`,
// `run_shell_command`, `bash`; Cursor's beforeShellExecution) denies Sprout's `rm -rf` with the
// agent's payload shape, a matcher that names another tool leaves the call alone, and an MCP tool
// matcher in the agent's MCP naming (`mcp__work__echo`, `mcp_work_echo`) guards Sprout's MCP tool.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { agentHookCliRig, hookCommand, type CliRun } from './agentHookCliRig';
import { scaledMs } from '../../loadScale';

const cmd = hookCommand;
const RM = 'rm -rf build';
const rig = agentHookCliRig('sprout-agent-hook-names-');

/** A fresh workspace with a `build/` folder to remove and the hook file. */
const workspace = (file: string, content: unknown): string => rig.folder({ 'build/out.txt': 'built\n', [file]: content });
const hookPayloads = (ws: string): Record<string, unknown>[] => rig.hookCalls(ws).map((c) => c.payload);

function run(ws: string, agent: string, responses: FakeResponse[]): Promise<CliRun> {
  const env = { SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(20_000)) };
  return rig.run(ws, responses, ['--trust-workspace', '--agent-hooks', agent], env, 'clean up');
}

const grouped = (event: string, matcher: string, command: string, extra: Record<string, unknown> = {}): unknown => ({ hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command, timeout: 60, ...extra }] }] } });

/** Each format's guard on its agent's own shell tool name only, and the payload field its scripts read. */
const SHELL_GUARDS: Array<{ agent: string; file: string; content: unknown; name?: string; command: (p: Record<string, unknown>) => unknown }> = [
  { agent: 'claude', file: '.claude/settings.json', content: grouped('PreToolUse', 'Bash', cmd('claude', 'deny-rm')), name: 'Bash', command: (p) => (p.tool_input as Record<string, unknown>).command },
  { agent: 'codex', file: '.codex/hooks.json', content: grouped('PreToolUse', 'Bash', cmd('codex', 'deny-rm')), name: 'Bash', command: (p) => (p.tool_input as Record<string, unknown>).command },
  { agent: 'gemini', file: '.gemini/settings.json', content: grouped('BeforeTool', 'run_shell_command', cmd('gemini', 'deny-rm'), { name: 'guard', timeout: 60_000 }), name: 'run_shell_command', command: (p) => (p.tool_input as Record<string, unknown>).command },
  { agent: 'copilot', file: '.github/hooks/guard.json', content: { version: 1, hooks: { preToolUse: [{ type: 'command', matcher: 'bash', bash: cmd('copilot', 'deny-rm') }] } }, name: 'bash', command: (p) => (JSON.parse(String(p.toolArgs)) as Record<string, unknown>).command },
  { agent: 'cursor', file: '.cursor/hooks.json', content: { version: 1, hooks: { beforeShellExecution: [{ command: cmd('cursor', 'deny-rm') }] } }, command: (p) => p.command },
];

for (const guard of SHELL_GUARDS) {
  test(`${guard.file}: a guard on ${guard.agent}'s own shell tool denies Sprout's rm -rf, with ${guard.agent}'s payload`, async () => {
    const ws = workspace(guard.file, guard.content);
    const { code, stderr, events } = await run(ws, guard.agent, [fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command: RM } }]), fakeReply.text('done')]);
    assert.equal(code, 0, stderr);
    const denied = events.find((e) => e.type === 'tool_denied');
    assert.ok(denied?.type === 'tool_denied', stderr);
    assert.ok(denied.text.endsWith(`${guard.agent} hook: rm -rf is not allowed here`), denied.text);
    assert.ok(existsSync(join(ws, 'build', 'out.txt')), 'rm -rf did not run');
    const [payload] = hookPayloads(ws);
    assert.ok(payload);
    if (guard.name !== undefined) assert.equal(payload.tool_name ?? payload.toolName, guard.name);
    assert.equal(guard.command(payload), RM);
  });
}

test('a matcher naming another tool (Write) leaves the shell call alone; one naming Sprout\'s tool still matches', async () => {
  const content = { hooks: { PreToolUse: [
    { matcher: 'Write|Edit', hooks: [{ type: 'command', command: cmd('claude', 'log') }] },
    { matcher: 'workspace__run_command', hooks: [{ type: 'command', command: cmd('claude', 'deny-rm') }] },
  ] } };
  const ws = workspace('.claude/settings.json', content);
  const { code, stderr, events } = await run(ws, 'claude', [fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command: RM } }]), fakeReply.text('done')]);
  assert.equal(code, 0, stderr);
  assert.ok(events.some((e) => e.type === 'tool_denied'), 'the matcher written with Sprout\'s name (docs told users to) still guards');
  assert.deepEqual(hookPayloads(ws).map((p) => p.tool_name), ['Bash'], 'only the guard ran, not the Write|Edit hook');
});

test('MCP tools in each agent\'s MCP naming: mcp__work__echo (Claude Code), mcp_work_echo with mcp_context (Gemini CLI)', async () => {
  const files = [
    { agent: 'claude', file: '.claude/settings.json', content: grouped('PreToolUse', 'mcp__work__.*', cmd('claude', 'deny-rm')), name: 'mcp__work__echo' },
    { agent: 'gemini', file: '.gemini/settings.json', content: grouped('BeforeTool', 'mcp_work_echo', cmd('gemini', 'deny-rm'), { name: 'guard', timeout: 60_000 }), name: 'mcp_work_echo' },
  ];
  for (const f of files) {
    const ws = workspace(f.file, f.content);
    const { code, stderr, events } = await run(ws, f.agent, [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'rm -rf /' } }]), fakeReply.text('done')]);
    assert.equal(code, 0, stderr);
    assert.ok(events.some((e) => e.type === 'tool_denied'), `${f.agent}: ${stderr}`);
    const [payload] = hookPayloads(ws);
    assert.equal(payload?.tool_name, f.name);
    assert.deepEqual(payload?.tool_input, { text: 'rm -rf /' });
    if (f.agent === 'gemini') assert.deepEqual(payload?.mcp_context, { server_name: 'work', tool_name: 'echo' });
  }
});
