// How each real agent (Claude Code, Codex, Gemini CLI, from the npm registry) names an MCP tool to its
// own hooks, seen in a run rather than read from its code. The agent runs one FakeHookServer under the
// server name `my_work` (an underscore: Gemini CLI's `mcp_<server>_<tool>` cannot be split back, so its
// `mcp_context` must say which part is the server). Its model calls the server's `echo` once, as the
// agent offers it, and finishes. Its PreToolUse / BeforeTool command hooks (test/fixtures/agentHooks/hook.mjs)
// log the payloads: one hook with no matcher, one whose matcher is Sprout's name for the tool in that
// agent's file. Sprout's tables (src/agentHooks/agentToolNames.ts) must name Sprout's call of the same
// tool exactly as the agent named its own, and read the agent's payload back as that server and tool.
//
// How each agent offers the tool, as its requests to the model show: Claude Code defers MCP tools
// behind its ToolSearch tool (the name is listed, the schema comes with a `select:` search), Codex
// offers each server as a Responses `namespace` tool (`mcp__my_work` holding `echo`), Gemini CLI as a
// plain function `mcp_my_work_echo`.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureAgent, type AgentInstall, type RealAgent } from '../../scripts/ensureAgents';
import { agentFormat } from '../../src/agentHooks/agentFormats';
import { agentToolView, type AgentToolView } from '../../src/agentHooks/agentToolNames';
import type { AgentModelRequest, ScriptedReply } from '../fakes/agentModelServer';
import { HOOK_SERVER_ENTRY, hookServerConfig, readHookServerLog } from '../fakes/hookServer';
import { REPO_ROOT } from '../integration/cli/cliHarness';
import { runAgent } from './agentRunner';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'agentHooks', 'hook.mjs');
const SERVER = 'my_work';
const TOOL = 'echo';
const ARGS = { text: 'hello from the model' };
/** Sprout's call of the same tool: its qualified name is `<server>__<tool>`. */
const SPROUT_CALL = { tool: `${SERVER}__${TOOL}`, server: SERVER, toolName: TOOL };

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

interface Fixture {
  /** The agent's tool event, whose hooks log the payload. */
  event: string;
  /** The model's turns before the call (Claude Code's tool search), and the call as the agent offers the tool. */
  script: (view: AgentToolView) => ScriptedReply[];
  /** The tools one main-loop request offered, namespaced ones as `<namespace>/<tool>`. */
  offered: (request: AgentModelRequest) => string[];
  /** Payload fields the agent sends and Sprout does not (docs/hooks.md says which, and why). */
  agentOnly: string[];
}

const FIXTURES: Record<RealAgent, Fixture> = {
  claude: {
    event: 'PreToolUse',
    script: (view) => [{ tool: { name: 'ToolSearch', input: { query: `select:${view.name}` } } }, { tool: { name: view.name, input: ARGS } }],
    offered: (r) => list(r.body.tools).map((t) => String(t.name)),
    agentOnly: ['prompt_id', 'permission_mode', 'mcp_server'],
  },
  codex: {
    event: 'PreToolUse',
    script: () => [{ tool: { namespace: `mcp__${SERVER}`, name: TOOL, input: ARGS } }],
    offered: (r) => list(r.body.tools).flatMap((t) => (t.type === 'namespace' ? list(t.tools).map((f) => `${String(t.name)}/${String(f.name)}`) : [String(t.name)])),
    agentOnly: ['turn_id', 'model', 'permission_mode'],
  },
  gemini: {
    event: 'BeforeTool',
    script: (view) => [{ tool: { name: view.name, input: ARGS } }],
    offered: (r) => list(r.body.tools).flatMap((t) => list(t.functionDeclarations).map((f) => String(f.name))),
    agentOnly: [],
  },
};

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface HookCall {
  mode: string;
  payload: Json;
}

function hookCalls(workspace: string): HookCall[] {
  const log = join(workspace, 'hook-calls.jsonl');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as HookCall) : [];
}

/** The FakeHookServer as a stdio command any agent can start: its config in a file, since Codex passes servers few environment variables. */
function serverCommand(dir: string, log: string): { command: string; args: string[] } {
  const config = join(dir, `${SERVER}.json`);
  writeFileSync(config, JSON.stringify(hookServerConfig({ logFile: log })));
  return { command: process.execPath, args: ['--import', pathToFileURL(require.resolve('tsx')).href, HOOK_SERVER_ENTRY, '--config', config] };
}

