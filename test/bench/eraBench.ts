/**
 * Bench: what each MCP protocol era costs a connection, side by side in one run, through the product's
 * own McpHub as Sprout connects. For the bundled `todo` server (stdio, a fresh process per start) and
 * the dual-era HTTP test server: the time from a cold start to the first `tools/list` answer pinned
 * to 2026-07-28, pinned to the legacy `initialize` era, on `auto` with nothing remembered (the era
 * question is asked) and on `auto` with the era remembered (as every start after the first); then
 * the median `_Stop` call through the HookCaller on a warm hub of each era. Both servers speak both
 * eras, so `auto` lands on 2026-07-28 and the remembered start shows whether the question is paid
 * again. A wrong era, a server that is not up or a hook that fails is an error; a time never is.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { HookCaller } from '../../src/agent/index';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpHub } from '../../src/mcp/mcpHub';
import { eraKey, memoryEraStore, type EraStore, type ProtocolEra, type ProtocolSetting, type RememberedEra } from '../../src/mcp/protocolEra';
import { NodeClock } from '../../src/platform/nodeClock';
import { bundledServerConfig } from '../../src/runtime/bundledServers';
import { startHttpHookServer } from '../fakes/httpHookServer';
import { fmt, tempDir, timeSideBySide, type Timing } from './benchHarness';

const DIST = join(__dirname, '..', '..', 'dist');

/** One way to open a connection: the setting, the era memory it starts from, and the era it must end on. */
interface Opening {
  label: string;
  protocol: ProtocolSetting;
  store(): EraStore;
  expect: ProtocolEra;
}

interface ServerCase {
  title: string;
  /** Its `_Stop` does not object (the todo list starts empty; the HTTP server's objection is ''). */
  config: McpServerConfig;
}

/** The hub is up on the era it was meant to be, with the hook listed; anything else is a real failure. */
function checkUp(hub: McpHub, opening: Opening): void {
  const status = hub.status()[0];
  if (status?.state !== 'ready') throw new Error(`${opening.label}: server "${status?.name}" is ${status?.state}: ${status?.error ?? 'no error given'}`);
  if (status.era !== opening.expect) throw new Error(`${opening.label}: server "${status.name}" connected on the ${status.era} era, expected ${opening.expect}`);
  if (!status.hooks.includes('_Stop')) throw new Error(`${opening.label}: server "${status.name}" lists no _Stop hook (hooks: ${status.hooks.join(', ') || 'none'})`);
}

/** One cold start, timed from the hub's creation (the spawn, for stdio) to the first tools/list answer. */
async function firstListing(config: McpServerConfig, opening: Opening): Promise<void> {
  const hub = new McpHub([config], { protocol: opening.protocol, eraStore: opening.store() });
  try {
    await hub.listTools();
    checkUp(hub, opening);
  } finally {
    await hub.close();
  }
}

/** What `auto` learns about the server on a first start: the memory every later start opens from. */
async function learnedEra(config: McpServerConfig): Promise<RememberedEra> {
  const store = memoryEraStore();
  await firstListing(config, { label: 'auto (learning)', protocol: 'auto', store: () => store, expect: 'modern' });
  const learned = store.get(eraKey(config));
  if (learned === undefined) throw new Error(`auto learned no era for server "${config.name}"`);
  return learned;
}

/** The openings every start can take, with nothing remembered. */
function freshOpenings(): Opening[] {
  return [
    { label: '2026-07-28', protocol: '2026-07-28', store: () => memoryEraStore(), expect: 'modern' },
    { label: 'legacy', protocol: 'legacy', store: () => memoryEraStore(), expect: 'legacy' },
    { label: 'auto, probe', protocol: 'auto', store: () => memoryEraStore(), expect: 'modern' },
  ];
}

