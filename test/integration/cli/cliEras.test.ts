// The CLI with hook servers of each protocol era, as real processes: one on the v2 SDK serving only
// MCP 2026-07-28, one serving both eras, one on the v1 SDK (the 2025 era only). With no
// configuration `hooks check` reaches all three, says which era each speaks and gets each `_Stop`
// objection; a run gets the three objections in one gate round and says each server's era in its
// --json `server_connected` events; SPROUT_AGENT_MCP_PROTOCOL pins the era (a server that cannot
// speak it is named with the fix), and a bad value is exit 2.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { CheckReport } from '../../../src/cli/hooksCheckReport';
import type { McpServerConfig } from '../../../src/mcp/config';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { V1_OBJECTION_ENV } from '../../fakes/v1HookServer';
import { baseEnv, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-eras-');

const objecting = (text: string) => hookServerConfig({ hooks: { _Stop: { kind: 'text', text } } });

function v1Server(): McpServerConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const entry = require.resolve('../../fakes/v1HookServer.ts');
  return { name: 'oldsdk', transport: { type: 'stdio', command: process.execPath, args: ['--import', tsx, entry], env: { [V1_OBJECTION_ENV]: 'v1 objects' } } };
}

function servers(): string {
  return writeMcpConfig(join(cli.dir, 'eras.json'), [
    hookServerMcpConfig('modern', { ...objecting('modern objects'), era: 'modern' }),
    hookServerMcpConfig('dual', objecting('dual objects')),
    v1Server(),
  ]);
}

/** A fresh state folder per run, so no era is remembered from another test. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ...baseEnv('http://127.0.0.1:9/v1'), XDG_STATE_HOME: mkdtempSync(join(cli.dir, 'state-')), SPROUT_AGENT_HOOK_TIMEOUT_MS: '20000', ...extra };
}

describe('the CLI with servers of both protocol eras', () => {
  it('hooks check reaches each server with no configuration, says its era, and gets each objection', async () => {
    const state = env({ MCP_HOOK_SERVERS: 'modern,dual,oldsdk' });
    const result = await runCli(['hooks', 'check', '--mcp-config', servers(), '--event', 'Stop'], { env: state, timeoutMs: 120_000 });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /modern: allowlisted\n {2}speaks MCP 2026-07-28 \(modern era\)\n {2}hooks: _Stop\n {2}_Stop .*an objection: the agent would keep working: "modern objects"/);
    assert.match(result.stdout, /dual: allowlisted\n {2}speaks MCP 2026-07-28 \(modern era\)\n[\s\S]*"dual objects"/);
    assert.match(result.stdout, /oldsdk: allowlisted\n {2}speaks MCP 2025-11-25 \(legacy era\)\n[\s\S]*"v1 objects"/);
    const remembered = join(state.XDG_STATE_HOME ?? '', 'sprout-agent', 'mcp-eras.json');
    assert.ok(existsSync(remembered), 'the eras are remembered for the next run');
    assert.deepEqual(Object.values(JSON.parse(readFileSync(remembered, 'utf8')) as Record<string, { era: string }>).map((e) => e.era).sort(), ['legacy', 'modern', 'modern']);

    const json = await runCli(['hooks', 'check', '--mcp-config', servers(), '--event', 'Stop', '--json'], { env: state, timeoutMs: 120_000 });
    const report = JSON.parse(json.stdout) as CheckReport;
    assert.deepEqual(report.servers.map((s) => [s.name, s.protocol, s.calls[0]?.result]), [
      ['modern', 'MCP 2026-07-28 (modern era)', 'objection'],
      ['dual', 'MCP 2026-07-28 (modern era)', 'objection'],
      ['oldsdk', 'MCP 2025-11-25 (legacy era)', 'objection'],
    ]);
  });

  it('a run gets all three objections in one gate round; --json says each server\'s era', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('Done.'), fakeReply.text('Done, really.')] });
    const result = await runCli(['--json', '--mcp-config', servers(), 'go'], { env: { ...env({ MCP_HOOK_SERVERS: 'modern,dual,oldsdk' }), OPENAI_BASE_URL: fake.url }, timeoutMs: 120_000 });
    assert.equal(result.code, 4, result.stderr);
    const events = parseEvents(result.stdout);
    const eras = Object.fromEntries(events.flatMap((e) => (e.type === 'server_connected' ? [[e.server, `${e.era} ${e.protocolVersion}`]] : [])));
    assert.deepEqual(eras, { modern: 'modern 2026-07-28', dual: 'modern 2026-07-28', oldsdk: 'legacy 2025-11-25' });
    const objections = events.flatMap((e) => (e.type === 'hook_objected' ? [[e.server, e.text]] : []));
    assert.deepEqual(objections, [
      ['modern', 'modern objects'],
      ['dual', 'dual objects'],
      ['oldsdk', 'v1 objects'],
    ]);
  });

  it('SPROUT_AGENT_MCP_PROTOCOL=legacy: the 2026-07-28-only server fails, named with the fix; the others still object', async () => {
    const result = await runCli(['hooks', 'check', '--mcp-config', servers(), '--event', 'Stop'], { env: env({ MCP_HOOK_SERVERS: 'dual,oldsdk', SPROUT_AGENT_MCP_PROTOCOL: 'legacy' }), timeoutMs: 120_000 });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /modern: NOT allowlisted[\s\S]*failed to start: the server speaks only MCP 2026-07-28 and refused 2025-11-25: set sprout\.mcp\.protocol \(in the CLI: SPROUT_AGENT_MCP_PROTOCOL\) to auto/);
    assert.match(result.stdout, /dual: allowlisted\n {2}speaks MCP 2025-11-25 \(legacy era\)/);
    assert.match(result.stdout, /"v1 objects"/);
  });

  it('a bad SPROUT_AGENT_MCP_PROTOCOL is exit 2, naming the variable and the values', async () => {
    const result = await runCli(['hooks', 'check', '--mcp-config', servers()], { env: env({ SPROUT_AGENT_MCP_PROTOCOL: 'newest' }) });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /SPROUT_AGENT_MCP_PROTOCOL: unknown MCP protocol "newest"\. Use auto \(the default\), legacy \(2025-11-25 and before\) or 2026-07-28\./);
  });
});
