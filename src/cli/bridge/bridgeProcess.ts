/**
 * The `hooks run` process an agent starts for each hook event: it reads the payload, hands the event to
 * the hook host (starting one when there is none) and prints the host's answer. No socket, no host, or
 * a host that does not answer in time: it runs the event itself, with servers started for this one
 * event and closed after it. SPROUT_AGENT_HOOK_HOST=off always runs it in this process.
 */
import { join } from 'node:path';
import type { McpServerConfig } from '../../mcp/config';
import { createHub } from '../../runtime/compose';
import type { Env } from '../cliSettings';
import type { CliIo } from '../cliIo';
import { handleBridgeRequest, hubLease, type BridgeEnvironment, type BridgeRequest, type BridgeResponse } from './bridgeHandler';
import { askHookHost, readPayload } from './bridgeClient';
import { bridgeSetup } from './bridgeServers';
import { agentProcessId } from './hookHostWire';

function localEnvironment(distDir: string, version: string): BridgeEnvironment {
  return {
    distDir,
    setup: bridgeSetup,
    lease: (servers: readonly McpServerConfig[], env: Env) => {
      const hub = createHub(servers, { parentEnv: { ...env }, clientVersion: version });
      return Promise.resolve(hubLease(hub, () => hub.close()));
    },
    serialize: (_key, work) => work(),
  };
}

/** The event run in this process, with servers started for it alone (no host, or none that answered). */
export function answerLocally(request: BridgeRequest, distDir: string, version: string, signal: AbortSignal): Promise<BridgeResponse> {
  return handleBridgeRequest(request, localEnvironment(distDir, version), signal);
}

/** `hooks run` when the full CLI was loaded anyway (run directly, or under tsx in development). */
export async function runBridgeProcess(argv: readonly string[], io: CliIo): Promise<number> {
  const request: BridgeRequest = { argv: [...argv], stdin: await readPayload(io.stdin as unknown as NodeJS.ReadableStream), cwd: io.cwd, env: { ...io.env }, agentPid: agentProcessId() };
  const answer = (await askHookHost(request, join(io.distDir, 'cliMain.js'))) ?? (await answerLocally(request, io.distDir, io.version, io.interrupt));
  io.stdout.write(answer.stdout);
  io.stderr.write(answer.stderr);
  return answer.exitCode;
}
