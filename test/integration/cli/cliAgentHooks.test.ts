// Other agents' hook files gating Sprout through `node dist/cli.js --agent-hooks`: fixture workspaces
// in each agent's real config format with a small hook script (block once then allow, deny a pattern,
// add context, hang, print junk), run through Sprout's caller and gate; consent (--trust-workspace for
// a workspace's files, none for the user's own), strict parsing with named errors, the minimal
// environment, and the file and command named wherever hook text shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeReply, type FakeOpenAi, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { alive, until } from '../bridge/bridgeHarness';
import { agentHookCliRig, hookCommand, type CliRun } from './agentHookCliRig';
import { baseEnv, runCli } from './cliHarness';
import { scaledMs } from '../../loadScale';

const rig = agentHookCliRig('sprout-agent-hooks-');
const cmd = hookCommand;
const { folder, hookCalls } = rig;
const run = (ws: string, responses: FakeResponse[], args: string[], env: Record<string, string> = {}): Promise<CliRun> => rig.run(ws, responses, args, env);

/** Deny `rm -rf`, object at the first stop: the model tries rm, ends, works on the objection, ends again. */
const GUARDED_RUN: FakeResponse[] = [
  fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'rm -rf /' } }]),
  fakeReply.text('done'),
  fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'ran the tests' } }]),
  fakeReply.text('done now'),
];

function toolMessages(f: FakeOpenAi): string[] {
  const last = f.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string | null }> };
  return last.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
}

const claudeSettings = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: cmd('claude', 'context') }] }],
    PreToolUse: [{ matcher: 'work__.*', hooks: [{ type: 'command', command: cmd('claude', 'deny-rm'), timeout: 60 }] }],
    Stop: [{ hooks: [{ type: 'command', command: cmd('claude', 'stop-once') }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'echo never' }] }],
  },
};

test('a trusted workspace\'s .claude/settings.json gates the run: context, a denial and an objection, each naming its file and command', async () => {
  const ws = folder({ '.claude/settings.json': claudeSettings });
  const { code, stderr, events } = await run(ws, GUARDED_RUN, ['--trust-workspace', '--agent-hooks', 'claude'], { SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(20_000)) });
  assert.equal(code, 0, stderr);
  assert.match(stderr, /\.claude\/settings\.json: not run: Notification: no Sprout hook matches/);
  assert.match(stderr, /\.claude\/settings\.json: runs 3 Claude Code hook commands as hook server "claude-settings"/);

  const denied = events.find((e) => e.type === 'tool_denied');
  assert.ok(denied?.type === 'tool_denied');
  assert.equal(denied.server, 'claude-settings');
  assert.equal(denied.text, `.claude/settings.json PreToolUse \`${cmd('claude', 'deny-rm')}\`: claude hook: rm -rf is not allowed here`);
  const objection = events.find((e) => e.type === 'hook_finished' && e.hook === '_Stop' && e.result === 'objection');
  assert.ok(objection?.type === 'hook_finished');
  assert.equal(objection.server, 'claude-settings');
  assert.equal(objection.text, `.claude/settings.json Stop \`${cmd('claude', 'stop-once')}\`: claude hook: the tests fail, run them`);
  assert.ok(events.some((e) => e.type === 'hook_injected' && e.hook === '_SessionStart' && e.server === 'claude-settings' && e.text.endsWith('Project conventions: tabs, not spaces.')));
  assert.ok(rig.fake);
  const messages = toolMessages(rig.fake);
  assert.ok(messages.includes(JSON.stringify({ hook: '_PreToolUse', server: 'claude-settings', text: denied.text })), 'the denial reaches the model as an envelope');
  assert.ok(messages.includes(JSON.stringify({ hook: '_Stop', server: 'claude-settings', text: objection.text })), 'the objection reaches the model as an envelope');

  const calls = hookCalls(ws);
  const stops = calls.filter((c) => c.mode === 'stop-once').map((c) => c.payload);
  assert.equal(stops.length, 2);
  assert.deepEqual({ ...stops[0], session_id: undefined }, { session_id: undefined, transcript_path: null, cwd: ws, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });
  assert.match(String(stops[0]?.session_id), /^cli-/);
  const pre = calls.find((c) => c.mode === 'deny-rm')?.payload;
  assert.deepEqual(pre?.tool_input, { text: 'rm -rf /' });
  // Claude Code's name for the MCP tool; the matcher `work__.*` (Sprout's name) still matched it.
  assert.equal(pre?.tool_name, 'mcp__work__echo');
  for (const call of calls) {
    assert.ok(!call.env.includes('OPENAI_API_KEY'), 'the model key never reaches a workspace command');
    assert.ok(call.env.includes('CLAUDE_PROJECT_DIR'));
  }
});

