/**
 * McpHub reports each server's status as it changes, with the typed ServerState, so views follow a
 * server without polling: a start (starting, then ready with its hooks listed), a kill, the lazy
 * restart, a start that fails, and the cap after which a server stays failed.
 */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { McpHub, type ServerStatus } from '../../../src/mcp/mcpHub';
import type { McpServerConfig } from '../../../src/mcp/config';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { makeTempDir, signal, waitFor } from './mcpHarness';

const tmp = makeTempDir();
let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
});
after(() => tmp.remove());

function reportingHub(servers: McpServerConfig[]): { hub: McpHub; reports: ServerStatus[] } {
  const hub = new McpHub(servers, { restart: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 1 } });
  hubs.push(hub);
  const reports: ServerStatus[] = [];
  hub.onStatus((status) => reports.push(status));
  return { hub, reports };
}

/** The states reported for `server`, with repeats of the same state folded. */
function states(reports: readonly ServerStatus[], server: string): string[] {
  const seen: string[] = [];
  for (const r of reports) if (r.name === server && seen.at(-1) !== r.state) seen.push(r.state);
  return seen;
}

describe('McpHub status reports', () => {
  it('reports start, listing, kill and restart of a server as they happen', async () => {
    const config = hookServerMcpConfig('hooky', hookServerConfig({ hooks: { _Stop: { kind: 'empty' } }, stateFile: tmp.file('state.json') }));
    const { hub, reports } = reportingHub([config]);
    await hub.listTools(signal());
    await waitFor(() => reports.some((r) => r.state === 'ready' && r.hooks.includes('_Stop')), 'a ready report with the hooks listed');
    assert.deepEqual(states(reports, 'hooky'), ['starting', 'ready']);
    await hub.killServer('hooky', 'test kill');
    await waitFor(() => reports.at(-1)?.state === 'killed', 'the kill report');
    assert.match(reports.at(-1)?.error ?? '', /test kill/);
    assert.deepEqual(reports.at(-1)?.hooks, ['_Stop'], 'what it offered stays known while it is down');
    assert.equal((await hub.callTool('hooky', 'echo', { text: 'back' }, { signal: signal() })).text, 'back');
    await waitFor(() => reports.at(-1)?.state === 'ready', 'the ready report after the restart');
    assert.deepEqual(states(reports, 'hooky'), ['starting', 'ready', 'killed', 'restarting', 'ready']);
    assert.equal(reports.at(-1)?.restarts, 1);
  });

  it('reports a start that fails, then the server staying failed once its restarts are spent', async () => {
    const broken: McpServerConfig = { name: 'broken', transport: { type: 'stdio', command: '/nonexistent/sprout-missing-server', args: [], env: {} } };
    const { hub, reports } = reportingHub([broken]);
    await hub.listTools(signal());
    await waitFor(() => reports.at(-1)?.state === 'failed', 'the failed report');
    assert.match(reports.at(-1)?.error ?? '', /failed to start/);
    await assert.rejects(hub.callTool('broken', 'x', {}, { signal: signal() }));
    await assert.rejects(hub.callTool('broken', 'x', {}, { signal: signal() }), /keeps stopping/);
    await waitFor(() => /keeps stopping/.test(reports.at(-1)?.error ?? ''), 'the report that it stays stopped');
    assert.equal(reports.at(-1)?.state, 'failed');
    assert.deepEqual(states(reports, 'broken').slice(0, 2), ['starting', 'failed']);
  });
});
