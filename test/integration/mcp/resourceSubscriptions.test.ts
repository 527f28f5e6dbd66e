/**
 * Attached resources' subscriptions across a server's restart and the end of a chat, against real
 * server processes: a new connection knows none of the old one's subscriptions (MCP spec, resources:
 * https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions), so the hub
 * subscribes every held resource again after each (re)connect, and `resources/unsubscribe` goes out
 * when the last holder lets go (a chat's session ends). The servers: the reference server
 * (@modelcontextprotocol/server-everything, whose toggle-subscriber-updates tool sends
 * `notifications/resources/updated` only for the URIs that connection subscribed to) and
 * test/fakes/resourceUpdateServer.ts, which logs each subscribe and unsubscribe (legacy era) and speaks
 * the 2026-07-28 era's listen streams too.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { McpServerConfig } from '../../../src/mcp/config';
import { openRig, waitUntil, type Rig } from '../loop/loopHarness';
import { isAlive, killPids, makeTempDir, signal, waitFor } from './mcpHarness';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FEATURES = 'demo://resource/static/document/features.md';
const MEMO = resolve(__dirname, '..', '..', 'fakes', 'resourceUpdateServer.ts');
const NOTE = 'memo://note';

const tmp = makeTempDir('sprout-resource-subscriptions-');
const strays = new Set<number | undefined>();
let hubs: McpHub[] = [];
let rig: Rig | undefined;
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
  await rig?.close();
  rig = undefined;
  killPids(strays);
});
after(() => tmp.remove());

function memo(log: string): McpServerConfig {
  return { name: 'memo', transport: { type: 'stdio', command: process.execPath, args: ['--import', pathToFileURL(require.resolve('tsx')).href, MEMO], env: { REQUEST_LOG: log } } };
}

type Logged = { method: string; uri: string; pid: number };
const logged = (log: string): Logged[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Logged) : []);

function newHub(servers: McpServerConfig[], protocol: 'legacy' | '2026-07-28' = 'legacy'): McpHub {
  const hub = new McpHub(servers, { restart: { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 5 }, closeGraceMs: 300, protocol });
  hubs.push(hub);
  return hub;
}

/** Kills the server's process from outside (a crash) and waits until the hub has it up again, on a new process. */
async function crashAndRestart(hub: McpHub, server: string): Promise<number> {
  const before = hub.status().find((s) => s.name === server)?.pid;
  assert.ok(before !== undefined && isAlive(before), 'the server runs');
  strays.add(before);
  process.kill(before, 'SIGKILL');
  await waitFor(() => hub.status().find((s) => s.name === server)?.state === 'restarting', 'the crash to be seen');
  // The next listing starts it again (as every round's listing does).
  await hub.listTools(signal());
  const after = await waitFor(() => {
    const status = hub.status().find((s) => s.name === server);
    return status?.state === 'ready' && status.pid !== undefined && status.pid !== before ? status.pid : undefined;
  }, 'the server to be up again on a new process');
  strays.add(after);
  return after;
}

