/**
 * Descendants that leave the process group: a server's grandchild that called `setsid` is in no group
 * we signal, and once its parent exits it is reparented away from the server's tree. A kill (and a
 * close) must still take it: through the descendant tree while it is attached, through the
 * environment tag once orphaned. Each case failed before processTree.ts: the grandchild survived.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { isAlive, killPids, makeTempDir, readPid, signal, waitFor } from './mcpHarness';

const tmp = makeTempDir('sprout-desc-');
const strays = new Set<number | undefined>();
let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
  killPids(strays);
});
after(() => tmp.remove());

async function escapee(name: string, options: { orphan: boolean; clearEnv: boolean }): Promise<{ hub: McpHub; pid: number }> {
  const pidFile = tmp.file(`${name}.pid`);
  const config = hookServerConfig({ ignoreSigterm: true, extraTools: [{ name: 'escape', behaviour: { kind: 'spawnEscapee', pidFile, ...options } }] });
  const hub = new McpHub([hookServerMcpConfig(name, config)], { closeGraceMs: 300 });
  hubs.push(hub);
  await hub.callTool(name, 'escape', {}, { signal: signal() });
  const pid = await waitFor(() => readPid(pidFile), 'the escaped grandchild to start');
  strays.add(pid);
  assert.ok(isAlive(pid));
  const pgid = Number(/\) \S+ \d+ (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]);
  assert.equal(pgid, pid, 'the grandchild leads its own group (setsid), so a group kill cannot reach it');
  return { hub, pid };
}

describe('McpHub kills descendants that left the process group', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  it('killServer takes a setsid grandchild that was orphaned at once (found by its environment tag)', async () => {
    const { hub, pid } = await escapee('orphaner', { orphan: true, clearEnv: false });
    await hub.killServer('orphaner', 'test');
    await waitFor(() => !isAlive(pid), 'the orphaned grandchild to be gone', 5000);
  });

  it('killServer takes a setsid child with an empty environment (found in the tree while attached)', async () => {
    const { hub, pid } = await escapee('cleaner', { orphan: false, clearEnv: true });
    await hub.killServer('cleaner', 'test');
    await waitFor(() => !isAlive(pid), 'the env-less grandchild to be gone', 5000);
  });

  it('close() (what the CLI and the extension do on exit) takes them too', async () => {
    const { hub, pid } = await escapee('closer', { orphan: true, clearEnv: false });
    await hub.close();
    await waitFor(() => !isAlive(pid), 'the grandchild to be gone after close', 5000);
  });
});