/**
 * The agent's hook file (a logging hook for every tool, and one matched on `name`), the server in the
 * agent's own MCP config, and the flags that let it call the tool unattended. Returns the flags.
 */
function configure(agent: RealAgent, dir: string, workspace: string, server: { command: string; args: string[] }, name: string): string[] {
  const entry = (mode: string, timeout: number) => ({ type: 'command', command: `node ${HOOK} ${agent} ${mode}`, timeout });
  if (agent === 'gemini') {
    mkdirSync(join(workspace, '.gemini'), { recursive: true });
    const settings = {
      hooksConfig: { enabled: true },
      hooks: {
        BeforeTool: [{ hooks: [{ name: 'log', ...entry('log', 60_000) }] }, { matcher: name, hooks: [{ name: 'matched', ...entry('matched', 60_000) }] }],
      },
      // `trust` spares the confirmation --yolo would give anyway; the timeout bounds only a hung call.
      mcpServers: { [SERVER]: { ...server, trust: true, timeout: 600_000 } },
    };
    writeFileSync(join(workspace, '.gemini', 'settings.json'), JSON.stringify(settings));
    return ['--yolo'];
  }
  // Claude Code's settings shape, which Codex's hooks.json shares.
  const hooks = { PreToolUse: [{ hooks: [entry('log', 60)] }, { matcher: name, hooks: [entry('matched', 60)] }] };
  const folder = agent === 'claude' ? '.claude' : '.codex';
  mkdirSync(join(workspace, folder), { recursive: true });
  writeFileSync(join(workspace, folder, agent === 'claude' ? 'settings.json' : 'hooks.json'), JSON.stringify({ hooks }));
  if (agent === 'claude') {
    const mcp = join(dir, 'claude-mcp.json');
    writeFileSync(mcp, JSON.stringify({ mcpServers: { [SERVER]: { type: 'stdio', ...server } } }));
    return ['--mcp-config', mcp, '--strict-mcp-config', '--allowedTools', name];
  }
  // Codex starts MCP servers in the background and sends its first request without a server that is
  // not ready yet; a required server is waited for (and a failed start fails the run, which says why).
  // Under `codex exec`'s approval policy (never) a tool that needs approval is refused, not run: its
  // server's tools are approved in advance, as --allowedTools does for Claude Code.
  const key = `mcp_servers.${SERVER}`;
  const settings = { command: server.command, args: server.args, startup_timeout_sec: 600, required: true, default_tools_approval_mode: 'approve' };
  return Object.entries(settings).flatMap(([k, v]) => ['-c', `${key}.${k}=${JSON.stringify(v)}`]);
}

