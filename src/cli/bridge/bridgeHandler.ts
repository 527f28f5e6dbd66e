/**
 * `sprout-agent hooks run --agent X <Event>` as one request: the agent's payload in, the agent's
 * answer out. The same code runs inside the hook host (warm servers, shared by an agent's events) and,
 * when there is no host, in the bridge process itself (servers started for this one event). A bridge
 * that fails never blocks the agent: errors exit 1, which every agent treats as a non-blocking hook
 * failure (never 2, which means "block" to most of them), and say what to fix on stderr.
 */
import { resolve } from 'node:path';
import { errorMessage } from '../../agent/errorMessage';
import { ConfigError } from '../../agent/settings';
import type { Logger, ToolHost } from '../../agent/ports';
import { type AgentAnswer, type AgentFormat, type BridgeCall, PayloadError } from '../../agentHooks/agentFormat';
import { agentFormat } from '../../agentHooks/agentFormats';
import { McpConfigError, type McpServerConfig } from '../../mcp/config';
import type { McpHub } from '../../mcp/mcpHub';
import { neutralizeProgramOutput, neutralizeTerminalText } from '../../platform/terminalText';
import type { Env } from '../cliSettings';
import { UsageError } from '../exitCodes';
import { parseRunArgs } from './bridgeArgs';
import { runBridgeCall } from './bridgeHooks';
import type { bridgeSetup } from './bridgeServers';
import { BridgeStateStore } from './bridgeState';
import { quotedName } from '../../agent/nameText';
import { commandPolicyDenial } from './bridgeCommandRules';

/** Everything the bridge process knows, as sent to the hook host. */
export interface BridgeRequest {
  /** The words after `hooks run`. */
  argv: string[];
  /** The agent's payload, as read from stdin. */
  stdin: string;
  cwd: string;
  env: Env;
  /** The agent process the hook runs for (the host lives as long as one is alive). */
  agentPid: number;
}

export interface BridgeResponse extends AgentAnswer {
  /** The agent session this event belonged to, and whether it ended with it. */
  session?: { key: string; ended: boolean };
}

/** Servers for one event: warm ones from the host, or fresh ones closed after the answer. */
export interface ToolHostLease {
  tools: ToolHost;
  /** Why each server that could not start failed (`name: message`). */
  failures(): string[];
  release(): Promise<void>;
}

/** The lease of one hub: what `lease` hands out in both environments. */
export function hubLease(hub: McpHub, release: () => Promise<void>): ToolHostLease {
  return {
    tools: hub,
    failures: () => hub.status().filter((s) => s.state === 'failed').map((s) => `MCP server ${quotedName(s.name)} failed: ${s.error ?? 'it did not start'}`),
    release,
  };
}

export interface BridgeEnvironment {
  distDir: string;
  /** The event's servers and settings: bridgeSetup, or the hook host's memory of it (bridgeSetupCache.ts). */
  setup: typeof bridgeSetup;
  lease(servers: readonly McpServerConfig[], env: Env): Promise<ToolHostLease>;
  /** Runs `work` alone among the events of the same session (parallel tool hooks share one state file). */
  serialize<T>(key: string, work: () => Promise<T>): Promise<T>;
  logger?: Logger;
}

export const RUN_USAGE = `Usage: sprout-agent hooks run --agent AGENT EVENT [options]

The command hook an agent runs (hooks install writes it): reads the agent's JSON payload on stdin,
calls the allowlisted MCP servers' Sprout hooks with Sprout's rules, and answers in the agent's format.

Options:
  --agent AGENT           claude, codex, gemini, copilot, cursor or kiro
  --cwd DIR               the workspace (default: the payload's cwd, else the current directory)
  --mcp-config FILE       MCP servers in the .vscode/mcp.json format (as for a run)
  --trust-workspace       also start the servers of <cwd>/.vscode/mcp.json (as for a run)
  --allow-secret-env NAME let them receive the secret variable NAME (as for a run)
  --builtin-servers LIST  bundled servers to start (default: the bundled ones --hook-servers names)
  --hook-servers LIST     servers whose hooks act (default: $MCP_HOOK_SERVERS)
  --command-rules JSON    deny the agent's shell commands these rules deny (as sprout.tools.commandRules)
`;

