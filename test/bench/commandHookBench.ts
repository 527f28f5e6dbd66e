/**
 * Bench 2: a persistent MCP `_Stop` hook (one long-lived server, one JSON-RPC round trip per call)
 * against what other agents do: a command hook that starts a process per call, writes the event as
 * JSON to its stdin and reads its stdout. Both hooks do the same trivial work and raise no objection.
 */
import { spawn } from 'node:child_process';
import { HookCaller } from '../../src/agent/index';
import { McpHub } from '../../src/mcp/mcpHub';
import { NodeClock } from '../../src/platform/nodeClock';
import { bundledHookServerConfig, fmt, timeSideBySide } from './benchHarness';

/** A minimal command hook in the usual shape: JSON event on stdin, decision on stdout, exit 0. */
const COMMAND_HOOK = `let s='';process.stdin.on('data',d=>s+=d);process.stdin.on('end',()=>{JSON.parse(s);process.stdout.write('');});`;

function runCommandHook(event: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', COMMAND_HOOK], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`command hook exited ${code}`))));
    child.stdin.end(JSON.stringify(event));
  });
}

export async function runCommandHookBench(entry: string, iterations = 30): Promise<string[]> {
  const hub = new McpHub([bundledHookServerConfig(entry, 'hooks', { echo: false, hooks: { _Stop: { kind: 'empty' } } })], {});
  try {
    const caller = new HookCaller({ tools: hub, clock: new NodeClock(), emit: () => undefined, timeoutMs: () => 2500 });
    const context = { sessionId: 'bench', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false };
    await hub.listTools();
    const timings = await timeSideBySide(
      {
        mcp: async () => {
          const outcome = await caller.call('hooks', '_Stop', context);
          if (outcome.result !== 'no_objection') throw new Error(`hook failed: ${outcome.result}`);
        },
        command: () => runCommandHook({ hook_event_name: 'Stop', session_id: 'bench', stop_hook_active: false }),
      },
      iterations,
    );
    const mcp = timings.mcp?.medianMs ?? NaN;
    const command = timings.command?.medianMs ?? NaN;
    return [
      `persistent MCP _Stop hook vs a command hook that starts a process per call (medians of ${iterations}):`,
      `  MCP ${fmt(mcp)}  command ${fmt(command)}  -> the MCP hook is ${(command / mcp).toFixed(1)}x faster`,
    ];
  } finally {
    await hub.close();
  }
}
