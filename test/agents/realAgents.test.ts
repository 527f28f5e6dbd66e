// Real coding agents from the npm registry (Claude Code, Codex, Gemini CLI), driven headless and
// offline against loopback fakes of their model APIs, gated by Sprout hook servers through the hooks
// `sprout-agent hooks install` wrote: each agent goes back to work on an objection (told it is hook
// output) and stops once it clears; an always-objecting server is stopped by the bridge's budget in
// every agent, the same server warm in the hook host throughout; the host and its servers are gone once
// the agent has exited. Claude Code also runs Sprout's todo server as its own MCP server and is held to
// its plan by the same server's _Stop, and a hung server costs it no more than the hook timeout.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureAgent, type AgentInstall, type RealAgent } from '../../scripts/ensureAgents';
import { HOOK_OUTPUT_PREAMBLE } from '../../src/agentHooks/agentFormat';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookBehaviour } from '../fakes/hookServer';
import { REPO_ROOT, ensureBuilt, runCli, writeMcpConfig } from '../integration/cli/cliHarness';
import { alive, until } from '../integration/bridge/bridgeHarness';
import { requestText, runAgent } from './agentRunner';

interface Setup {
  dir: string;
  workspace: string;
  log: string;
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A workspace whose hooks for `agent` are installed, gated by one FakeHookServer called `gate`. */
async function gated(agent: RealAgent, stop: HookBehaviour): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), `sprout-${agent}-`));
  dirs.push(dir);
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const log = join(dir, 'gate.log');
  const config = writeMcpConfig(join(dir, 'servers.json'), [hookServerMcpConfig('gate', hookServerConfig({ echo: false, logFile: log, hooks: { _Stop: stop } }))]);
  const installed = await runCli(['hooks', 'install', '--agent', agent, '--yes', '--cwd', workspace, '--mcp-config', config, '--hook-servers', 'gate'], {
    env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state') },
    timeoutMs: 180_000,
  });
  assert.equal(installed.code, 0, installed.stderr);
  return { dir, workspace, log };
}

const stopCalls = (log: string) => readHookServerLog(log).filter((e) => e.type === 'call' && e.tool === '_Stop');

/** No hook host and no hook server outlives the agent. */
async function nothingLeft(setup: Setup): Promise<void> {
  const pids = readHookServerLog(setup.log).map((e) => e.pid);
  await until(() => pids.every((pid) => !alive(pid)), 'every hook server to exit after the agent');
  await until(() => !existsSync(join(setup.dir, 'state', 'sprout-agent', 'hook-host', 'host.sock')), 'the hook host to exit after the agent');
}

for (const agent of ['claude', 'codex', 'gemini'] as const) {
  describe(`${agent} (real agent from the npm registry)`, () => {
    let install: AgentInstall = { ok: false, reason: 'not installed yet' };
    before(async () => {
      await ensureBuilt();
      install = ensureAgent(agent);
    });
    const bin = (t: { skip(reason: string): void }): string | undefined => {
      if (install.ok) return install.bin;
      t.skip(`${agent} could not be installed: ${install.reason}`);
      return undefined;
    };

    it('goes back to work on an objection, told it is hook output, and stops once it clears', async (t) => {
      const path = bin(t);
      if (path === undefined) return;
      const setup = await gated(agent, { kind: 'object', text: 'Add a CHANGELOG entry before you finish.', times: 1 });
      const run = await runAgent(agent, { bin: path, workspace: setup.workspace, dir: setup.dir, responder: (i) => ({ text: i === 0 ? 'Done.' : 'Added the entry. Done.' }) });
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      assert.equal(run.fake.main().length, 2, 'one more model round for the objection, then it stopped');
      const second = requestText(run.fake, 1);
      assert.ok(second.includes(JSON.stringify(HOOK_OUTPUT_PREAMBLE).slice(1, -1)), 'the model is told the text is hook output, not the user');
      assert.match(second, /Add a CHANGELOG entry before you finish/);
      assert.equal(stopCalls(setup.log).length, 2, 'the gate round, then the verdict that no longer objects');
      assert.deepEqual(run.fake.requests.filter((r) => r.error !== undefined), [], 'every request was valid for the real API');
      await nothingLeft(setup);
    });

    it('an always-objecting server is stopped by the bridge\'s budget, warm in the host throughout', async (t) => {
      const path = bin(t);
      if (path === undefined) return;
      const setup = await gated(agent, { kind: 'object', text: 'Still not done ({n}).' });
      // Without the decline rule every end of turn is asked again: only the budget ends the loop.
      const run = await runAgent(agent, { bin: path, workspace: setup.workspace, dir: setup.dir, env: { SPROUT_AGENT_REPEATED_END_TURN_STOPS: 'false' }, responder: (i) => ({ text: `Done (${i}).` }) });
      assert.equal(run.fake.main().length, 4, 'three objections (the budget), then the agent may stop');
      assert.match(requestText(run.fake, 3), /Still not done \(3\)/, 'one server counted every objection in memory: the host kept it');
      const calls = stopCalls(setup.log);
      assert.equal(calls.length, 4, 'three gate rounds and the final verdict');
      assert.equal(new Set(calls.map((c) => c.pid)).size, 1);
      await nothingLeft(setup);
    });
  });
}