describe('resource subscriptions across restarts and the end of a chat', () => {
  it('server-everything killed and restarted: the attached resource is subscribed again, and its update refreshes it in the next round', async () => {
    rig = await openRig({
      servers: [],
      extraServers: [{ name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} } }],
      responses: [fakeReply.text('noted'), fakeReply.text('read it again')],
    });
    const { runtime } = rig;
    const attached = { resources: [{ server: 'everything', uri: FEATURES }] };
    assert.equal((await runtime.session.run('keep the features in mind', undefined, attached)).reason, 'end_turn');
    assert.deepEqual(rig.of('resource_watch').map((e) => e.state), ['subscribed']);

    await crashAndRestart(runtime.hub, 'everything');
    const updates: string[] = [];
    runtime.hub.resources.onUpdated?.((server, uri) => updates.push(`${server} ${uri}`));
    // The new process sends updates only for what this connection subscribed to: without the renewal, none comes.
    await runtime.hub.callTool('everything', 'toggle-subscriber-updates', {}, { signal: signal() });
    await waitUntil(() => updates.includes(`everything ${FEATURES}`), 'an update of the attached resource from the restarted server');

    assert.equal((await runtime.session.run('what changed?')).reason, 'end_turn');
    const messages = rig.messages(1);
    const read = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id.startsWith('sprout_resource_'));
    assert.deepEqual(JSON.parse(read?.function.arguments ?? '{}'), { server: 'everything', uri: FEATURES });
    assert.match(String(messages.find((m) => m.tool_call_id === read?.id)?.content), /^The attached resource changed; it now reads:\nResource demo:\/\/resource\/static\/document\/features\.md \(text\/markdown\) of server "everything":\n# Everything Server - Features/);
    assert.ok(rig.of('resource_watch').some((e) => e.state === 'updated' && e.uri === FEATURES));
  });

  it('held by two: renewed once on the new process; unsubscribed when the last lets go, on the connection that is up', async () => {
    const log = tmp.file('held.jsonl');
    const hub = newHub([memo(log)]);
    const resources = hub.resources;
    assert.equal(await resources.subscribe?.('memo', NOTE, signal()), 'subscribed');
    assert.equal(await resources.subscribe?.('memo', NOTE, signal()), 'subscribed');
    const first = hub.status()[0]?.pid;
    assert.deepEqual(logged(log).map((e) => [e.method, e.pid]), [['resources/subscribe', first]]);

    const second = await crashAndRestart(hub, 'memo');
    await waitFor(() => logged(log).some((e) => e.pid === second), 'the renewal on the new process');
    await resources.unsubscribe?.('memo', NOTE);
    // A request after it, answered in order: the first letting go sent nothing.
    await resources.read('memo', NOTE, signal());
    assert.deepEqual(logged(log).map((e) => [e.method, e.uri, e.pid]), [['resources/subscribe', NOTE, first], ['resources/subscribe', NOTE, second]]);

    await resources.unsubscribe?.('memo', NOTE);
    assert.deepEqual(logged(log).at(-1), { method: 'resources/unsubscribe', uri: NOTE, pid: second });
    // Let go of more than it held: nothing more is sent.
    await resources.unsubscribe?.('memo', NOTE);
    await resources.read('memo', NOTE, signal());
    assert.equal(logged(log).length, 3);
  });

  it('on the 2026-07-28 era: a new listen stream after the restart carries the update', async () => {
    const hub = newHub([memo(tmp.file('modern.jsonl'))], '2026-07-28');
    assert.equal(await hub.resources.subscribe?.('memo', NOTE, signal()), 'subscribed');
    assert.equal(hub.status()[0]?.era, 'modern');
    await crashAndRestart(hub, 'memo');
    const updates: string[] = [];
    hub.resources.onUpdated?.((server, uri) => updates.push(`${server} ${uri}`));
    // Made on the restarted process, so its note changes and it says so on the renewed stream.
    await waitFor(async () => {
      await hub.callTool('memo', 'edit_note', { text: `version ${updates.length + 2}` }, { signal: signal() });
      return updates.includes(`memo ${NOTE}`);
    }, 'an update on the renewed stream');
  });

  it("a chat's session that ends lets go of its attached resource: resources/unsubscribe", async () => {
    const log = tmp.file('session.jsonl');
    rig = await openRig({ servers: [], extraServers: [memo(log)], responses: [fakeReply.text('noted')], mcp: { protocol: 'legacy' } });
    const { runtime } = rig;
    assert.equal((await runtime.session.run('keep the note in mind', undefined, { resources: [{ server: 'memo', uri: NOTE }] })).reason, 'end_turn');
    assert.deepEqual(logged(log).map((e) => e.method), ['resources/subscribe']);
    runtime.session.dispose();
    await waitFor(() => logged(log).some((e) => e.method === 'resources/unsubscribe' && e.uri === NOTE), 'resources/unsubscribe');
  });
});