test('nothing runs without consent: no --trust-workspace (said, with the fix), or no --agent-hooks', async () => {
  const ws = folder({ '.claude/settings.json': claudeSettings });
  const untrusted = await run(ws, [fakeReply.text('done')], ['--agent-hooks', 'claude']);
  assert.equal(untrusted.code, 0, untrusted.stderr);
  assert.match(untrusted.stderr, /\.claude\/settings\.json: Claude Code hooks a repository defines do not run unless you pass --trust-workspace/);
  const unnamed = await run(ws, [fakeReply.text('done')], ['--trust-workspace']);
  assert.equal(unnamed.code, 0, unnamed.stderr);
  assert.deepEqual(hookCalls(ws), []);
  assert.ok(!untrusted.events.some((e) => e.type === 'hook_called'));
});

test('the user\'s own ~/.claude/settings.json needs no consent and shows as user-claude-settings', async () => {
  const home = folder({ '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: cmd('claude', 'stop-once') }] }] } } });
  const ws = folder({});
  const { code, stderr, events } = await run(ws, [fakeReply.text('done'), fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'fixed' } }]), fakeReply.text('really done')], ['--agent-hooks', 'claude'], { HOME: home });
  assert.equal(code, 0, stderr);
  const objection = events.find((e) => e.type === 'hook_finished' && e.result === 'objection');
  assert.ok(objection?.type === 'hook_finished');
  assert.equal(objection.server, 'user-claude-settings');
  assert.match(objection.text, /^~\/\.claude\/settings\.json Stop `node /);
});

test('a file Sprout cannot read exactly stops the run (exit 2) naming the file and the place in it', async () => {
  const cases: Array<[unknown, RegExp]> = [
    ['{ "hooks": ', /\.claude\/settings\.json is not valid JSON/],
    [{ hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } }, /\.claude\/settings\.json: hooks\.Stop\[0\]\.hooks\[0\] has type "command" but no command/],
    [{ hooks: { PreToolUse: { command: 'x' } } }, /\.claude\/settings\.json: hooks\.PreToolUse: .*expected array/i],
    [{ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 'soon' }] }] } }, /hooks\.Stop\.0\.hooks\.0\.timeout/],
  ];
  for (const [content, expected] of cases) {
    const ws = folder({ '.claude/settings.json': content });
    const model = await rig.model([]);
    const result = await runCli(['--cwd', ws, '--trust-workspace', '--agent-hooks', 'claude', 'go'], { env: baseEnv(model.url) });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, expected);
    assert.equal(model.chatRequests().length, 0);
  }
  const model = await rig.model([]);
  const bad = await runCli(['--agent-hooks', 'claude,vim', 'go'], { env: baseEnv(model.url) });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--agent-hooks: unknown agent format "vim"/);
});

test('hanging commands: the hook timeout fails them open, the second in a row kills the file\'s commands', async () => {
  const ws = folder({
    '.claude/settings.json': {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: cmd('claude', 'hang') }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: cmd('claude', 'hang') }] }],
      },
    },
  });
  // Not scaled: these commands never answer, so any timeout is reached; a short one keeps the test short.
  const { code, stderr, events } = await run(ws, [fakeReply.text('done')], ['--trust-workspace', '--agent-hooks', 'claude'], { SPROUT_AGENT_HOOK_TIMEOUT_MS: '1000' });
  assert.equal(code, 0, stderr);
  assert.deepEqual(
    events.filter((e) => e.type === 'hook_timed_out').map((e) => e.type === 'hook_timed_out' && [e.server, e.hook, e.consecutive]),
    [['claude-settings', '_SessionStart', 1], ['claude-settings', '_UserPromptSubmit', 2]],
  );
  assert.ok(events.some((e) => e.type === 'server_killed' && e.server === 'claude-settings'));
  // SIGKILL is delivered at once, but the orphan is reaped a moment after the CLI exits: wait for it.
  for (const call of hookCalls(ws).filter((c) => c.mode === 'hang')) {
    await until(() => !alive(call.pid), `hanging command ${call.pid} to be killed, not left behind`);
  }
});

test('a PreToolUse answer that rewrites the tool input is a denial with its reason; junk from a Stop hook is an error with no effect', async () => {
  const ws = folder({
    '.claude/settings.json': { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: cmd('claude', 'rewrite') }] }] } },
    '.claude/settings.local.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: cmd('claude', 'junk') }] }] } },
  });
  const { code, stderr, events } = await run(ws, [fakeReply.toolCalls([{ name: 'work__echo', arguments: { text: 'hi' } }]), fakeReply.text('ok')], ['--trust-workspace', '--agent-hooks', 'claude'], { SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(20_000)) });
  assert.equal(code, 0, stderr);
  const denied = events.find((e) => e.type === 'tool_denied');
  assert.ok(denied?.type === 'tool_denied');
  assert.match(denied.text, /PreToolUse `.*rewrite`: use the safe input \(the hook's input, as work__echo arguments: \{"text":"safe"\}\)$/);
  assert.ok(!events.some((e) => e.type === 'tool_finished' && e.name === 'work__echo' && !e.isError), 'the call did not run');
  const junk = events.find((e) => e.type === 'hook_finished' && e.server === 'claude-settings-local');
  assert.ok(junk?.type === 'hook_finished');
  assert.equal(junk.result, 'error');
  assert.match(junk.text, /\.claude\/settings\.local\.json Stop `.*junk`: stdout is not a JSON object/);
});

const OTHER_FORMATS: Array<{ agent: string; file: string; server: string; content: unknown }> = [
  { agent: 'codex', file: '.codex/hooks.json', server: 'codex-hooks', content: { hooks: { PreToolUse: [{ matcher: 'mcp__work__echo', hooks: [{ type: 'command', command: cmd('codex', 'deny-rm'), timeout: 60 }] }], Stop: [{ hooks: [{ type: 'command', command: cmd('codex', 'stop-once') }] }] } } },
  {
    agent: 'gemini',
    file: '.gemini/settings.json',
    server: 'gemini-settings',
    content: { hooksConfig: { enabled: true }, hooks: { BeforeTool: [{ matcher: 'work__.*', hooks: [{ name: 'guard', type: 'command', command: cmd('gemini', 'deny-rm'), timeout: 60_000 }] }], AfterAgent: [{ hooks: [{ name: 'tests', type: 'command', command: cmd('gemini', 'stop-once') }] }] } },
  },
  { agent: 'copilot', file: '.github/hooks/guard.json', server: 'github-hooks-guard', content: { version: 1, hooks: { preToolUse: [{ type: 'command', bash: cmd('copilot', 'deny-rm'), timeoutSec: 60 }], agentStop: [{ type: 'command', bash: cmd('copilot', 'stop-once') }] } } },
  { agent: 'cursor', file: '.cursor/hooks.json', server: 'cursor-hooks', content: { version: 1, hooks: { beforeMCPExecution: [{ command: cmd('cursor', 'deny-rm') }], stop: [{ command: cmd('cursor', 'stop-once') }] } } },
];

for (const format of OTHER_FORMATS) {
  test(`${format.file} (${format.agent}) denies rm -rf and objects once, through the same gate`, async () => {
    const ws = folder({ [format.file]: format.content });
    const { code, stderr, events } = await run(ws, GUARDED_RUN, ['--trust-workspace', '--agent-hooks', format.agent], { SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(20_000)) });
    assert.equal(code, 0, stderr);
    const denied = events.find((e) => e.type === 'tool_denied');
    assert.ok(denied?.type === 'tool_denied', stderr);
    assert.equal(denied.server, format.server);
    assert.ok(denied.text.startsWith(`${format.file} `) && denied.text.endsWith(`${format.agent} hook: rm -rf is not allowed here`), denied.text);
    const objection = events.find((e) => e.type === 'hook_finished' && e.hook === '_Stop' && e.result === 'objection');
    assert.ok(objection?.type === 'hook_finished');
    assert.equal(objection.server, format.server);
    assert.ok(objection.text.endsWith(`${format.agent} hook: the tests fail, run them`), objection.text);
    const outcome = events.find((e) => e.type === 'outcome');
    assert.equal(outcome?.type === 'outcome' && outcome.outcome.reason, 'end_turn');
    assert.ok(hookCalls(ws).every((c) => !c.env.includes('OPENAI_API_KEY')));
  });
}

test('hooks check --agent-hooks runs the file\'s commands through the same caller and reports them under the file\'s server', async () => {
  const ws = folder({ '.claude/settings.json': claudeSettings });
  const model = await rig.model([]);
  const env = { ...baseEnv(model.url), SPROUT_AGENT_HOOK_TIMEOUT_MS: String(scaledMs(20_000)) };
  const result = await runCli(['hooks', 'check', '--json', '--cwd', ws, '--trust-workspace', '--agent-hooks', 'claude', '--tool', 'work__echo', '--args', '{"text":"rm -rf /"}'], { env, timeoutMs: scaledMs(60_000) });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { servers: Array<{ name: string; allowlisted: boolean; hooks: string[]; calls: Array<{ hook: string; result: string; text: string }> }> };
  const server = report.servers.find((s) => s.name === 'claude-settings');
  assert.ok(server, result.stdout);
  assert.equal(server.allowlisted, true);
  assert.deepEqual(server.hooks, ['_SessionStart', '_PreToolUse', '_Stop', '_PostCompact']);
  const byHook = Object.fromEntries(server.calls.map((c) => [c.hook, c]));
  assert.equal(byHook._PreToolUse?.result, 'objection');
  assert.match(byHook._PreToolUse?.text ?? '', /PreToolUse `.*deny-rm`: claude hook: rm -rf is not allowed here/);
  assert.equal(byHook._Stop?.result, 'objection');
  assert.deepEqual(hookCalls(ws).map((c) => c.mode).sort(), ['context', 'deny-rm', 'stop-once'], 'the SessionStart matcher "startup" leaves out the compaction call');
});
