// One hook file gates the agent it was written for and Sprout the same way. For Claude Code
// (.claude/settings.json), Codex (.codex/hooks.json) and Gemini CLI (.gemini/settings.json): a
// workspace whose own hook file, in that agent's format, holds a Stop hook that blocks once with a
// reason and a PreToolUse hook on the agent's own shell tool name only (`"matcher": "Bash"`,
// `run_shell_command`) that denies `rm -rf` with a reason (test/fixtures/agentHooks/hook.mjs
// answering in the agent's words): Sprout's shell call reaches it under that name. The real agent
// (from the npm registry, against its loopback model fake) and `sprout-agent --agent-hooks <agent> --trust-workspace` (against the fake OpenAI server)
// play the same model turns: a shell call `rm -rf build`, "Done.", "Done, the build folder stays.".
// The neutral witness is what each model is sent next: the denial's reason after the call, the
// objection's reason after the first "Done.", no request after the second; and `build/` survives.
// The payloads each hook command got are compared field by field; what an agent sends that Sprout
// does not is listed here, and in docs/hooks.md#hooks-from-other-agents-files, never skipped.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureAgent, type AgentInstall, type RealAgent } from '../../scripts/ensureAgents';
import type { ScriptedReply } from '../fakes/agentModelServer';
import { fakeReply, startFakeOpenAi } from '../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../integration/loop/loopHarness';
import { REPO_ROOT, baseEnv, ensureBuilt, runCli } from '../integration/cli/cliHarness';
import { runAgent } from './agentRunner';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'agentHooks', 'hook.mjs');
const cmd = (agent: RealAgent, mode: string): string => `node ${HOOK} ${agent} ${mode}`;
/** Sprout's shell tool: the bundled workspace server's run_command. */
const SPROUT_SHELL = 'workspace__run_command';
const RM = 'rm -rf build';
const PROMPT = 'Clean up the workspace.';
const TEXTS = ['Done.', 'Done, the build folder stays.'];

interface Fixture {
  file: string;
  content: unknown;
  /** The agent's own shell tool call for `rm -rf build`. */
  call: ScriptedReply;
  /** What lets the agent run its shell tool unattended, so that only the hook refuses the call. */
  args: string[];
  /** Payload fields the agent sends that Sprout has nothing truthful for (docs/hooks.md says which). */
  agentOnly: string[];
}

/** Claude Code's settings shape, which Codex's hooks.json shares (its docs show the same groups). */
const claudeShaped = (agent: 'claude' | 'codex'): unknown => ({
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: cmd(agent, 'deny-rm'), timeout: 60 }] }],
    Stop: [{ hooks: [{ type: 'command', command: cmd(agent, 'stop-once') }] }],
  },
});

// Each file in its agent's documented shape. A matcher is a pattern over tool names, and each agent
// matches its own: Claude Code's and Codex's shell tool is `Bash` (Codex reports its exec_command so),
// Gemini CLI's `run_shell_command`. Sprout names its `workspace__run_command` so to each agent's file.
const FIXTURES: Record<RealAgent, Fixture> = {
  claude: {
    file: '.claude/settings.json',
    content: claudeShaped('claude'),
    call: { tool: { name: 'Bash', input: { command: RM, description: 'Remove the build folder' } } },
    args: ['--allowedTools', 'Bash'],
    agentOnly: ['permission_mode', 'prompt_id', 'background_tasks', 'session_crons'],
  },
  codex: {
    file: '.codex/hooks.json',
    content: claudeShaped('codex'),
    call: { tool: { name: 'exec_command', input: { cmd: RM } } },
    args: [],
    agentOnly: ['turn_id', 'model', 'permission_mode'],
  },
  gemini: {
    file: '.gemini/settings.json',
    content: {
      hooksConfig: { enabled: true },
      hooks: {
        BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ name: 'guard', type: 'command', command: cmd('gemini', 'deny-rm'), timeout: 60_000 }] }],
        AfterAgent: [{ hooks: [{ name: 'tests', type: 'command', command: cmd('gemini', 'stop-once') }] }],
      },
    },
    call: { tool: { name: 'run_shell_command', input: { command: RM } } },
    args: ['--yolo'],
    agentOnly: [],
  },
};

