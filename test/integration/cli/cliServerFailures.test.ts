// Failed MCP servers make themselves seen in the CLI: a spawn that throws at once (E2BIG) is a clear
// per-server error and the run goes on (no hang, with or without a good server beside it); a failed
// server the run needed (allowlisted for hooks) ends with exit 2 and its error, a crash with its
// stderr tail; SIGTERM with a broken server in the mix still gives 130; and a signal that arrives
// before the main bundle has loaded is still an interrupted run (130), with nothing left behind.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { McpServerConfig } from '../../../src/mcp/config';
import { fakeReply, type FakeOpenAi, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { baseEnv, collect, runCli, spawnCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';
import { waitFor } from '../../waitFor';

const cli = cliFixture('sprout-cli-failures-');

const huge: McpServerConfig = { name: 'huge', transport: { type: 'stdio', command: process.execPath, args: ['-e', '0'], env: { BIG: 'x'.repeat(256 * 1024) } } };
const crasher: McpServerConfig = {
  name: 'crasher',
  transport: { type: 'stdio', command: process.execPath, args: ['-e', 'console.error("fatal: no token in MY_TOKEN"); process.exit(3)'], env: {} },
};
const good = (): McpServerConfig => hookServerMcpConfig('good', hookServerConfig({ hooks: { _Stop: { kind: 'empty' } } }));

const withFake = (responses: FakeResponse[]): Promise<FakeOpenAi> => cli.startFake({ responses });

describe('a server whose ${input:id} has no value in the CLI', () => {
  function inputsFile(): string {
    const tokenServer = hookServerMcpConfig('gh', hookServerConfig({ hooks: { _Stop: { kind: 'empty' } } }));
    const t = tokenServer.transport.type === 'stdio' ? tokenServer.transport : undefined;
    const other = good().transport;
    const path = join(cli.dir, 'inputs.json');
    writeFileSync(
      path,
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'gh-token', description: 'GitHub token', password: true }],
        servers: {
          gh: { command: t?.command, args: t?.args, env: { ...t?.env, GH_TOKEN: '${input:gh-token}' } },
          good: other.type === 'stdio' ? { command: other.command, args: other.args, env: other.env } : {},
        },
      }),
    );
    return path;
  }

  it('stays off, named with the variable to set; the other servers start and the run goes on', async () => {
    const f = await withFake([fakeReply.toolCalls([{ name: 'good__echo', arguments: { text: 'hi' } }]), fakeReply.text('done')]);
    const result = await runCli(['--builtin-servers', '', '--mcp-config', inputsFile(), 'go'], { env: baseEnv(f.url) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /server "gh" stays off: its env\.GH_TOKEN uses \$\{input:gh-token\}, which has no value; set SPROUT_AGENT_INPUT_GH_TOKEN\. The other servers start\./);
    assert.doesNotMatch(result.stderr, /Declare "gh-token"/, 'it is declared: only its value is missing');
    assert.match(result.stdout, /<- good__echo: hi/);
  });

  it('allowlisted for hooks: exit 2, saying why it is off and what to set', async () => {
    const f = await withFake([fakeReply.text('done')]);
    const result = await runCli(['--builtin-servers', '', '--mcp-config', inputsFile(), 'go'], { env: { ...baseEnv(f.url), MCP_HOOK_SERVERS: 'gh' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /MCP_HOOK_SERVERS names gh, which stays off: .*set SPROUT_AGENT_INPUT_GH_TOKEN/);
  });

  it('with the variable set, it starts', async () => {
    const f = await withFake([fakeReply.toolCalls([{ name: 'gh__echo', arguments: { text: 'token ok' } }]), fakeReply.text('done')]);
    const result = await runCli(['--builtin-servers', '', '--mcp-config', inputsFile(), 'go'], { env: { ...baseEnv(f.url), SPROUT_AGENT_INPUT_GH_TOKEN: 'ghp_x' } });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /stays off/);
    assert.match(result.stdout, /<- gh__echo: token ok/);
  });
});

