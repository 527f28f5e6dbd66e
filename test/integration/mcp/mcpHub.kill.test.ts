/**
 * Agent sovereignty over hostile stdio servers: abort sends notifications/cancelled, killServer takes
 * the whole process group (grandchild and SIGTERM-ignorers included), crashed or killed servers restart
 * lazily with backoff and an attempt cap, and close() leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import type { ToolHostEvent } from '../../../src/agent/ports';
import { McpHub, type McpHubOptions } from '../../../src/mcp/mcpHub';
import type { McpServerConfig } from '../../../src/mcp/config';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { isAlive, killPids, makeTempDir, readPid, signal, waitFor } from './mcpHarness';

const tmp = makeTempDir();
const strays = new Set<number | undefined>();
let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
  killPids(strays);
});
after(() => tmp.remove());

function newHub(servers: McpServerConfig[], options: McpHubOptions = {}): { hub: McpHub; events: ToolHostEvent[] } {
  const hub = new McpHub(servers, { restart: { initialDelayMs: 200, maxDelayMs: 800, maxAttempts: 2 }, ...options });
  hubs.push(hub);
  const events: ToolHostEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, events };
}

const started = (log: string) => readHookServerLog(log).filter((e) => e.type === 'started');

describe('McpHub kills and restarts', () => {
  it('abort rejects the call and sends notifications/cancelled to the server', async () => {
    const log = tmp.file('abort.jsonl');
    const { hub } = newHub([hookServerMcpConfig('slow', hookServerConfig({ logFile: log, hooks: { _Stop: { kind: 'hang' } } }))]);
    const controller = new AbortController();
    const call = hub.callTool('slow', '_Stop', {}, { signal: controller.signal });
    await waitFor(() => readHookServerLog(log).some((e) => e.type === 'call'), 'the call to arrive');
    controller.abort();
    await assert.rejects(call, (error: Error) => error.name === 'AbortError');
    const cancelled = await waitFor(() => readHookServerLog(log).find((e) => e.type === 'cancelled'), 'notifications/cancelled');
    assert.equal(typeof cancelled.requestId, 'number');
    // The connection survives a cancelled call.
    assert.equal((await hub.callTool('slow', 'echo', { text: 'still here' }, { signal: signal() })).text, 'still here');
  });

  it('killServer SIGKILLs the whole group: a SIGTERM-ignoring server and its grandchild', async () => {
    const log = tmp.file('group.jsonl');
    const pidFile = tmp.file('grandchild.pid');
    const { hub, events } = newHub([
      hookServerMcpConfig(
        'stubborn',
        hookServerConfig({ logFile: log, ignoreSigterm: true, hooks: { _Stop: { kind: 'spawnGrandchild', pidFile } } }),
      ),
    ]);
    const call = hub.callTool('stubborn', '_Stop', {}, { signal: signal() });
    const grandchild = await waitFor(() => readPid(pidFile), 'the grandchild pid');
    const server = hub.status()[0]?.pid;
    strays.add(grandchild).add(server);
    assert.ok(server !== undefined && isAlive(server) && isAlive(grandchild));
    // Watched before the kill: the call rejects while killServer still waits for the group to be gone.
    const rejected = assert.rejects(call, /stubborn/);
    await hub.killServer('stubborn', 'second consecutive timeout');
    await rejected;
    await waitFor(() => !isAlive(grandchild) && !isAlive(server), 'server and grandchild to be gone', 5000);
    assert.equal(hub.status()[0]?.state, 'killed');
    assert.ok(!events.some((e) => e.type === 'server_error'), 'a deliberate kill is not reported as a crash');
  });

  it('restarts lazily after a kill, with backoff, keeping the state file', async () => {
    const log = tmp.file('restart.jsonl');
    const state = tmp.file('restart.state');
    const config = hookServerConfig({ logFile: log, stateFile: state, hooks: { _Stop: { kind: 'object', text: 'objection {n}', times: 2 } } });
    const { hub, events } = newHub([hookServerMcpConfig('todo', config)]);
    assert.equal((await hub.callTool('todo', '_Stop', {}, { signal: signal() })).text, 'objection 1');
    const firstPid = hub.status()[0]?.pid;
    await hub.killServer('todo', 'test');
    const killedAt = Date.now();
    assert.equal(started(log).length, 1, 'no eager restart');
    assert.equal((await hub.callTool('todo', '_Stop', {}, { signal: signal() })).text, 'objection 2');
    const restarted = started(log)[1];
    assert.ok(restarted && restarted.pid !== firstPid);
    assert.ok(restarted.at - killedAt >= 150, `restart waited for the backoff (${restarted.at - killedAt} ms)`);
    assert.equal((await hub.callTool('todo', '_Stop', {}, { signal: signal() })).text, '', 'objections counted across restarts');
    assert.deepEqual(events.filter((e) => e.type === 'server_restarted'), [{ type: 'server_restarted', server: 'todo', attempt: 1 }]);
    assert.equal(hub.status()[0]?.restarts, 1);
  });

  it('restarts after a crash, then gives up after the attempt cap until restartAll()', async () => {
    const log = tmp.file('crash.jsonl');
    const { hub, events } = newHub([hookServerMcpConfig('crashy', hookServerConfig({ logFile: log, hooks: { _Stop: { kind: 'crash', exitCode: 9 } } }))]);
    const crash = () => hub.callTool('crashy', '_Stop', {}, { signal: signal() });
    await assert.rejects(crash(), /crashy/);
    await waitFor(() => hub.status()[0]?.state === 'restarting', 'the crash to be noticed');
    const crashError = events.find((e) => e.type === 'server_error') as { message: string } | undefined;
    assert.match(crashError?.message ?? '', /"crashy" stopped unexpectedly \(exited with code 9/);
    await assert.rejects(crash(), /crashy/); // restart 1, crashes again
    await waitFor(() => hub.status()[0]?.state === 'restarting', 'the second crash');
    await assert.rejects(crash(), /crashy/); // restart 2, crashes again
    await waitFor(() => hub.status()[0]?.state === 'restarting', 'the third crash');
    await assert.rejects(crash(), /restarted 2 times and keeps stopping/);
    assert.equal(started(log).length, 3, 'no start beyond the cap');
    assert.equal(hub.status()[0]?.state, 'failed');
    assert.deepEqual(events.filter((e) => e.type === 'server_restarted').map((e) => (e as { attempt: number }).attempt), [1, 2]);
    await hub.restartAll();
    assert.equal((await hub.callTool('crashy', 'echo', { text: 'back' }, { signal: signal() })).text, 'back');
  });

  it('a server that dies mid-call (half a message written) rejects the call, not hangs it', async () => {
    const { hub } = newHub([hookServerMcpConfig('half', hookServerConfig({ hooks: { _Stop: { kind: 'exitMidCall' } } }))]);
    await assert.rejects(hub.callTool('half', '_Stop', {}, { signal: signal() }), /"half".*(closed|exited)/i);
  });

  it('close() kills a SIGTERM-ignoring server and the grandchild of another server', async () => {
    const pidFile = tmp.file('close-grandchild.pid');
    const { hub } = newHub(
      [
        hookServerMcpConfig('deaf', hookServerConfig({ ignoreSigterm: true })),
        hookServerMcpConfig('parent', hookServerConfig({ hooks: { _Stop: { kind: 'spawnGrandchild', pidFile, then: 'empty' } } })),
      ],
      { closeGraceMs: 300 },
    );
    await hub.callTool('parent', '_Stop', {}, { signal: signal() });
    const grandchild = await waitFor(() => readPid(pidFile), 'the grandchild pid');
    const pids = hub.status().map((s) => s.pid);
    strays.add(grandchild).add(pids[0]).add(pids[1]);
    await hub.close();
    for (const pid of [...pids, grandchild]) assert.equal(isAlive(pid as number), false, `pid ${pid} survived close()`);
  });

  it('when the server is SIGKILLed from outside, the hub kills the grandchild it left in its group', async () => {
    const pidFile = tmp.file('orphan.pid');
    const { hub } = newHub([hookServerMcpConfig('leaky', hookServerConfig({ hooks: { _Stop: { kind: 'spawnGrandchild', pidFile, then: 'empty' } } }))]);
    await hub.callTool('leaky', '_Stop', {}, { signal: signal() });
    const grandchild = await waitFor(() => readPid(pidFile), 'the grandchild pid');
    const server = hub.status()[0]?.pid as number;
    strays.add(grandchild).add(server);
    process.kill(server, 'SIGKILL');
    await waitFor(() => !isAlive(grandchild), 'the orphaned grandchild to be killed', 5000);
    assert.equal(isAlive(server), false);
  });
});
