/**
 * Bench: a `_Stop` call through the hook bridge, as another agent makes it, side by side with the same
 * call inside Sprout (the HookCaller on a warm hub) and with a bridge that starts the servers for every
 * call (no hook host). No command hook can come within 2x of in-process (starting any process costs
 * more than the call), so the bridge is measured for what it adds:
 * - per call, over an empty Node command hook run the same way (a script file that reads the payload
 *   and exits, spawned with the same environment and stdin): the bridge's own share of what the agent
 *   waits for, target under 15% more;
 * - the hook host's round trip on its socket (the bridge's work once a process runs) against the same
 *   call in-process, target under 2x;
 * - and the warm bridge against one that starts the servers per call, target at least 5x faster.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HookCaller } from '../../src/agent/index';
import { exchange } from '../../src/cli/bridge/hookHostWire';
import { McpHub } from '../../src/mcp/mcpHub';
import { NodeClock } from '../../src/platform/nodeClock';
import { writeFileSync } from 'node:fs';
import { writeMcpConfig } from '../integration/cli/cliHarness';
import { bundledHookServerConfig, fmt, median, pct, tempDir, timePairs, timeSideBySide, type PairedSamples } from './benchHarness';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

function hookRun(args: string[], env: Record<string, string>, payload: string): Promise<string> {
  return nodeRun([CLI, 'hooks', 'run', ...args], env, payload);
}

function nodeRun(argv: string[], env: Record<string, string>, payload: string): Promise<string> {
  return run(process.execPath, argv, env, payload);
}

function run(file: string, argv: string[], env: Record<string, string>, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`hooks run exited ${code}: ${err}`))));
    child.stdin.end(payload);
  });
}

export async function runBridgeBench(entry: string, iterations = 60, perCallIterations = 8, hostIterations = 400): Promise<string[]> {
  const tmp = tempDir('sprout-bridge-bench-');
  const server = bundledHookServerConfig(entry, 'hooks', { echo: false, hooks: { _Stop: { kind: 'empty' } } });
  const config = writeMcpConfig(join(tmp.dir, 'servers.json'), [server]);
  const env = { PATH: process.env.PATH ?? '', HOME: tmp.dir, XDG_STATE_HOME: join(tmp.dir, 'state') };
  const args = ['--agent', 'claude', 'Stop', '--cwd', tmp.dir, '--mcp-config', config, '--hook-servers', 'hooks'];
  const payload = JSON.stringify({ session_id: 'bench', cwd: tmp.dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
  // The floor the bridge is compared with: the least a Node command hook does (read the payload, answer nothing).
  const emptyHook = join(tmp.dir, 'emptyHook.js');
  writeFileSync(emptyHook, "process.stdin.resume();process.stdin.on('end',()=>{});\n");
  const hub = new McpHub([server], {});
  try {
    const caller = new HookCaller({ tools: hub, clock: new NodeClock(), emit: () => undefined, timeoutMs: () => 2500 });
    await hub.listTools();
    const socket = join(tmp.dir, 'state', 'sprout-agent', 'hook-host', 'host.sock');
    await hookRun(args, env, payload); // starts the host
    const inProcess = async (): Promise<void> => {
      const outcome = await caller.call('hooks', '_Stop', { sessionId: 'bench', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false });
      if (outcome.result !== 'no_objection') throw new Error(`hook failed: ${outcome.result}`);
    };
    const hostRoundTrip = async (): Promise<void> => {
      const answer = await exchange(socket, { op: 'bridge', request: { argv: args, stdin: payload, cwd: tmp.dir, env, agentPid: process.pid } }, 30_000);
      if (answer === undefined) throw new Error('the hook host did not answer');
    };
    const warmBridge = (): Promise<string> => hookRun(args, env, payload);
    // The floor of any Node command hook an agent runs: a script that reads the payload and exits, run the same way.
    const emptyNodeHook = (): Promise<string> => nodeRun([emptyHook], env, payload);
    // Each target's two sides in pairs whose order alternates, so a busy machine's swings fall on both alike.
    const bridgePairs = await timePairs(warmBridge, emptyNodeHook, { iterations, warmup: 3 });
    const hostPairs = await timePairs(hostRoundTrip, inProcess, { iterations: hostIterations, warmup: 20 });
    const rest = await timeSideBySide(
      {
        warmBridge,
        // The floor of any process at all: a shell that reads the payload and exits (no Node, no socket).
        shellStart: () => (process.platform === 'win32' ? run('cmd.exe', ['/d', '/c', 'more >nul'], env, payload) : run('/bin/sh', ['-c', 'cat >/dev/null'], env, payload)),
        perCall: () => hookRun(args, { ...env, SPROUT_AGENT_HOOK_HOST: 'off' }, payload),
      },
      perCallIterations,
      1,
    );
    const m = (name: string) => rest[name]?.medianMs ?? NaN;
    const share = median(bridgePairs.a) / median(bridgePairs.b) - 1;
    const host = median(hostPairs.a) / median(hostPairs.b);
    const pairedRatio = (p: PairedSamples): number => median(p.a.map((a, i) => a / (p.b[i] ?? NaN)));
    const perCall = m('perCall') / m('warmBridge');
    const within = (ok: boolean): string => (ok ? 'within target' : 'OVER TARGET');
    return [
      `_Stop through the hook bridge (medians of ${iterations} pairs in alternating order, the host's of ${hostIterations}; per call: ${perCallIterations}):`,
      `  the bridge's own share per call: warm bridge ${fmt(median(bridgePairs.a))} vs an empty Node command hook run the same way ${fmt(median(bridgePairs.b))}: ${pct(share + 1)} more (target < 15%, ${within(share < 0.15)}; median of the pairs' ratios ${pct(pairedRatio(bridgePairs))})`,
      `  the host's round trip ${fmt(median(hostPairs.a))} vs the same call in-process ${fmt(median(hostPairs.b))}: ${host.toFixed(2)}x (target < 2x, ${within(host < 2)}; median of the pairs' ratios ${pairedRatio(hostPairs).toFixed(2)}x)`,
      `  the floor of any command hook, a shell that reads the payload and exits: ${fmt(m('shellStart'))}`,
      `  bridge starting the servers per call ${fmt(m('perCall'))}: the warm bridge is ${perCall.toFixed(1)}x faster (target >= 5x, ${within(perCall >= 5)})`,
    ];
  } finally {
    await hub.close();
    tmp.remove();
  }
}
