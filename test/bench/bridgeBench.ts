/**
 * Bench: a `_Stop` call through the hook bridge, as another agent makes it, side by side with the same
 * call inside Sprout (the HookCaller on a warm hub) and with a bridge that starts the servers for every
 * call (no hook host). The warm bridge is measured twice: as the agent sees it (a `hooks run` process
 * per event, so Node's start-up is in it) and as the host's round trip on its socket (the bridge's own
 * work once a process runs), and beside it an empty Node process fed the same payload, the floor of
 * any command hook, so the bridge's own share of what the agent waits for shows. Targets: warm within
 * 2x of in-process, and at least 5x faster than a process per call.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HookCaller } from '../../src/agent/index';
import { exchange } from '../../src/cli/bridge/hookHostWire';
import { McpHub } from '../../src/mcp/mcpHub';
import { NodeClock } from '../../src/platform/nodeClock';
import { writeMcpConfig } from '../integration/cli/cliHarness';
import { bundledHookServerConfig, fmt, tempDir, timeSideBySide } from './benchHarness';

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

export async function runBridgeBench(entry: string, iterations = 12): Promise<string[]> {
  const tmp = tempDir('sprout-bridge-bench-');
  const server = bundledHookServerConfig(entry, 'hooks', { echo: false, hooks: { _Stop: { kind: 'empty' } } });
  const config = writeMcpConfig(join(tmp.dir, 'servers.json'), [server]);
  const env = { PATH: process.env.PATH ?? '', HOME: tmp.dir, XDG_STATE_HOME: join(tmp.dir, 'state') };
  const args = ['--agent', 'claude', 'Stop', '--cwd', tmp.dir, '--mcp-config', config, '--hook-servers', 'hooks'];
  const payload = JSON.stringify({ session_id: 'bench', cwd: tmp.dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
  const hub = new McpHub([server], {});
  try {
    const caller = new HookCaller({ tools: hub, clock: new NodeClock(), emit: () => undefined, timeoutMs: () => 2500 });
    await hub.listTools();
    const socket = join(tmp.dir, 'state', 'sprout-agent', 'hook-host', 'host.sock');
    await hookRun(args, env, payload); // starts the host
    const timings = await timeSideBySide(
      {
        inProcess: async () => {
          const outcome = await caller.call('hooks', '_Stop', { sessionId: 'bench', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false });
          if (outcome.result !== 'no_objection') throw new Error(`hook failed: ${outcome.result}`);
        },
        hostRoundTrip: async () => {
          const answer = await exchange(socket, { op: 'bridge', request: { argv: args, stdin: payload, cwd: tmp.dir, env, agentPid: process.pid } }, 30_000);
          if (answer === undefined) throw new Error('the hook host did not answer');
        },
        warmBridge: () => hookRun(args, env, payload),
        // The floor of any command hook an agent runs: a Node process that reads the payload and exits.
        nodeStart: () => nodeRun(['-e', 'process.stdin.resume()'], env, payload),
        // The floor of any process at all: a shell that reads the payload and exits (no Node, no socket).
        shellStart: () => (process.platform === 'win32' ? run('cmd.exe', ['/d', '/c', 'more >nul'], env, payload) : run('/bin/sh', ['-c', 'cat >/dev/null'], env, payload)),
        perCall: () => hookRun(args, { ...env, SPROUT_AGENT_HOOK_HOST: 'off' }, payload),
      },
      iterations,
      2,
    );
    const m = (name: string) => timings[name]?.medianMs ?? NaN;
    return [
      `_Stop through the hook bridge (medians of ${iterations}; target: warm within 2x of in-process, >= 5x faster than a process per call):`,
      `  inside Sprout ${fmt(m('inProcess'))}  host round trip ${fmt(m('hostRoundTrip'))} (${(m('hostRoundTrip') / m('inProcess')).toFixed(1)}x)`,
      `  warm bridge as the agent runs it ${fmt(m('warmBridge'))} (${(m('warmBridge') / m('inProcess')).toFixed(1)}x in-process, Node's start included)`,
      `  of which Node's start (an empty hook process) ${fmt(m('nodeStart'))}; the bridge's own share ${fmt(m('warmBridge') - m('nodeStart'))} (${((m('warmBridge') - m('nodeStart')) / m('inProcess')).toFixed(1)}x in-process)`,
      `  the floor of any command hook, a shell that reads the payload and exits: ${fmt(m('shellStart'))} (${(m('shellStart') / m('inProcess')).toFixed(1)}x in-process before any work)`,
      `  bridge starting the servers per call ${fmt(m('perCall'))} -> the warm bridge is ${(m('perCall') / m('warmBridge')).toFixed(1)}x faster`,
    ];
  } finally {
    await hub.close();
    tmp.remove();
  }
}