describe('claude with Sprout\'s todo server as both its tool and its gate', () => {
  let install: AgentInstall = { ok: false, reason: 'not installed yet' };
  before(async () => {
    await ensureBuilt();
    install = ensureAgent('claude');
  });

  it('the todo server\'s _Stop holds Claude Code to its open item until it ticks it off', async (t) => {
    if (!install.ok) return t.skip(`claude could not be installed: ${install.reason}`);
    const dir = mkdtempSync(join(tmpdir(), 'sprout-claude-todo-'));
    dirs.push(dir);
    const workspace = join(dir, 'ws');
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    // One todo server for the team: Claude Code calls its tool, Sprout's bridge asks its _Stop; one state folder.
    const plan = { command: process.execPath, args: [join(REPO_ROOT, 'dist', 'servers', 'todo.js'), '--root', workspace, '--state-dir', join(dir, 'plan-state')] };
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { plan: { type: 'stdio', ...plan } } }));
    const claudeMcp = join(dir, 'claude-mcp.json');
    writeFileSync(claudeMcp, JSON.stringify({ mcpServers: { plan } }));
    const env = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state') };
    const installed = await runCli(['hooks', 'install', '--agent', 'claude', '--yes', '--cwd', workspace, '--trust-workspace', '--hook-servers', 'plan'], { env, timeoutMs: 180_000 });
    assert.equal(installed.code, 0, installed.stderr);
    const item = (done: boolean) => ({ tool: { name: 'mcp__plan__todo', input: { items: [{ text: 'Write the release note', done }] } } });
    // Claude Code defers MCP tools behind ToolSearch: a model loads the tool before it calls it.
    const search = { tool: { name: 'ToolSearch', input: { query: 'select:mcp__plan__todo' } } };
    const script = [search, item(false), { text: 'Done.' }, item(true), { text: 'Ticked it off. Done.' }];
    const run = await runAgent('claude', { bin: install.bin, workspace, dir, args: ['--mcp-config', claudeMcp, '--allowedTools', 'mcp__plan__todo'], responder: (i) => script[i] });
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.equal(run.fake.main().length, 5);
    assert.match(requestText(run.fake, 3), /Write the release note/, 'the objection named the open item');
    assert.match(JSON.parse(run.stdout).result as string, /Ticked it off/);
    assert.deepEqual(run.fake.requests.filter((r) => r.error !== undefined), []);
  });

  it('a hung server costs Claude Code no more than the hook timeout, and no objection', async (t) => {
    if (!install.ok) return t.skip(`claude could not be installed: ${install.reason}`);
    const setup = await gated('claude', { kind: 'hang' });
    const run = await runAgent('claude', { bin: install.bin, workspace: setup.workspace, dir: setup.dir, env: { SPROUT_AGENT_HOOK_TIMEOUT_MS: '1000' }, responder: () => ({ text: 'Done.' }) });
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.equal(run.fake.main().length, 1, 'the timeout had no effect: the agent finished');
    assert.equal(stopCalls(setup.log).length, 1);
    await nothingLeft(setup);
  });
});