interface HookCall {
  mode: string;
  payload: Record<string, unknown>;
}

/** What one agent's run showed: its exit, each model request as text, each hook command's payload. */
interface Witness {
  who: string;
  code: number | null;
  stderr: string;
  requests: string[];
  calls: HookCall[];
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The fixture workspace (the agent's hook file and a `build/` folder to remove), and a copy of it for
 * Sprout: byte for byte the same file, but its own hook state, so that both runs go side by side.
 */
function workspacesFor(agent: RealAgent): { dir: string; agentWs: string; sproutWs: string } {
  const dir = mkdtempSync(join(tmpdir(), `sprout-parity-${agent}-`));
  dirs.push(dir);
  const agentWs = join(dir, 'ws');
  const fixture = FIXTURES[agent];
  mkdirSync(dirname(join(agentWs, fixture.file)), { recursive: true });
  mkdirSync(join(agentWs, 'build'));
  writeFileSync(join(agentWs, 'build', 'out.txt'), 'built\n');
  writeFileSync(join(agentWs, fixture.file), JSON.stringify(fixture.content, null, 2));
  const sproutWs = join(dir, 'sprout-ws');
  cpSync(agentWs, sproutWs, { recursive: true });
  return { dir, agentWs, sproutWs };
}

function hookCalls(workspace: string): HookCall[] {
  const log = join(workspace, 'hook-calls.jsonl');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as HookCall) : [];
}

async function agentRun(agent: RealAgent, bin: string, dir: string, workspace: string): Promise<Witness> {
  const script: ScriptedReply[] = [FIXTURES[agent].call, ...TEXTS.map((text) => ({ text }))];
  const run = await runAgent(agent, { bin, workspace, dir, args: FIXTURES[agent].args, prompt: PROMPT, responder: (i) => script[i] });
  assert.deepEqual(run.fake.requests.filter((r) => r.error !== undefined), [], `${agent}: every request was valid for the real API`);
  return { who: agent, code: run.code, stderr: run.stderr, requests: run.fake.main().map((r) => JSON.stringify(r.body)), calls: hookCalls(workspace) };
}

async function sproutRun(agent: RealAgent, dir: string, workspace: string): Promise<Witness> {
  const fake = await startFakeOpenAi({ responses: [fakeReply.toolCalls([{ name: SPROUT_SHELL, arguments: { command: RM } }]), ...TEXTS.map((t) => fakeReply.text(t))] });
  try {
    // Waits and bounds only a hung server, hook or run reaches, as for the agents (agentRunner.ts): the
    // default 2.5 s hook timeout would fail a slow `node hook.mjs` open on a loaded machine.
    const env = {
      ...baseEnv(fake.url),
      HOME: join(dir, 'sprout-home'),
      XDG_STATE_HOME: join(dir, 'sprout-state'),
      SPROUT_AGENT_BUILTIN_SERVERS: 'workspace',
      SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000',
      SPROUT_AGENT_HOOK_TIMEOUT_MS: '120000',
    };
    const result = await runCli(['--cwd', workspace, '--trust-workspace', '--agent-hooks', agent, PROMPT], { env, timeoutMs: 10 * 60_000 });
    assertAllRequestsValid(fake.requests);
    return { who: 'sprout', code: result.code, stderr: result.stderr, requests: fake.chatRequests().map((r) => JSON.stringify(r.body)), calls: hookCalls(workspace) };
  } finally {
    await fake.close();
  }
}

/** The gate as one agent's model saw it: the call refused, one objection, then the end of the run. */
function assertGated(agent: RealAgent, w: Witness): void {
  assert.equal(w.code, 0, `${w.who}: ${w.stderr.slice(-2000)}`);
  assert.equal(w.requests.length, 3, `${w.who}: the call, one more round for the objection, then it stopped`);
  assert.ok(w.requests[1]?.includes(`${agent} hook: rm -rf is not allowed here`), `${w.who}: the denial's reason reached the model`);
  assert.ok(!w.requests[1]?.includes(`${agent} hook: the tests fail`), `${w.who}: no objection before the first stop`);
  assert.ok(w.requests[2]?.includes(`${agent} hook: the tests fail, run them`), `${w.who}: the objection's reason reached the model`);
  assert.deepEqual(w.calls.map((c) => c.mode), ['deny-rm', 'stop-once', 'stop-once'], `${w.who}: the guard once, the Stop hook at each end of turn`);
}

/** Every field the agent sends, Sprout sends too (bar the listed ones), with the same meaning. */
function assertSamePayloads(agent: RealAgent, real: Witness, sprout: Witness): void {
  const closing = agent === 'gemini' ? 'prompt_response' : 'last_assistant_message';
  for (const [i, theirs] of real.calls.entries()) {
    const ours = sprout.calls[i]?.payload ?? {};
    const missing = Object.keys(theirs.payload).filter((k) => !(k in ours) && !FIXTURES[agent].agentOnly.includes(k));
    assert.deepEqual(missing, [], `${theirs.payload.hook_event_name}: fields ${agent} sends and Sprout does not`);
    assert.equal(ours.hook_event_name, theirs.payload.hook_event_name);
  }
  const sent = new Set(real.calls.flatMap((c) => Object.keys(c.payload)));
  assert.deepEqual(FIXTURES[agent].agentOnly.filter((k) => !sent.has(k)), [], `the fields listed as ${agent}'s own are ones it sends`);
  const [realTool, realStop, realAgain] = real.calls.map((c) => c.payload);
  const [tool, stop, again] = sprout.calls.map((c) => c.payload);
  assert.equal(tool?.tool_name, realTool?.tool_name, 'Sprout\'s shell call has the agent\'s own shell tool name');
  const command = (p: Record<string, unknown> | undefined): unknown => (p?.tool_input as Record<string, unknown> | undefined)?.command;
  assert.deepEqual([command(realTool), command(tool)], [RM, RM], 'both guards read the command where the agent puts it');
  assert.deepEqual([realStop?.stop_hook_active, realAgain?.stop_hook_active], [false, true]);
  assert.deepEqual([stop?.stop_hook_active, again?.stop_hook_active], [false, true], 'Sprout asks again after the objection, as the agent does');
  assert.deepEqual([realStop?.[closing], stop?.[closing], again?.[closing]], [TEXTS[0], TEXTS[0], TEXTS[1]]);
  // A difference kept, not hidden: Gemini CLI's prompt_response is the whole turn's text, Sprout's the closing reply.
  assert.equal(realAgain?.[closing], agent === 'gemini' ? TEXTS.join('\n') : TEXTS[1]);
  if (agent === 'gemini') assert.deepEqual([realStop?.prompt, stop?.prompt], [PROMPT, PROMPT], 'AfterAgent carries the user\'s prompt');
}

for (const agent of ['claude', 'codex', 'gemini'] as const) {
  describe(`${FIXTURES[agent].file} gates ${agent} and Sprout the same way`, () => {
    let install: AgentInstall = { ok: false, reason: 'not installed yet' };
    before(async () => {
      await ensureBuilt();
      install = ensureAgent(agent);
    });

    it('denies rm -rf with its reason, objects once with its reason, then lets both stop', async (t) => {
      if (!install.ok) return t.skip(`${agent} could not be installed: ${install.reason}`);
      const { dir, agentWs, sproutWs } = workspacesFor(agent);
      // The agent and Sprout side by side: their runs share nothing.
      const [real, sprout] = await Promise.all([agentRun(agent, install.bin, dir, agentWs), sproutRun(agent, dir, sproutWs)]);
      assertGated(agent, real);
      assertGated(agent, sprout);
      assertSamePayloads(agent, real, sprout);
      assert.ok(existsSync(join(agentWs, 'build', 'out.txt')) && existsSync(join(sproutWs, 'build', 'out.txt')), 'neither ran rm -rf');
    });
  });
}
