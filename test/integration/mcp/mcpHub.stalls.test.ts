/**
 * No server can stall a listing past the grace it was given: a server silent at initialize, one that
 * answers initialize and then never lists, and ones whose spawn throws at once (an environment past
 * the kernel's limit, a NUL byte in an argument). The good server's tools come back in bounded time,
 * the slow ones are named while waited for, join later with tools_changed, and close() never hangs.
 * Nothing is timed: what a listing must not wait for (the late server's start, the mute server's
 * list, the connect timeout) takes hours, so a listing that waited for it would fail by the test's
 * hang guard.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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
 * The grace a listing gives servers that are still starting, written for an idle machine and stretched
 * by how loaded it is when the file starts: the good server must be able to start within it.
 */
const ms = scaleAtLoadNow();
/** Six hours: far beyond any test's hang guard, so waiting for it anywhere fails the test. */
const HOURS = 6 * 3_600_000;

function newHub(servers: McpServerConfig[]): { hub: McpHub; events: ToolHostEvent[] } {
  // A connect timeout of hours: a listing that waited it out would never return.
  const hub = new McpHub(servers, { closeGraceMs: 300, connectTimeoutMs: HOURS });
  hubs.push(hub);
  const events: ToolHostEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, events };
}

const good = () => hookServerMcpConfig('good', hookServerConfig({ logFile: tmp.file('good.log') }));

describe('McpHub: a server that is not ready never holds a listing past its grace', () => {
  it('silent at initialize: the listing returns after the grace, names it while waiting, and it joins later', async () => {
    // The late server starts only when the test lets it: a listing that waited for it would never
    // return, and the test's hang guard would fail it.
    const gate = tmp.file('late.go');
    const { hub, events } = newHub([good(), hookServerMcpConfig('late', hookServerConfig({ startWhenExists: gate, hooks: { _Stop: { kind: 'empty' } } }))]);
    const waiting: string[][] = [];
    // 3 s: enough for a node + tsx server to start on a busy machine.
    const first = await hub.listTools(undefined, { waitMs: ms(3000), onWaiting: (servers) => waiting.push(servers) });
    assert.deepEqual(first.map((t) => t.qualifiedName), ['good__echo']);
    assert.equal(waiting.length, 1);
    assert.ok(waiting[0]?.includes('late'), `the notice names the late server: ${JSON.stringify(waiting)}`);
    // The next listing does not wait for it again, even when it would wait for hours.
    const second = await hub.listTools(undefined, { waitMs: HOURS });
    assert.deepEqual(second.map((t) => t.qualifiedName), ['good__echo'], 'a late server is not waited for twice');
    writeFileSync(gate, '');
    await waitFor(() => events.find((e) => e.type === 'tools_changed' && e.server === 'late'), 'the late server to join', 20_000);
    const joined = await hub.listTools(undefined, { waitMs: ms(3000) });
    assert.deepEqual(joined.map((t) => t.qualifiedName), ['good__echo', 'late__echo', 'late___Stop']);
  });

  it('answers initialize, then never tools/list: bounded on every listing, and reported', async () => {
    const { hub } = newHub([good(), hookServerMcpConfig('mute', hookServerConfig({ listToolsDelayMs: HOURS }))]);
    for (let round = 0; round < 3; round++) {
      // The mute server answers in hours: a listing that waited for it would never return.
      const listing = await hub.listTools(undefined, { waitMs: ms(3000) });
      assert.deepEqual(listing.map((t) => t.qualifiedName), ['good__echo']);
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
      const listing = await hub.listTools(undefined, { waitMs: ms(5000) });
      assert.deepEqual(listing.map((t) => t.qualifiedName), ['good__echo']);
      const error = events.find((e) => e.type === 'server_error' && e.server === 'broken');
      assert.ok(error?.type === 'server_error' && error.message.includes('MCP server "broken"'), JSON.stringify(error));
      assert.match(error.message, 'args' in config ? /NUL byte/ : /E2BIG/);
      assert.equal(hub.status().find((s) => s.name === 'broken')?.state, 'failed');
      await hub.close(); // returns at all: the test's own timeout is the hang guard
    });
  }
});
