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
 * The first two are printed twice: wall clock, and the CPU time of every process doing the work
 * (cpuTime.ts; Linux). The verdicts go by CPU time where it can be read: the machine these benches run
 * on is often busy, and a wall-clock time there measures mostly how long the work waited for a CPU.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HookCaller } from '../../src/agent/index';
import { exchange } from '../../src/cli/bridge/hookHostWire';
import { McpHub } from '../../src/mcp/mcpHub';
import { NodeClock } from '../../src/platform/nodeClock';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeMcpConfig } from '../integration/cli/cliHarness';
import { childPids, cpuMsOf, CpuTally, reapedChildrenCpuMs } from './cpuTime';
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

/** The hook host serving `stateDir` (its environment names it), found in /proc; undefined elsewhere. */
function hookHostPid(stateDir: string): number | undefined {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!(argv.includes('hooks') && argv.includes('host'))) continue;
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`XDG_STATE_HOME=${stateDir}`)) return Number(name);
    } catch {
      // gone, or not ours
    }
  }
  return undefined;
}

/** Runs `work` and adds to `side` the CPU ms this process and the children it reaped meanwhile spent. */
async function tallied(tally: CpuTally, side: string, work: () => Promise<unknown>): Promise<void> {
  const reaped = reapedChildrenCpuMs();
  const self = process.cpuUsage();
  await work();
  const selfUsed = process.cpuUsage(self);
  const reapedAfter = reapedChildrenCpuMs();
  if (reaped !== undefined && reapedAfter !== undefined) tally.add(side, (selfUsed.user + selfUsed.system) / 1000 + reapedAfter - reaped);
}

/**
 * The CPU ms long-lived processes (`pids`) spent over a whole run of pairs, per pair: a process that
 * answered goes on working after its answer (closing the connection, collecting garbage) into the
 * other side's turn, so its time is taken over the run, not over its own side's turns.
 */
async function perPair<T extends { pairs: number }>(groups: readonly (readonly number[])[], run: () => Promise<T>): Promise<{ result: T; ms: number[] }> {
  const before = groups.map((pids) => cpuMsOf(pids));
  const result = await run();
  const ms = groups.map((pids, i) => {
    const [from, to] = [before[i], cpuMsOf(pids)];
    return from === undefined || to === undefined ? NaN : (to - from) / result.pairs;
  });
  return { result, ms };
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
    await hookRun(args, env, payload); // and its servers
    // CPU time: the host and its servers, the hub's servers (in-process), this process and the command hooks it reaps.
    const host = hookHostPid(env.XDG_STATE_HOME);
    const hostSide = host === undefined ? [] : [host, ...childPids(host)];
    const cpu = new CpuTally();
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
    const bridge = await perPair([hostSide], () =>
      timePairs(
        () => tallied(cpu, 'bridge', warmBridge),
        () => tallied(cpu, 'emptyHook', emptyNodeHook),
        { iterations, warmup: 3 },
      ),
    );
    const bridgePairs = bridge.result;
    // The hub's servers are children of this process, listed once they run (the hub started them above).
    const hubSide = childPids(process.pid);
    const hostRun = await perPair([hostSide, hubSide], () =>
      timePairs(
        () => tallied(cpu, 'host', hostRoundTrip),
        () => tallied(cpu, 'inProcess', inProcess),
        { iterations: hostIterations, warmup: 20 },
      ),
    );
    const hostPairs = hostRun.result;
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
    const hostRatio = median(hostPairs.a) / median(hostPairs.b);
    const pairedRatio = (p: PairedSamples): number => median(p.a.map((a, i) => a / (p.b[i] ?? NaN)));
    const perCall = m('perCall') / m('warmBridge');
    const within = (ok: boolean): string => (ok ? 'within target' : 'OVER TARGET');
    const cpuBridge = cpu.mean('bridge') + (bridge.ms[0] ?? NaN);
    const cpuRoundTrip = cpu.mean('host') + (hostRun.ms[0] ?? NaN);
    const cpuInProcess = cpu.mean('inProcess') + (hostRun.ms[1] ?? NaN);
    const cpuShare = cpuBridge / cpu.mean('emptyHook') - 1;
    const cpuHost = cpuRoundTrip / cpuInProcess;
    const measured = host !== undefined && Number.isFinite(cpuShare) && Number.isFinite(cpuHost);
    // The verdict goes by CPU time where it was measured: on a busy machine, wall time is mostly waiting for a CPU.
    const verdict = (cpuOk: boolean, wallOk: boolean): string => (measured ? `${within(cpuOk)} by CPU time` : `${within(wallOk)} by wall clock, CPU time unreadable here`);
    return [
      `_Stop through the hook bridge (medians of ${iterations} pairs in alternating order, the host's of ${hostIterations}; per call: ${perCallIterations}):`,
      `  the bridge's own share per call: warm bridge ${fmt(median(bridgePairs.a))} vs an empty Node command hook run the same way ${fmt(median(bridgePairs.b))}: ${pct(share + 1)} more (target < 15%, ${verdict(cpuShare < 0.15, share < 0.15)}; median of the pairs' ratios ${pct(pairedRatio(bridgePairs))})`,
      `    CPU time per call (mean; the bridge with the host and its servers): ${fmt(cpuBridge)} vs ${fmt(cpu.mean('emptyHook'))}: ${pct(cpuShare + 1)} more (the bridge process ${fmt(cpu.mean('bridge'))}, ${pct(cpu.mean('bridge') / cpu.mean('emptyHook'))} more; the host and the hook server ${fmt(bridge.ms[0] ?? NaN)})`,
      `  the host's round trip ${fmt(median(hostPairs.a))} vs the same call in-process ${fmt(median(hostPairs.b))}: ${hostRatio.toFixed(2)}x (target < 2x, ${verdict(cpuHost < 2, hostRatio < 2)}; median of the pairs' ratios ${pairedRatio(hostPairs).toFixed(2)}x)`,
      `    CPU time per call (mean; this process, the host and the servers): ${fmt(cpuRoundTrip)} vs ${fmt(cpuInProcess)}: ${cpuHost.toFixed(2)}x`,
      `  the floor of any command hook, a shell that reads the payload and exits: ${fmt(m('shellStart'))}`,
      `  bridge starting the servers per call ${fmt(m('perCall'))}: the warm bridge is ${perCall.toFixed(1)}x faster (target >= 5x, ${within(perCall >= 5)})`,
    ];
  } finally {
    await hub.close();
    tmp.remove();
  }
}
