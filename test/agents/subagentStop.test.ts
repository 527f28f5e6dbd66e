// Claude Code's SubagentStop through Sprout's hook bridge (docs/hooks.md#subagents): the real Claude
// Code from the npm registry, offline against the loopback fake of the Anthropic API, with the hooks
// `sprout-agent hooks install` wrote for a FakeHookServer whose `_SubagentStop` objects once. The
// model hands a task to Claude Code's general-purpose subagent (its Task tool, run in the background);
// the subagent's first end is objected to, so it goes back to work told it is hook output, and its
// second end passes; the main agent is then told the subagent's answer and finishes with it. The hook server sees which subagent ended.
// Claude Code's hook: https://docs.anthropic.com/en/docs/claude-code/hooks#subagentstop
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureAgent, type AgentInstall } from '../../scripts/ensureAgents';
import { HOOK_OUTPUT_PREAMBLE } from '../../src/agentHooks/agentFormat';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../fakes/hookServer';
import type { AgentModelRequest } from '../fakes/agentModelServer';
import { ensureBuilt, runCli, writeMcpConfig } from '../integration/cli/cliHarness';
import { runAgent } from './agentRunner';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The name Claude Code offers its subagent tool under (`Task`, `Agent` in later releases). */
function subagentTool(request: AgentModelRequest): string {
  const names = ((request.body.tools ?? []) as Array<{ name?: string }>).map((t) => t.name ?? '');
  return names.find((n) => n === 'Task') ?? names.find((n) => n === 'Agent') ?? 'Task';
}

describe('claude: SubagentStop through the bridge', () => {
  let install: AgentInstall = { ok: false, reason: 'not installed yet' };
  before(async () => {
    await ensureBuilt();
    install = ensureAgent('claude');
  });

  it('a _SubagentStop objection sends the subagent back to work once; the main agent gets its answer', async (t) => {
    if (!install.ok) return t.skip(`claude could not be installed: ${install.reason}`);
    const dir = mkdtempSync(join(tmpdir(), 'sprout-claude-subagent-'));
    dirs.push(dir);
    const workspace = join(dir, 'ws');
    mkdirSync(workspace);
    const log = join(dir, 'gate.log');
    const config = writeMcpConfig(join(dir, 'servers.json'), [
      hookServerMcpConfig('gate', hookServerConfig({ echo: false, logFile: log, hooks: { _SubagentStop: { kind: 'object', text: 'Check the count once more.', times: 1 } } })),
    ]);
    const env = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state') };
    const installed = await runCli(['hooks', 'install', '--agent', 'claude', '--yes', '--cwd', workspace, '--mcp-config', config, '--hook-servers', 'gate'], { env, timeoutMs: 180_000 });
    assert.equal(installed.code, 0, installed.stderr);

    // Claude Code runs the subagent in the background and tells the main agent when it is done: each
    // request is answered by whose it is (a subagent's says so in its system text), not by its place.
    const isSubagent = (request: AgentModelRequest): boolean => JSON.stringify(request.body.system ?? '').includes('cc_is_subagent=true');
    let subagentRounds = 0;
    const run = await runAgent('claude', {
      bin: install.bin,
      workspace,
      dir,
      responder: (i, request) => {
        if (isSubagent(request)) return { text: (subagentRounds += 1) === 1 ? 'There are no files.' : 'Checked again: there are no files.' };
        if (i === 0) return { tool: { name: subagentTool(request), input: { description: 'Count the files', prompt: 'Count the files and say how many.', subagent_type: 'general-purpose' } } };
        return { text: JSON.stringify(request.body).includes('Checked again') ? 'The subagent says there are no files. Done.' : 'Waiting for the subagent.' };
      },
    });
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const sub = run.fake.main().filter(isSubagent);
    assert.equal(sub.length, 2, 'the subagent went back to work once, for the objection');
    const objected = JSON.stringify(sub[1]?.body ?? {});
    assert.match(objected, /Check the count once more/, 'the objection reached the subagent');
    assert.ok(objected.includes(JSON.stringify(HOOK_OUTPUT_PREAMBLE).slice(1, -1)), 'told it is hook output');
    assert.ok(!JSON.stringify(run.fake.main().filter((r) => !isSubagent(r))).includes('Check the count once more'), 'the objection stayed with the subagent');
    assert.match(JSON.parse(run.stdout).result as string, /The subagent says there are no files/, "the main agent finished with the subagent's answer after the objection");
    const calls = readHookServerLog(log).filter((e) => e.type === 'call' && e.tool === '_SubagentStop');
    assert.equal(calls.length, 2, 'the objected end, then the end that passed');
    const agent = (calls[0]?.meta as Record<string, Record<string, unknown>> | undefined)?.['sprout/hook']?.agent as { name?: string } | undefined;
    assert.equal(agent?.name, 'general-purpose', 'the hook server is told which subagent ended');
    assert.deepEqual(run.fake.requests.filter((r) => r.error !== undefined), [], 'every request was valid for the real API');
  });
});