describe('failed MCP servers in the CLI', () => {
  it('a spawn that throws (E2BIG), alone: a clear error naming the server, and the run goes on', async () => {
    const f = await withFake([fakeReply.text('answered without tools')]);
    const config = writeMcpConfig(join(cli.dir, 'alone.json'), [huge]);
    const result = await runCli(['--mcp-config', config, 'go'], { env: baseEnv(f.url) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /MCP server "huge".*E2BIG/);
    assert.match(result.stdout, /answered without tools/);
  });

  it('next to a good server and allowlisted: no hang, exit 2 with its error', async () => {
    const f = await withFake([fakeReply.text('done')]);
    const config = writeMcpConfig(join(cli.dir, 'pair.json'), [huge, good()]);
    const result = await runCli(['--mcp-config', config, 'go'], { env: { ...baseEnv(f.url), MCP_HOOK_SERVERS: 'huge,good' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /MCP server "huge" failed and this run needed it \(it is allowlisted in MCP_HOOK_SERVERS.*E2BIG/);
  });

  it('a crashing server the allowlist needs: exit 2, and its stderr tail is shown', async () => {
    const f = await withFake([fakeReply.text('done')]);
    const config = writeMcpConfig(join(cli.dir, 'crash.json'), [crasher, good()]);
    const result = await runCli(['--mcp-config', config, 'go'], { env: { ...baseEnv(f.url), MCP_HOOK_SERVERS: 'crasher' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /MCP server "crasher" failed and this run needed it.*exited with code 3; last stderr: fatal: no token in MY_TOKEN/);
  });

  it('SIGTERM with a broken server beside a good one: 130', async () => {
    const f = await withFake([fakeReply.hang()]);
    const config = writeMcpConfig(join(cli.dir, 'term.json'), [huge, good()]);
    const child = spawnCli(['--mcp-config', config, 'go'], { env: baseEnv(f.url) });
    child.stdin?.end();
    const done = collect(child, { timeoutMs: 30_000 });
    await waitFor(() => f.chatRequests().length > 0, 'the CLI to ask the model', { everyMs: 25 });
    child.kill('SIGTERM');
    const result = await done;
    assert.equal(result.code, 130, result.stderr);
  });
});

/**
 * A `--require` preload (test-only, outside the product) that makes loading dist/cliMain.js slow and
 * observable: it writes a marker file, then blocks for a while before the bundle is evaluated. A
 * signal sent after the marker appears lands exactly in the window before the CLI's own handlers.
 */
function slowLoadHook(marker: string): string {
  const file = join(cli.dir, 'slowLoad.cjs');
  writeFileSync(
    file,
    `const Module = require('module'); const fs = require('fs'); const original = Module._extensions['.js'];
Module._extensions['.js'] = function (module, filename) {
  if (filename.endsWith('cliMain.js')) { fs.writeFileSync(${JSON.stringify(marker)}, 'loading'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500); }
  return original.call(this, module, filename);
};`,
  );
  return file;
}

describe('signals before the CLI is loaded', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} while the main bundle is still loading: 130, and the model is never called`, async () => {
      const f = await withFake([fakeReply.text('never asked')]);
      const config = writeMcpConfig(join(cli.dir, `early-${signal}.json`), [good()]);
      const marker = join(cli.dir, `loading-${signal}`);
      const env = { ...baseEnv(f.url), NODE_OPTIONS: `--require ${slowLoadHook(marker)}` };
      const child = spawnCli(['--mcp-config', config, 'go'], { env });
      child.stdin?.end();
      const done = collect(child, { timeoutMs: 30_000 });
      await waitFor(() => existsSync(marker), 'the CLI to reach its slow start', { everyMs: 5 });
      child.kill(signal);
      const result = await done;
      assert.equal(result.signal, null, 'the process was not killed by the signal');
      assert.equal(result.code, 130, result.stderr);
      assert.equal(f.chatRequests().length, 0, 'an interrupted run never calls the model');
    });
  }
});
