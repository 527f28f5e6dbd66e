/**
 * The rig for the hook bridge: a temp workspace with its own private state folder (so each test gets
 * its own hook host), FakeHookServer hook servers in an MCP config file, `hooks install` run through
 * the built CLI, and a ScriptedAgent child process that runs the installed command hooks the way an
 * agent does. `close()` removes the folder once every process the test started is gone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor } from '../../waitFor';
import { agentFormat } from '../../../src/agentHooks/agentFormats';
import type { AgentId } from '../../../src/agentHooks/agentFormat';
import { isBridgeCommand, readHookEntries } from '../../../src/agentHooks/hookConfig';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookServerConfig } from '../../fakes/hookServer';
import { readAnswers, type ScriptedAnswer } from '../../fakes/scriptedAgent';
import { REPO_ROOT, ensureBuilt, runCli, writeMcpConfig, type CliResult } from '../cli/cliHarness';

export interface BridgeRig {
  dir: string;
  workspace: string;
  env: Record<string, string>;
  mcpConfig: string;
  install(agent: AgentId, extra?: string[]): Promise<CliResult>;
  /** The installed command for `event`, from the agent's config file. */
  commandFor(agent: AgentId, event: string): string;
  /** Runs the events as an agent process that exits afterwards. */
  runAgent(events: { event: string; agent?: AgentId; payload: unknown; after?: string }[], env?: Record<string, string>): Promise<ScriptedAnswer[]>;
  /** A shell command that prints whether the server's newest process is alive (`alive` or `dead`). */
  newestServerAlive(name: string): string;
  serverPids(name: string): number[];
  calls(name: string, tool: string): number;
  close(): Promise<void>;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for `done` (the shared waitFor, checked every 100 ms) with a generous bound that only a real hang reaches. */
export async function until(done: () => boolean, what: string, boundMs = 90_000): Promise<void> {
  await waitFor(done, what, { idleBoundMs: boundMs, everyMs: 100 });
}

export async function openBridgeRig(servers: { name: string; config: HookServerConfig }[]): Promise<BridgeRig> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'sprout-bridge-'));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  mkdirSync(join(dir, 'home'));
  const logs = (name: string) => join(dir, `${name}.log`);
  const mcpConfig = writeMcpConfig(join(dir, 'servers.json'), servers.map((s) => hookServerMcpConfig(s.name, hookServerConfig({ echo: false, logFile: logs(s.name), ...s.config }))));
  // A loaded machine may take long to start the hook servers: the first hook call waits for them.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state'), SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' };
  let runs = 0;
  const commandFor = (agent: AgentId, event: string): string => {
    const format = agentFormat(agent);
    const file = join(workspace, format.config.workspaceFiles[0] ?? '');
    const found = readHookEntries(format, readFileSync(file, 'utf8'), file).find((h) => h.event === event && isBridgeCommand(h.command));
    if (found === undefined) throw new Error(`${file} has no ${event} hook of Sprout's`);
    return found.command;
  };
  return {
    dir,
    workspace,
    env,
    mcpConfig,
    install: (agent, extra = []) =>
      runCli(['hooks', 'install', '--agent', agent, '--yes', '--cwd', workspace, '--mcp-config', mcpConfig, '--hook-servers', servers.map((s) => s.name).join(','), ...extra], { env, cwd: workspace, timeoutMs: 120_000 }),
    commandFor,
    async runAgent(events, extraEnv = {}) {
      runs += 1;
      const out = join(dir, `agent-${runs}.jsonl`);
      writeFileSync(out, '');
      const script = { cwd: workspace, env: { ...env, ...extraEnv }, out, events: events.map((e) => ({ command: commandFor(e.agent ?? 'claude', e.event), payload: e.payload, after: e.after })) };
      const scriptFile = join(dir, `agent-${runs}.json`);
      writeFileSync(scriptFile, JSON.stringify(script));
      const tsx = pathToFileURL(require.resolve('tsx')).href;
      const child = spawn(process.execPath, ['--import', tsx, join(REPO_ROOT, 'test', 'fakes', 'scriptedAgent.ts'), '--script', scriptFile], { stdio: 'ignore' });
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', () => resolve());
      });
      return readAnswers(out);
    },
    newestServerAlive: (name) =>
      `${JSON.stringify(process.execPath)} -e ${JSON.stringify(
        `const l=require('fs').readFileSync(${JSON.stringify(logs(name))},'utf8').trim().split('\\n').map(JSON.parse).filter(e=>e.type==='started');` +
          `try{process.kill(l[l.length-1].pid,0);console.log('alive')}catch{console.log('dead')}`,
      )}`,
    serverPids: (name) => readHookServerLog(logs(name)).filter((e) => e.type === 'started').map((e) => e.pid),
    calls: (name, tool) => readHookServerLog(logs(name)).filter((e) => e.type === 'call' && e.tool === tool).length,
    async close() {
      const pids = servers.flatMap((s) => (existsSync(logs(s.name)) ? readHookServerLog(logs(s.name)).map((e) => e.pid) : []));
      await until(() => pids.every((pid) => !alive(pid)), 'the test\'s hook servers to exit').catch(() => undefined);
      // A hook host the test started goes once the agent it served is gone.
      await until(() => !existsSync(join(dir, 'state', 'sprout-agent', 'hook-host', 'host.sock')), 'the hook host to exit').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Claude Code payload for `event` (the fields its hooks receive, per its docs and binary). */
export function claudePayload(event: string, sessionId: string, cwd: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { session_id: sessionId, transcript_path: join(cwd, 'transcript.jsonl'), cwd, hook_event_name: event, permission_mode: 'default' };
  if (event === 'Stop') return { ...base, stop_hook_active: false, last_assistant_message: 'Done.', ...extra };
  if (event === 'PostToolUse') return { ...base, tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok' }, tool_use_id: 'toolu_1', ...extra };
  if (event === 'SessionEnd') return { ...base, reason: 'other', ...extra };
  return { ...base, ...extra };
}
