/**
 * Drives a real coding agent (installed from the npm registry by scripts/ensureAgents.ts) headless and
 * offline: its model API is FakeAgentModels on 127.0.0.1 (Claude Code through ANTHROPIC_BASE_URL,
 * Codex through a `model_providers` entry with `base_url`, Gemini CLI through GOOGLE_GEMINI_BASE_URL),
 * its home and Sprout's private state are temp folders, and its hooks are whatever `sprout-agent hooks
 * install` wrote into the workspace. What each agent needs to run hooks unattended is set here, the
 * same things `hooks install` tells a user: Codex's hooks feature, project trust and
 * --dangerously-bypass-hook-trust; Gemini CLI's API-key auth type and workspace trust.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealAgent } from '../../scripts/ensureAgents';
import { startFakeAgentModels, type AgentResponder, type FakeAgentModels } from '../fakes/agentModelServer';

export interface AgentRunOptions {
  bin: string;
  workspace: string;
  /** The agent's HOME (its own config lives there) and, beside it, Sprout's private state. */
  dir: string;
  responder: AgentResponder;
  prompt?: string;
  env?: Record<string, string>;
  args?: string[];
}

export interface AgentRunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  fake: FakeAgentModels;
}

function agentCommand(agent: RealAgent, o: AgentRunOptions, fakeUrl: string): { args: string[]; env: Record<string, string> } {
  const home = join(o.dir, 'home');
  const prompt = o.prompt ?? 'Finish the task.';
  // A loaded machine may take long to start the hook servers: the first hook call waits for them.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, XDG_STATE_HOME: join(o.dir, 'state'), NO_COLOR: '1', SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' };
  mkdirSync(home, { recursive: true });
  if (agent === 'claude') {
    Object.assign(env, { ANTHROPIC_BASE_URL: fakeUrl, ANTHROPIC_API_KEY: 'sk-ant-test-0123', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
    return { args: ['-p', prompt, '--output-format', 'json', '--model', 'claude-sonnet-4-5', ...(o.args ?? [])], env };
  }
  if (agent === 'codex') {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "fake-model"',
        'model_provider = "fake"',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${fakeUrl}/v1"`,
        'env_key = "FAKE_MODEL_KEY"',
        'wire_api = "responses"',
        '[features]',
        'hooks = true',
        `[projects."${o.workspace}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    Object.assign(env, { CODEX_HOME: codexHome, FAKE_MODEL_KEY: 'sk-test-0123' });
    return { args: ['exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', ...(o.args ?? []), prompt], env };
  }
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  Object.assign(env, { GEMINI_API_KEY: 'test-key-0123', GOOGLE_GEMINI_BASE_URL: fakeUrl, GEMINI_CLI_TRUST_WORKSPACE: 'true' });
  return { args: ['-p', prompt, '-m', 'gemini-2.5-flash', ...(o.args ?? [])], env };
}

export async function runAgent(agent: RealAgent, o: AgentRunOptions): Promise<AgentRunResult> {
  const fake = await startFakeAgentModels(o.responder);
  const { args, env } = agentCommand(agent, o, fake.url);
  const child = spawn(o.bin, args, { cwd: o.workspace, env: { ...env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // A bound only a hung agent reaches: a run takes well under a minute even on a loaded machine.
  const timer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exit) => resolve(exit));
  });
  clearTimeout(timer);
  await fake.close();
  return { code, stdout, stderr, fake };
}

/** Everything the agent's model was sent in one main-loop request, as text to search. */
export function requestText(fake: FakeAgentModels, index: number): string {
  return JSON.stringify(fake.main()[index]?.body ?? {});
}
