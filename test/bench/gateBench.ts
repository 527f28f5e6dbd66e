/**
 * Bench 1: one `_Stop` gate round through the product (HookCaller over McpHub: timeout race, _meta
 * context, events, objection filtering) against the floor of calling the same hook tools directly with
 * bare MCP SDK clients, for 1, 4 and 16 hook servers. Each hook takes a fixed delay so the 16-server
 * case shows whether dispatch is parallel (about one delay) or serial (sixteen).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { collectObjections, HookCaller } from '../../src/agent/index';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpHub } from '../../src/mcp/mcpHub';
import { NodeClock } from '../../src/platform/nodeClock';
import { bundledHookServerConfig, fmt, pct, timeSideBySide } from './benchHarness';

export const HOOK_DELAY_MS = 20;

async function directClients(configs: McpServerConfig[]): Promise<Client[]> {
  return Promise.all(
    configs.map(async (config) => {
      if (config.transport.type !== 'stdio') throw new Error('stdio only');
      const client = new Client({ name: 'bench-floor', version: '1.0.0' });
      const t = config.transport;
      await client.connect(new StdioClientTransport({ command: t.command, args: t.args, env: { ...t.env, PATH: process.env.PATH ?? '' }, stderr: 'ignore' }));
      return client;
    }),
  );
}

export interface GateBenchRow {
  servers: number;
  gateMs: number;
  floorMs: number;
  overhead: number;
}

async function benchOne(entry: string, count: number, iterations: number): Promise<GateBenchRow> {
  const configs = Array.from({ length: count }, (_, i) =>
    bundledHookServerConfig(entry, `hook${i}`, { echo: false, hooks: { _Stop: { kind: 'delay', ms: HOOK_DELAY_MS, text: '' } } }),
  );
  const hub = new McpHub(configs, {});
  const clients = await directClients(configs);
  try {
    const caller = new HookCaller({ tools: hub, clock: new NodeClock(), emit: () => undefined, timeoutMs: () => 2500 });
    const names = hub.serverNames();
    const context = { sessionId: 'bench', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false };
    await hub.listTools();
    const timings = await timeSideBySide(
      {
        gate: async () => {
          const outcomes = await Promise.all(names.map((server) => caller.call(server, '_Stop', context)));
          if (collectObjections(outcomes, names).length !== 0) throw new Error('unexpected objection');
          if (outcomes.some((o) => o.result !== 'no_objection')) throw new Error(`hook failed: ${JSON.stringify(outcomes)}`);
        },
        floor: () => Promise.all(clients.map((client) => client.callTool({ name: '_Stop', arguments: {} }))),
      },
      iterations,
    );
    const gateMs = timings.gate?.medianMs ?? NaN;
    const floorMs = timings.floor?.medianMs ?? NaN;
    return { servers: count, gateMs, floorMs, overhead: gateMs / floorMs };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await hub.close();
  }
}

export async function runGateBench(entry: string, iterations = 40): Promise<string[]> {
  const rows: GateBenchRow[] = [];
  for (const count of [1, 4, 16]) rows.push(await benchOne(entry, count, iterations));
  const lines = [`_Stop gate round vs direct MCP SDK calls (each hook answers after ${HOOK_DELAY_MS} ms; medians of ${iterations}):`];
  for (const r of rows) {
    lines.push(`  ${String(r.servers).padStart(2)} servers: gate ${fmt(r.gateMs)}  floor ${fmt(r.floorMs)}  overhead ${pct(r.overhead)} (target < 10%)`);
  }
  const one = rows[0];
  const sixteen = rows[2];
  if (one && sixteen) {
    lines.push(
      `  16 servers cost ${(sixteen.gateMs / one.gateMs).toFixed(2)}x one server ` +
        `(parallel ~1x; serial would be ~16x = ${fmt(16 * HOOK_DELAY_MS)} of hook time)`,
    );
  }
  return lines;
}
