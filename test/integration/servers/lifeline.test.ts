// Every bundled server exits when its client is gone, even mid-call: the built bins, started by a
// parent process that is then killed with SIGKILL (as a killed CLI is), while a command runs (the
// command goes too) or while a deep-path write is in flight (unbounded, that write held the server at
// full CPU for minutes). And when the main thread is stuck in one long step, the lifeline's watcher
// alone ends the process and the command groups it started.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, REPO_ROOT } from '../cli/cliHarness';
import { isAlive, killPids, readPid, waitFor } from '../mcp/mcpHarness';

/** Generous: the machine may be loaded; the lifeline itself needs a second or a few. */
const GONE_WITHIN_MS = 90_000;

/**
 * A parent that starts `command args` with piped stdio, prints its pid, sends it `messages` (JSON-RPC
 * lines), prints "answered" once the server first writes, and then just lives, as an MCP client would
 * until it is killed.
 */
function parentOf(command: string, args: string[], messages: unknown[]): { process: ChildProcess; output: () => string } {
  const script = `
    const child = require('node:child_process').spawn(${JSON.stringify(command)}, ${JSON.stringify(args)}, { stdio: ['pipe', 'pipe', 'ignore'] });
    console.log(child.pid);
    for (const m of ${JSON.stringify(messages)}) child.stdin.write(JSON.stringify(m) + '\\n');
    child.stdout.once('data', () => console.log('answered'));
    child.stdout.resume();
    setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  parent.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  return { process: parent, output: () => out };
}

async function childPid(parent: { output: () => string }): Promise<number> {
  return waitFor(() => (/^(\d+)\n/.exec(parent.output()) ? Number(/^(\d+)\n/.exec(parent.output())?.[1]) : undefined), 'the server pid', 60_000);
}

const hello = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];
const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
const bin = (name: string): string => join(REPO_ROOT, 'dist', 'servers', `${name}.js`);

describe('bundled servers exit when their parent dies', () => {
  let base: string;
  const left: (number | undefined)[] = [];
  before(async () => {
    await ensureBuilt();
    base = mkdtempSync(join(tmpdir(), 'sprout-lifeline-'));
  });
  after(() => {
    killPids(left);
    rmSync(base, { recursive: true, force: true });
  });

  it('the workspace server, mid-command: it and its command are gone', async () => {
    const root = join(base, 'mid-command');
    mkdirSync(root);
    const pidFile = join(root, 'sleep.pid');
    const parent = parentOf(process.execPath, [bin('workspace'), '--root', root, '--state-dir', join(base, 'state-1')], [
      ...hello,
      call('run_command', { command: `echo $$ > ${pidFile}; exec sleep 600` }),
    ]);
    const server = await childPid(parent);
    const sleeper = await waitFor(() => readPid(pidFile), 'the command to start', 60_000);
    left.push(server, sleeper);
    parent.process.kill('SIGKILL');
    await waitFor(() => !isAlive(server), 'the server to exit', GONE_WITHIN_MS);
    await waitFor(() => !isAlive(sleeper), 'its command to be killed', GONE_WITHIN_MS);
  });

  it('the workspace server, with a 2,000-part write in flight', async () => {
    const root = join(base, 'deep-write');
    mkdirSync(root);
    const path = `${Array.from({ length: 2000 }, () => 'a').join('/')}/f.txt`;
    const parent = parentOf(process.execPath, [bin('workspace'), '--root', root, '--state-dir', join(base, 'state-2')], [...hello, call('write_file', { path, content: 'x' })]);
    const server = await childPid(parent);
    left.push(server);
    parent.process.kill('SIGKILL');
    await waitFor(() => !isAlive(server), 'the server to exit', GONE_WITHIN_MS);
    assert.ok(!existsSync(join(root, 'a')), 'nothing of the deep path was created');
  });

  for (const name of ['todo', 'tests']) {
    it(`the ${name} server`, async () => {
      const root = join(base, `idle-${name}`);
      mkdirSync(root);
      const parent = parentOf(process.execPath, [bin(name), '--root', root, '--state-dir', join(base, `state-${name}`)], hello);
      const server = await childPid(parent);
      left.push(server);
      await waitFor(() => parent.output().includes('answered'), 'the server to answer initialize', 60_000);
      parent.process.kill('SIGKILL');
      await waitFor(() => !isAlive(server), 'the server to exit', GONE_WITHIN_MS);
    });
  }

  it('a server whose main thread is stuck: the watcher ends it and its command group', async () => {
    const dir = join(base, 'stuck');
    mkdirSync(dir);
    const parent = parentOf(process.execPath, ['--import', 'tsx', join(__dirname, 'stuckServer.ts'), dir], []);
    const stuck = await childPid(parent);
    await waitFor(() => existsSync(join(dir, 'ready')), 'the stuck server to be ready', 60_000);
    const command = readPid(join(dir, 'command.pid'));
    left.push(stuck, command);
    assert.ok(command !== undefined && isAlive(command), 'its command runs');
    parent.process.kill('SIGKILL');
    await waitFor(() => !isAlive(stuck), 'the stuck server to be gone', GONE_WITHIN_MS);
    await waitFor(() => !isAlive(command), 'its command group to be gone', GONE_WITHIN_MS);
  });
});