for (const agent of ['claude', 'codex', 'gemini'] as const) {
  describe(`${agent} names an MCP tool to its hooks as Sprout's table does (real agent from the npm registry)`, () => {
    let install: AgentInstall = { ok: false, reason: 'not installed yet' };
    before(() => {
      install = ensureAgent(agent);
    });

    it(`${SERVER}'s ${TOOL}: the hook's tool_name is Sprout's name for it, and it parses back to ${SERVER} / ${TOOL}`, async (t) => {
      if (!install.ok) return t.skip(`${agent} could not be installed: ${install.reason}`);
      const dir = mkdtempSync(join(tmpdir(), `sprout-mcpname-${agent}-`));
      dirs.push(dir);
      const workspace = join(dir, 'ws');
      mkdirSync(workspace);
      const fixture = FIXTURES[agent];
      const format = agentFormat(agent);
      const view = agentToolView(format.tools, SPROUT_CALL, ARGS, workspace);
      const serverLog = join(dir, `${SERVER}.log`);
      const args = configure(agent, dir, workspace, serverCommand(dir, serverLog), view.name);
      const script = [...fixture.script(view), { text: 'Echoed. Done.' }];
      // Claude Code's startup wait for MCP servers (MCP_TIMEOUT): a loaded machine may start tsx slowly.
      const env = agent === 'claude' ? { MCP_TIMEOUT: '600000' } : undefined;
      const run = await runAgent(agent, { bin: install.bin, workspace, dir, args, env, prompt: 'Echo a greeting.', responder: (i) => script[i] });
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      assert.deepEqual(run.fake.requests.filter((r) => r.error !== undefined), [], 'every request was valid for the real API');
      assert.equal(run.fake.main().length, script.length, 'each scripted turn was asked for, then the agent stopped');

      // The model called the tool under the name the agent offered it by, in the request before the call.
      const callAt = script.length - 2;
      const offered = fixture.offered(run.fake.main()[callAt] as AgentModelRequest);
      const expected = agent === 'codex' ? `mcp__${SERVER}/${TOOL}` : view.name;
      assert.ok(offered.includes(expected), `${agent} offered ${expected}: ${offered.join(', ')}`);
      if (agent === 'claude') {
        const first = run.fake.main()[0] as AgentModelRequest;
        assert.ok(!fixture.offered(first).includes(view.name), 'Claude Code defers MCP tools: not offered at first');
        const reminders = list(list(first.body.messages)[0]?.content).map((b) => String(b.text ?? ''));
        assert.ok(reminders.some((r) => r.includes('deferred tools') && r.split('\n').includes(view.name)), '... but named among the deferred tools');
      }
      const serverCalls = readHookServerLog(serverLog).filter((e) => e.type === 'call');
      assert.deepEqual(serverCalls.map((c) => [c.tool, c.arguments]), [[TOOL, ARGS]], 'the server ran the call once');

      // Both hooks saw the call once: the unmatched one, and the one matched on Sprout's name for it.
      const calls = hookCalls(workspace).filter((c) => c.payload.tool_name !== 'ToolSearch');
      assert.deepEqual(calls.map((c) => c.mode).sort(), ['log', 'matched'], `${agent}'s hooks on its MCP call: ${JSON.stringify(hookCalls(workspace).map((c) => [c.mode, c.payload.tool_name]))}`);
      const real = calls[0]?.payload ?? {};
      assert.equal(real.hook_event_name, fixture.event);
      assert.equal(real.tool_name, view.name, `${agent} names the tool as Sprout's table does`);
      assert.deepEqual(real.tool_input, ARGS);
      assert.deepEqual(view.mcp, { server: SERVER, tool: TOOL });
      if (agent === 'gemini') {
        const context = real.mcp_context as Json | undefined;
        assert.deepEqual([context?.server_name, context?.tool_name], [view.mcp?.server, view.mcp?.tool], 'Gemini CLI\'s mcp_context says which part is the server');
      } else {
        assert.equal(real.mcp_context, undefined);
      }

      // Sprout reads the agent's payload back as the server and tool it called.
      const parsed = format.parse(fixture.event, real);
      assert.equal(parsed.hook, '_PreToolUse');
      assert.deepEqual(
        { tool: parsed.fields.tool, server: parsed.fields.server, toolName: parsed.fields.toolName, arguments: parsed.fields.arguments },
        { tool: view.name, server: SERVER, toolName: TOOL, arguments: ARGS },
      );

      // Sprout's payload for its own call of the tool, built as its command hook host builds it, names
      // it as the agent did, with the same mcp_context parts; what only the agent sends is listed.
      const fields = { ...SPROUT_CALL, tool: view.name, arguments: view.input, callId: 'call_1', mcp: view.mcp };
      const ours = format.payload(fixture.event, { hook: '_PreToolUse', sessionId: 'session-1', cwd: workspace, fields });
      assert.deepEqual([ours.tool_name, ours.tool_input, ours.mcp_context], [real.tool_name, real.tool_input, agent === 'gemini' ? { server_name: SERVER, tool_name: TOOL } : undefined]);
      assert.deepEqual(Object.keys(real).filter((k) => !(k in ours)).sort(), [...fixture.agentOnly].sort(), `fields ${agent} sends and Sprout does not`);
      if (agent === 'gemini') {
        // Gemini CLI adds the server's connection details, which Sprout leaves out (a server's arguments may hold secrets).
        assert.deepEqual(Object.keys(real.mcp_context as Json).sort(), ['args', 'command', 'server_name', 'tool_name']);
      }
    });
  });
}
