/**
 * The `hooks run` process an agent starts for each hook event: it reads the payload, hands the event to
 * the hook host (starting one when there is none) and prints the host's answer. No socket, no host, or
 * a host that does not answer in time: it runs the event itself, with servers started for this one
 * event and closed after it. SPROUT_AGENT_HOOK_HOST=off always runs it in this process.
 */
import { join } from 'node:path';
import type { McpServerConfig } from '../../mcp/config';
import { createHub } from '../../runtime/compose';
import { hookOnlySettings, type Env } from '../cliSettings';
import type { CliIo } from '../runCli';
import { handleBridgeRequest, type BridgeEnvironment, type BridgeRequest, type BridgeResponse } from './bridgeHandler';
import { agentProcessId, exchange, hostSocketPath, pingHost, startHost } from './hookHostWire';

/** Payloads beyond this are cut off: no agent sends one this large, and the bridge must stay bounded. */
const STDIN_LIMIT = 16 * 1024 * 1024;

async function readStdin(io: CliIo): Promise<string> {
  io.stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.length > STDIN_LIMIT) break;
  }
  return text;
}

function localEnvironment(io: CliIo): BridgeEnvironment {
  return {
    distDir: io.distDir,
    lease: (servers: readonly McpServerConfig[], env: Env) => {
      const hub = createHub(servers, { parentEnv: { ...env }, clientVersion: io.version });
      return Promise.resolve({ tools: hub, release: () => hub.close() });
    },
    serialize: (_key, work) => work(),
  };
}

/** How long the host may take: the servers' first start, then every hook timeout a bridge event may spend, and a margin. */
function hostDeadlineMs(env: Env): number {
  const settings = hookOnlySettings(env);
  return settings.firstPromptServerWaitMs + 3 * settings.hooks.timeoutMs + 5000;
}

async function viaHost(request: BridgeRequest, io: CliIo): Promise<BridgeResponse | undefined> {
  const mode = io.env.SPROUT_AGENT_HOOK_HOST?.trim().toLowerCase();
  if (mode === 'off' || mode === '0' || mode === 'false') return undefined;
  let deadline: number;
  let socketPath: string;
  try {
    deadline = hostDeadlineMs(io.env);
    socketPath = hostSocketPath(io.env);
  } catch {
    return undefined;
  }
  if (!(await pingHost(socketPath, 1000))) {
    startHost(join(io.distDir, 'cliMain.js'), { ...io.env });
    // Poll for the new host's socket; a host that is not up within this wait is not used for this event.
    const until = Date.now() + 5000;
    while (!(await pingHost(socketPath, 500)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return exchange<BridgeResponse>(socketPath, { op: 'bridge', request }, deadline);
}

export async function runBridgeProcess(argv: readonly string[], io: CliIo): Promise<number> {
  const request: BridgeRequest = { argv: [...argv], stdin: await readStdin(io), cwd: io.cwd, env: { ...io.env }, agentPid: agentProcessId() };
  const answer = (await viaHost(request, io)) ?? (await handleBridgeRequest(request, localEnvironment(io), io.interrupt));
  io.stdout.write(answer.stdout);
  io.stderr.write(answer.stderr);
  return answer.exitCode;
}
