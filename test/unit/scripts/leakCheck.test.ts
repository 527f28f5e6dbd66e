/**
 * The end-of-file leak check (test/leaks/fileEndCheck.ts), run the way every suite runs it: node:test
 * with test/testTimeouts.ts preloaded, on two files in test/fixtures/leaks.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';

import { waitUntilGone } from '../../../src/platform/processTree';
import { scaledMs } from '../../loadScale';

async function runFile(file: string): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env };
  delete env.SPROUT_LEAK_CHECK;
  delete env.NODE_TEST_CONTEXT; // set in a test process: a nested node --test would not run the file
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/testTimeouts.ts', '--test', '--test-reporter=spec', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output };
}

const pidAfter = (output: string, label: string): number => {
  const pid = Number(new RegExp(`${label} pid (\\d+)`).exec(output)?.[1]);
  assert.ok(Number.isInteger(pid), `no "${label} pid" in:\n${output}`);
  return pid;
};

describe('the end-of-file leak check', () => {
  it('fails a file that leaves a server, a child and an orphan running, names them, and kills the processes', async () => {
    const { code, output } = await runFile('test/fixtures/leaks/leaky.fixture.ts');
    assert.equal(code, 1, output);
    assert.match(output, /the file hook ran/);
    assert.match(output, /leaky\.fixture\.ts left \d+ thing\(s\) running after its last test and hooks/);
    assert.match(output, /Server listening on 127\.0\.0\.1:\d+/);
    const child = pidAfter(output, 'child');
    const orphan = pidAfter(output, 'orphan');
    assert.match(output, new RegExp(`process ${child} \\(a child of this test file\\): sleep 300`));
    assert.match(output, new RegExp(`process ${orphan} \\(parent \\d+\\): sleep 301`));
    assert.match(output, new RegExp(`child process ${child} not exited`));
    assert.equal(await waitUntilGone(undefined, [{ pid: child, start: 0 }, { pid: orphan, start: 0 }], scaledMs(10_000)), true, 'the reported processes were killed');
  });

  it('passes a file whose own hooks close everything, the last of them registered after its tests', async () => {
    const { code, output } = await runFile('test/fixtures/leaks/tidy.fixture.ts');
    assert.equal(code, 0, output);
    assert.match(output, /pass 2/);
  });
});