async function connectionCosts(server: ServerCase, iterations: number): Promise<Record<string, Timing>> {
  const seed = { [eraKey(server.config)]: await learnedEra(server.config) };
  const remembered: Opening = { label: 'auto, remembered', protocol: 'auto', store: () => memoryEraStore(seed), expect: 'modern' };
  const all = [...freshOpenings(), remembered];
  return timeSideBySide(Object.fromEntries(all.map((o) => [o.label, () => firstListing(server.config, o)])), iterations, 1);
}

/** The median `_Stop` call on a warm hub of each era (the auto hub opened by asking, as a first start does). */
async function hookCallCosts(server: ServerCase, iterations: number): Promise<Record<string, Timing>> {
  const hubs = freshOpenings().map((o) => ({ opening: o, hub: new McpHub([server.config], { protocol: o.protocol, eraStore: o.store() }) }));
  try {
    const context = { sessionId: 'bench', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false };
    const variants: Record<string, () => Promise<void>> = {};
    for (const { opening, hub } of hubs) {
      await hub.listTools();
      checkUp(hub, opening);
      const caller = new HookCaller({ tools: hub, clock: new NodeClock(), emit: () => undefined, timeoutMs: () => 2500 });
      variants[opening.label] = async () => {
        const outcome = await caller.call(server.config.name, '_Stop', context);
        if (outcome.result !== 'no_objection') throw new Error(`${opening.label}: _Stop answered ${outcome.result}: ${outcome.text}`);
      };
    }
    return await timeSideBySide(variants, iterations);
  } finally {
    await Promise.all(hubs.map(({ hub }) => hub.close()));
  }
}

const ms = (timings: Record<string, Timing>, label: string): number => timings[label]?.medianMs ?? NaN;
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
const row = (timings: Record<string, Timing>): string =>
  Object.keys(timings)
    .map((label) => `${label} ${fmt(ms(timings, label))}`)
    .join('  ');

async function benchServer(server: ServerCase, starts: number, calls: number): Promise<string[]> {
  const cold = await connectionCosts(server, starts);
  const warm = await hookCallCosts(server, calls);
  const modern = ms(cold, '2026-07-28');
  return [
    `  ${server.title}`,
    `    start to first tools/list: ${row(cold)}`,
    `      legacy / 2026-07-28 ${ratio(ms(cold, 'legacy'), modern)}; probe / remembered ${ratio(ms(cold, 'auto, probe'), ms(cold, 'auto, remembered'))} ` +
      `(the era question, paid on a first start only); remembered / 2026-07-28 ${ratio(ms(cold, 'auto, remembered'), modern)}`,
    `    per _Stop call: ${row(warm)}`,
    `      legacy / 2026-07-28 ${ratio(ms(warm, 'legacy'), ms(warm, '2026-07-28'))}; ` +
      `auto after its probe / 2026-07-28 ${ratio(ms(warm, 'auto, probe'), ms(warm, '2026-07-28'))} (target ~1x: the probe adds nothing to a round)`,
  ];
}

export async function runEraBench(starts = 10, calls = 40): Promise<string[]> {
  const todoEntry = join(DIST, 'servers', 'todo.js');
  if (!existsSync(todoEntry)) throw new Error(`the bundled todo server is not built (${todoEntry}): run npm run build first`);
  const tmp = tempDir('sprout-era-bench-');
  const http = await startHttpHookServer('', 'stateless');
  try {
    const todo = bundledServerConfig('todo', { distDir: DIST, workspaceFolder: tmp.dir, stateDir: tmp.dir });
    const lines = [
      `Connection cost per MCP protocol era (medians of ${starts} cold starts and ${calls} hook calls; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}):`,
    ];
    lines.push(...(await benchServer({ title: 'todo (bundled, stdio: a new process per start)', config: todo}, starts, calls)));
    const httpConfig: McpServerConfig = { name: 'http', transport: { type: 'http', url: http.url, headers: {} } };
    lines.push(...(await benchServer({ title: 'dual-era test server (Streamable HTTP, in this process)', config: httpConfig}, starts * 2, calls)));
    return lines;
  } finally {
    await http.close();
    tmp.remove();
  }
}
