/**
 * The light half of `hooks run`: read the agent's payload and hand the event to the hook host,
 * starting one when none answers. It is the whole of a warm hook call, so it is kept to what that
 * needs (no SDKs, no servers, no core): the launcher loads it on its own (dist/hookBridge.js), and the
 * full CLI is loaded only when the event must run without a host.
 */
import { DEFAULT_SETTINGS, parseInteger } from '../../agent/settings';
import type { BridgeRequest, BridgeResponse } from './bridgeHandler';
import { exchange, hostSocketPath, pingHost, startHost } from './hookHostWire';

type Env = Readonly<Record<string, string | undefined>>;

/** Payloads beyond this are cut off: no agent sends one this large, and the bridge must stay bounded. */
const STDIN_LIMIT = 16 * 1024 * 1024;

export async function readPayload(stdin: NodeJS.ReadableStream): Promise<string> {
  stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.length > STDIN_LIMIT) break;
  }
  return text;
}

function millis(env: Env, name: string, fallback: number): number {
  const value = env[name];
  try {
    return value === undefined || value.trim() === '' ? fallback : parseInteger(value, name, 1);
  } catch {
    return fallback;
  }
}

/** How long the host may take: the servers' first start, then every hook timeout an event may spend, and a margin. */
function hostDeadlineMs(env: Env): number {
  const startup = millis(env, 'SPROUT_AGENT_SERVER_STARTUP_WAIT_MS', DEFAULT_SETTINGS.firstPromptServerWaitMs);
  return startup + 3 * millis(env, 'SPROUT_AGENT_HOOK_TIMEOUT_MS', DEFAULT_SETTINGS.hooks.timeoutMs) + 5000;
}

/**
 * The host's answer to `request`, starting a host (`cliMain hooks host`) when none answers; undefined
 * when the host is off (SPROUT_AGENT_HOOK_HOST=off), cannot be had, or does not answer in time.
 */
export async function askHookHost(request: BridgeRequest, cliMain: string): Promise<BridgeResponse | undefined> {
  const mode = request.env.SPROUT_AGENT_HOOK_HOST?.trim().toLowerCase();
  if (mode === 'off' || mode === '0' || mode === 'false') return undefined;
  let socketPath: string;
  try {
    socketPath = hostSocketPath(request.env);
  } catch {
    return undefined;
  }
  if (!(await pingHost(socketPath, 1000))) {
    startHost(cliMain, { ...request.env });
    // Poll for the new host's socket; a host that is not up within this wait is not used for this event.
    const until = Date.now() + 5000;
    while (!(await pingHost(socketPath, 500)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return exchange<BridgeResponse>(socketPath, { op: 'bridge', request }, hostDeadlineMs(request.env));
}
