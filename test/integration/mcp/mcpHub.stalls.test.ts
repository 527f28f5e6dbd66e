/**
 * No server can stall a listing past the grace it was given: a server silent at initialize, one that
 * answers initialize and then never lists, and ones whose spawn throws at once (an environment past
 * the kernel's limit, a NUL byte in an argument). The good server's tools come back in bounded time,
 * the slow ones are named while waited for, join later with tools_changed, and close() never hangs.
 * Bounds are generous (a noisy 2-core box); they only prove the 30 s connect timeout is not paid.
 */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import type { ToolHostEvent } from '../../../src/agent/ports';
import type { McpServerConfig } from '../../../src/mcp/config';
import { McpHub } from '../../../src/mcp/mcpHub';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { scaleAtLoadNow } from '../../loadScale';
import { makeTempDir, waitFor } from './mcpHarness';

const tmp = makeTempDir();
let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
});
after(() => tmp.remove());

/**
 * The windows below (the grace, the late server's delay, the bounds) are written for an idle machine
 * and stretched by how loaded it is when the file starts: a server must be able to start within the
 * grace, and the late one must still be later than every bound.
 */
const ms = scaleAtLoadNow();
/** Far beyond every bound below: waiting for it anywhere would show. */
const SILENT_MS = Math.max(60_000, ms(60_000));

function newHub(servers: McpServerConfig[]): { hub: McpHub; events: ToolHostEvent[] } {
  // The connect timeout (30 s) stretched with the rest, so the late server is late, not failed.
  const hub = new McpHub(servers, { closeGraceMs: 300, connectTimeoutMs: Math.max(30_000, ms(30_000)) });
  hubs.push(hub);
  const events: ToolHostEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, events };
}

const good = () => hookServerMcpConfig('good', hookServerConfig({ logFile: tmp.file('good.log') }));

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe('McpHub: a server that is not ready never holds a listing past its grace', () => {
  it('silent at initialize: the listing returns after the grace, names it while waiting, and it joins later', async () => {
    const { hub, events } = newHub([good(), hookServerMcpConfig('late', hookServerConfig({ startDelayMs: ms(6000), hooks: { _Stop: { kind: 'empty' } } }))]);
    const waiting: string[][] = [];
    // 3 s: enough for a node + tsx server to start on a busy machine, half of the late one's delay.
    const first = await timed(hub.listTools(undefined, { waitMs: ms(3000), onWaiting: (servers) => waiting.push(servers) }));
    assert.deepEqual(first.value.map((t) => t.qualifiedName), ['good__echo']);
    assert.ok(first.ms < ms(5500), `the first listing took ${first.ms} ms; the late server answers only after ${ms(6000)} ms`);
    assert.equal(waiting.length, 1);
    assert.ok(waiting[0]?.includes('late'), `the notice names the late server: ${JSON.stringify(waiting)}`);
    // The next listing does not wait for it again.
    const second = await timed(hub.listTools(undefined, { waitMs: ms(5000) }));
    assert.ok(second.ms < ms(1500), `a late server is not waited for twice (took ${second.ms} ms)`);
    await waitFor(() => events.find((e) => e.type === 'tools_changed' && e.server === 'late'), 'the late server to join', 20_000);
    const joined = await hub.listTools(undefined, { waitMs: ms(3000) });
    assert.deepEqual(joined.map((t) => t.qualifiedName), ['good__echo', 'late__echo', 'late___Stop']);
  });

  it('answers initialize, then never tools/list: bounded on every listing, and reported', async () => {
    const { hub } = newHub([good(), hookServerMcpConfig('mute', hookServerConfig({ listToolsDelayMs: SILENT_MS }))]);
    for (let round = 0; round < 3; round++) {
      const listing = await timed(hub.listTools(undefined, { waitMs: ms(3000) }));
      assert.deepEqual(listing.value.map((t) => t.qualifiedName), ['good__echo']);
      assert.ok(listing.ms < ms(6000), `listing ${round} took ${listing.ms} ms`);
    }
    assert.equal(hub.status().find((s) => s.name === 'mute')?.state, 'ready');
  });

  for (const [why, config] of [
    ['an environment past the kernel limit (E2BIG)', { env: { HUGE: 'x'.repeat(256 * 1024) } }],
    ['a NUL byte in an argument', { args: ['a\u0000b'] }],
  ] as const) {
    it(`a spawn that throws at once (${why}) is a per-server error; the others work and close() returns`, { timeout: ms(30_000) }, async () => {
      const bad: McpServerConfig = {
        name: 'broken',
        transport: { type: 'stdio', command: process.execPath, args: 'args' in config ? [...config.args] : [], env: 'env' in config ? { ...config.env } : {} },
      };
      const { hub, events } = newHub([bad, good()]);
      const listing = await timed(hub.listTools(undefined, { waitMs: ms(5000) }));
      assert.deepEqual(listing.value.map((t) => t.qualifiedName), ['good__echo']);
      const error = events.find((e) => e.type === 'server_error' && e.server === 'broken');
      assert.ok(error?.type === 'server_error' && error.message.includes('MCP server "broken"'), JSON.stringify(error));
      assert.match(error.message, 'args' in config ? /NUL byte/ : /E2BIG/);
      assert.equal(hub.status().find((s) => s.name === 'broken')?.state, 'failed');
      const closing = await timed(hub.close());
      assert.ok(closing.ms < ms(5000), `close() took ${closing.ms} ms`);
    });
  }
});