function failure(message: string): BridgeResponse {
  return { stdout: '', stderr: `sprout-agent hooks run: ${neutralizeTerminalText(message)}\n`, exitCode: 1 };
}

function parsePayload(format: AgentFormat, event: string, stdin: string, agentPid: number): BridgeCall {
  let payload: unknown;
  try {
    payload = JSON.parse(stdin);
  } catch (error) {
    throw new PayloadError(format.id, event, `stdin is not JSON (${errorMessage(error)})`);
  }
  // Kiro sends no session id: its hooks are keyed by the agent process instead.
  if (format.id === 'kiro' && payload !== null && typeof payload === 'object' && !('session_id' in payload)) payload = { ...payload, session_id: `kiro-${agentPid}` };
  return format.parse(event, payload);
}

/**
 * A server the hooks needed did not start: said on stderr, and when nothing else was decided the hook
 * fails (exit 1, non-blocking), so the agent shows it rather than passing silently.
 */
function withFailures(answer: AgentAnswer, failures: readonly string[]): AgentAnswer {
  if (failures.length === 0) return answer;
  const stderr = `${answer.stderr}${failures.map((f) => `sprout-agent hooks run: ${f}\n`).join('')}`;
  return answer.stdout === '' && answer.exitCode === 0 ? { ...answer, stderr, exitCode: 1 } : { ...answer, stderr };
}

/**
 * Every string the agent gets from us came partly from hook servers, and agents show it on a terminal:
 * neutralised as the CLI's own output is, inside the JSON answer's strings too (platform/terminalText).
 */
function clean(answer: AgentAnswer): AgentAnswer {
  return { stdout: neutralizeProgramOutput(answer.stdout), stderr: neutralizeProgramOutput(answer.stderr), exitCode: answer.exitCode };
}

export async function handleBridgeRequest(request: BridgeRequest, environment: BridgeEnvironment, signal: AbortSignal): Promise<BridgeResponse> {
  try {
    const args = parseRunArgs(request.argv, RUN_USAGE);
    const format = agentFormat(args.agent);
    const call = parsePayload(format, args.event, request.stdin, request.agentPid);
    const key = `${format.id}:${call.sessionId}`;
    const ended = call.hook === '_SessionEnd';
    if (call.skip !== undefined) return { ...format.answer(args.event, { kind: 'none' }), session: { key, ended } };
    const workspaceFolder = resolve(request.cwd, args.cwd ?? call.cwd ?? '.');
    const denial = commandPolicyDenial(args.commandRules, format, call, workspaceFolder);
    if (denial !== undefined) return { ...clean(format.answer(args.event, { kind: 'deny', text: denial })), session: { key, ended } };
    const setup = environment.setup(args, workspaceFolder, request.env, environment.distDir, request.cwd);
    const allowlist = setup.settings.hooks.allowlist;
    // Hooks off (nothing allowlisted) or nothing to start: no server is started for nothing.
    if (setup.servers.length === 0 || (allowlist.kind === 'names' && allowlist.names.length === 0)) return { ...format.answer(args.event, { kind: 'none' }), session: { key, ended } };
    const answer = await environment.serialize(key, async () => {
      const store = new BridgeStateStore(request.env);
      if (call.hook === '_SessionStart') store.prune(format.id);
      const state = store.load(format.id, call.sessionId);
      const loaded = JSON.stringify(state);
      const lease = await environment.lease(setup.servers, request.env);
      try {
        const decided = await runBridgeCall({ call, settings: setup.settings, tools: lease.tools, state, signal, logger: environment.logger });
        if (ended) store.forget(format.id, call.sessionId);
        // An event that changed nothing (a _Stop with nothing to say, again) costs no write.
        else if (JSON.stringify(state) !== loaded) store.save(format.id, call.sessionId, state);
        return withFailures(format.answer(args.event, decided), lease.failures());
      } finally {
        await lease.release();
      }
    });
    return { ...clean(answer), session: { key, ended } };
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof McpConfigError || error instanceof PayloadError) return failure(error.message);
    return failure(errorMessage(error));
  }
}
