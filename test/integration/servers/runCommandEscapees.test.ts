// run_command through the real workspace server, with commands whose children call `setsid` and so
// leave the command's process group: a timeout kills them with the group, and what a finished command
// left running in the background dies when the server shuts down. Both survived before processTree.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, killPids, readPid, waitFor } from '../mcp/mcpHarness';
import { startServer, type ServerProcess } from './serverProcess';

const pgidOf = (pid: number): number => Number(/\) \S+ \d+ (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]);

/** Starts `sleep` in a new session (setsid), detached from the command's output, and records its pid. */
const escapee = (pidFile: string): string => `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' > /dev/null 2>&1 < /dev/null &`;

describe('run_command and descendants that left its process group', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  let base: string;
  let server: ServerProcess;
  const strays: number[] = [];

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-escape-'));
    mkdirSync(join(base, 'root'));
    server = await startServer('workspace', ['--root', join(base, 'root'), '--state-dir', join(base, 'state')]);
  });

  after(async () => {
    await server?.close();
    killPids(strays);
    rmSync(base, { recursive: true, force: true });
  });

  it('a timeout kills a setsid child along with the group', async () => {
    const pidFile = join(base, 'timeout.pid');
    const result = await server.call('run_command', { command: `${escapee(pidFile)} sleep 60`, timeoutMs: 1500 });
    assert.match(result.text, /timed out/);
    const pid = readPid(pidFile);
    assert.ok(pid !== undefined, 'the escapee started');
    strays.push(pid);
    await waitFor(() => !isAlive(pid), 'the setsid child to be gone after the timeout', 5000);
  });

  it('server shutdown kills what a finished command left running in a new session', async () => {
    const pidFile = join(base, 'background.pid');
    const result = await server.call('run_command', { command: `${escapee(pidFile)} echo started` });
    assert.equal(result.isError, false, result.text);
    const pid = await waitFor(() => readPid(pidFile), 'the background escapee to start');
    strays.push(pid);
    assert.ok(isAlive(pid));
    assert.equal(pgidOf(pid), pid, 'it leads its own group');
    await server.close();
    await waitFor(() => !isAlive(pid), 'the background escapee to be gone after shutdown', 5000);
  });
});
