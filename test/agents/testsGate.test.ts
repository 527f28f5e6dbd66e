// Sprout's bundled `tests` server as the gate of real coding agents (Claude Code, Codex, Gemini CLI),
// through the hooks `sprout-agent hooks install` wrote: a small node:test project has a failing test;
// the agent's model tries to finish, the objection naming the failing test reaches it as hook output,
// the model fixes the file with the agent's own edit tool (Claude Code's Read and Write, Codex's
// exec_command, Gemini CLI's write_file), and the agent stops once the suite passes.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureAgent, type AgentInstall, type RealAgent } from '../../scripts/ensureAgents';
import { HOOK_OUTPUT_PREAMBLE } from '../../src/agentHooks/agentFormat';
import type { ScriptedReply } from '../fakes/agentModelServer';
import { REPO_ROOT, ensureBuilt, runCli } from '../integration/cli/cliHarness';
import { until } from '../integration/bridge/bridgeHarness';
import { requestText, runAgent } from './agentRunner';

const FIXED = 'exports.sum = (a, b) => a + b;\n';

/** The fix as each agent's model asks its own tools for it; the flags let the agent run them unattended. */
const FIX_BY: Record<RealAgent, { args: string[]; steps: (file: string) => ScriptedReply[] }> = {
  // Claude Code writes over a file only after reading it.
  claude: {
    args: ['--permission-mode', 'acceptEdits'],
    steps: (file) => [{ tool: { name: 'Read', input: { file_path: file } } }, { tool: { name: 'Write', input: { file_path: file, content: FIXED } } }],
  },
  codex: { args: [], steps: () => [{ tool: { name: 'exec_command', input: { cmd: `printf '%s\\n' '${FIXED.trim()}' > sum.js` } } }] },
  gemini: { args: ['--approval-mode', 'auto_edit'], steps: (file) => [{ tool: { name: 'write_file', input: { file_path: file, content: FIXED } } }] },
};

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A node:test project whose one test fails, gated by Sprout's tests server from its `.vscode/mcp.json`. */
async function failingProject(agent: RealAgent): Promise<{ dir: string; workspace: string }> {
  const dir = mkdtempSync(join(tmpdir(), `sprout-${agent}-tests-`));
  dirs.push(dir);
  const workspace = join(dir, 'ws');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'gate-fixture', private: true, scripts: { test: 'node --test' } }));
  writeFileSync(join(workspace, 'sum.js'), 'exports.sum = (a, b) => a - b;\n');
  writeFileSync(
    join(workspace, 'sum.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('./sum.js');\n\ntest('sum adds two numbers', () => assert.equal(sum(2, 3), 5));\n",
  );
  // Named apart from the bundled `tests` server, whose default budgets it does not keep: a loaded machine may need longer than the default budgets for one `npm test`: the gate waits for
  // the run's result (no watching, so each _Stop decides on a run of the state it is asked about).
  const args = [join(REPO_ROOT, 'dist', 'servers', 'tests.js'), '--root', workspace, '--state-dir', join(dir, 'tests-state'), '--watch', 'off', '--hook-budget-ms', '240000'];
  writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { suite: { type: 'stdio', command: process.execPath, args } } }));
  const env = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state') };
  const installed = await runCli(['hooks', 'install', '--agent', agent, '--yes', '--cwd', workspace, '--trust-workspace', '--hook-servers', 'suite'], { env, timeoutMs: 180_000 });
  assert.equal(installed.code, 0, installed.stderr);
  return { dir, workspace };
}

for (const agent of ['claude', 'codex', 'gemini'] as const) {
  describe(`${agent} gated by Sprout's tests server (real agent from the npm registry)`, () => {
    let install: AgentInstall = { ok: false, reason: 'not installed yet' };
    before(async () => {
      await ensureBuilt();
      install = ensureAgent(agent);
    });

    it('is told which test fails when it tries to finish, fixes the file with its own tool, and stops once the suite passes', async (t) => {
      if (!install.ok) return t.skip(`${agent} could not be installed: ${install.reason}`);
      const { dir, workspace } = await failingProject(agent);
      const file = join(workspace, 'sum.js');
      const fix = FIX_BY[agent];
      const script: ScriptedReply[] = [{ text: 'Done.' }, ...fix.steps(file), { text: 'Fixed sum. Done.' }];
      const run = await runAgent(agent, {
        bin: install.bin,
        workspace,
        dir,
        args: fix.args,
        env: { SPROUT_AGENT_HOOK_TIMEOUT_MS: '240000' },
        responder: (i) => script[i],
      });
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      assert.equal(run.fake.main().length, script.length, 'one objection, the fix, then it stopped: the suite passed');
      const objected = requestText(run.fake, 1);
      assert.ok(objected.includes(JSON.stringify(HOOK_OUTPUT_PREAMBLE).slice(1, -1)), 'the model is told the text is hook output, not the user');
      assert.match(objected, /server\\*":\\*"suite/, 'the tests server objected');
      assert.match(objected, /sum adds two numbers/, 'the objection names the failing test');
      assert.equal(readFileSync(file, 'utf8'), FIXED, 'the agent\'s own tool wrote the fix');
      assert.deepEqual(run.fake.requests.filter((r) => r.error !== undefined), [], 'every request was valid for the real API');
      await until(() => !existsSync(join(dir, 'state', 'sprout-agent', 'hook-host', 'host.sock')), 'the hook host to exit after the agent');
    });
  });
}
