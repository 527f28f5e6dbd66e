/**
 * Both protocol eras over stdio, against real child processes on the v2 SDK (a dual-era server, a
 * 2026-07-28-only one, a 2025-only one, 2025-only ones that exit on `server/discover` as Python SDK
 * and rmcp servers do, with a message Sprout does not know or silently) and the v1 SDK: each is
 * reached with no configuration, the era is asked once and remembered (the next start sends no
 * `server/discover`), a setting pins it, hooks answer on both eras, a hook's question is never shown
 * to the user, a command that exits at once fails once with its stderr shown once, and list changes
 * arrive on the modern era through `subscriptions/listen`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { after, afterEach, describe, it } from 'node:test';
import type { ToolHostEvent } from '../../../src/agent/ports';
import type { McpServerConfig } from '../../../src/mcp/config';
import { McpHub, type McpHubOptions } from '../../../src/mcp/mcpHub';
import { memoryEraStore, type EraStore } from '../../../src/mcp/protocolEra';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog, type HookServerConfig } from '../../fakes/hookServer';
import { V1_OBJECTION_ENV } from '../../fakes/v1HookServer';
import { makeTempDir, signal, waitFor } from './mcpHarness';

const tmp = makeTempDir('sprout-eras-');
let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
});
after(() => tmp.remove());

function hub(servers: McpServerConfig[], options: McpHubOptions = {}): { hub: McpHub; events: ToolHostEvent[]; asked: string[] } {
  const asked: string[] = [];
  const created = new McpHub(servers, {
    closeGraceMs: 300,
    features: { elicitation: { by: 'user', answer: async (request) => (asked.push(request.message), { action: 'accept', content: { ok: true } }) } },
    ...options,
  });
  hubs.push(created);
  const events: ToolHostEvent[] = [];
  created.subscribe((event) => events.push(event));
  return { hub: created, events, asked };
}

let n = 0;
function fake(config: HookServerConfig): { config: McpServerConfig; log: string } {
  const log = tmp.file(`server-${++n}.log`);
  return { config: hookServerMcpConfig('srv', hookServerConfig({ logFile: log, ...config })), log };
}

const methods = (log: string): string[] => readHookServerLog(log).filter((e) => e.type === 'request').map((e) => e.method ?? '');

function v1Server(objection: string): McpServerConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { name: 'v1', transport: { type: 'stdio', command: process.execPath, args: ['--import', tsx, require.resolve('../../fakes/v1HookServer.ts')], env: { [V1_OBJECTION_ENV]: objection } } };
}

async function stopText(h: McpHub, server: string): Promise<string> {
  return (await h.callTool(server, '_Stop', {}, { signal: signal(), meta: { 'sprout/hook': { event: '_Stop' } } })).text;
}

describe('MCP protocol eras over stdio', () => {
  it('a dual-era server is used on 2026-07-28, remembered, and not asked again on the next start', async () => {
    const { config, log } = fake({ hooks: { _Stop: { kind: 'text', text: 'not done (modern)' } } });
    const eras = memoryEraStore();
    const first = hub([config], { eraStore: eras });
    await first.hub.listTools();
    assert.deepEqual(first.hub.status().map((s) => [s.era, s.protocolVersion]), [['modern', '2026-07-28']]);
    assert.ok(first.events.some((e) => e.type === 'server_connected' && e.era === 'modern' && e.protocolVersion === '2026-07-28'));
    assert.equal(await stopText(first.hub, 'srv'), 'not done (modern)');
    assert.equal(methods(log).filter((m) => m === 'server/discover').length, 1, methods(log).join(','));
    assert.ok(!methods(log).includes('initialize'));
    await first.hub.close();

    const before = methods(log).length;
    const second = hub([config], { eraStore: eras });
    await second.hub.listTools();
    assert.equal(second.hub.status()[0]?.era, 'modern');
    const later = methods(log).slice(before);
    assert.ok(!later.includes('server/discover') && !later.includes('initialize'), `no question on the second start: ${later.join(',')}`);
  });

  it('a 2026-07-28-only server works with no configuration, and fails clearly when pinned to legacy', async () => {
    const { config } = fake({ era: 'modern', hooks: { _Stop: { kind: 'text', text: 'modern only objects' } } });
    const auto = hub([config]);
    await auto.hub.listTools();
    assert.equal(auto.hub.status()[0]?.era, 'modern');
    assert.equal(await stopText(auto.hub, 'srv'), 'modern only objects');

    const pinned = hub([config], { protocol: 'legacy' });
    await pinned.hub.listTools();
    const error = pinned.events.find((e) => e.type === 'server_error');
    assert.ok(error?.type === 'server_error', JSON.stringify(pinned.events));
    assert.match(error.message, /MCP server "srv"/);
    assert.match(error.message, /speaks only MCP 2026-07-28 and refused 2025-11-25: set sprout\.mcp\.protocol \(in the CLI: SPROUT_AGENT_MCP_PROTOCOL\) to auto/);
  });

  it('a 2025-only server falls back to initialize with no configuration; pinned to 2026-07-28 it fails clearly', async () => {
    const { config, log } = fake({ era: 'legacy', hooks: { _Stop: { kind: 'text', text: 'legacy objects' } } });
    const eras = memoryEraStore();
    const auto = hub([config], { eraStore: eras });
    await auto.hub.listTools();
    assert.equal(auto.hub.status()[0]?.era, 'legacy');
    assert.equal(await stopText(auto.hub, 'srv'), 'legacy objects');
    assert.deepEqual(methods(log).slice(0, 2), ['server/discover', 'initialize']);
    await auto.hub.close();

    const before = methods(log).length;
    const again = hub([config], { eraStore: eras });
    await again.hub.listTools();
    assert.equal(methods(log)[before], 'initialize', 'the remembered legacy era is not asked again');

    const pinned = hub([config], { protocol: '2026-07-28' });
    await pinned.hub.listTools();
    const error = pinned.events.find((e) => e.type === 'server_error');
    assert.ok(error?.type === 'server_error' && /MCP server "srv"/.test(error.message), JSON.stringify(pinned.events));
    assert.match(error.message, /does not speak MCP 2026-07-28, which the setting requires .*to auto/);
  });

  // Legacy servers that refuse anything before `initialize`: what each says when it stops on the question.
  const exitsOnDiscover = [
    { kind: 'a Python SDK server', code: 1, stderr: 'RuntimeError: Received request before initialization was complete' },
    { kind: 'an rmcp server', code: 2, stderr: 'Error: expect initialized request, but received: Some(Request(JsonRpcRequest { id: Number(0), request: CustomRequest { method: "server/discover" } }))' },
    { kind: 'a server with a message Sprout does not know', code: 1, stderr: 'fatal: bad frame, shutting down' },
    { kind: 'a silent server', code: 0, stderr: undefined },
  ];
  for (const how of exitsOnDiscover) {
    it(`${how.kind} that exits on server/discover is started again with initialize, once, and remembered as legacy`, async () => {
      const { config, log } = fake({ era: 'legacy', exitOnDiscover: { code: how.code, stderr: how.stderr } });
      const eras: EraStore = memoryEraStore();
      const stderr: string[] = [];
      const first = hub([config], { eraStore: eras, onStderr: (_server, line) => stderr.push(line) });
      const tools = await first.hub.listTools();
      assert.deepEqual(tools.map((t) => t.qualifiedName), ['srv__echo']);
      assert.equal(first.hub.status()[0]?.era, 'legacy');
      assert.deepEqual(methods(log).slice(0, 2), ['server/discover', 'initialize']);
      assert.equal(new Set(readHookServerLog(log).filter((e) => e.type === 'started').map((e) => e.pid)).size, 2, 'one process for the question, one to work with');
      assert.deepEqual(stderr, how.stderr === undefined ? [] : [how.stderr], 'what the first process said, once');
      assert.deepEqual(first.events.filter((e) => e.type === 'server_error'), []);
      await first.hub.close();
      const second = hub([config], { eraStore: eras });
      await second.hub.listTools();
      assert.equal(methods(log).filter((m) => m === 'server/discover').length, 1, 'remembered: not asked again');
    });
  }

  it('pinned to 2026-07-28, a server that exits on server/discover fails once, saying what the setting asked and how it stopped', async () => {
    const { config, log } = fake({ era: 'legacy', exitOnDiscover: { code: 1, stderr: 'bye' } });
    const { hub: h, events } = hub([config], { protocol: '2026-07-28' });
    assert.deepEqual(await h.listTools(), []);
    assert.deepEqual(methods(log), ['server/discover'], 'not started again: the setting allows no initialize');
    const errors = events.filter((e) => e.type === 'server_error');
    assert.equal(errors.length, 1, JSON.stringify(events));
    assert.match(
      errors[0]?.type === 'server_error' ? errors[0].message : '',
      /^MCP server "srv" \(command "[^"]+"\) failed to start: the server stopped when asked for MCP 2026-07-28 \(server\/discover\), which the setting requires; if it speaks only the older initialize handshake, set sprout\.mcp\.protocol \(in the CLI: SPROUT_AGENT_MCP_PROTOCOL\) to auto \(exited with code 1; last stderr: bye\)$/,
    );
  });

  /** A stdio server whose command exits at once, before reading anything, counting its runs in a file. */
  function exitsAtOnce(name: string, stderrOf: string): { config: McpServerConfig; runs: () => number } {
    const starts = tmp.file(`starts-${++n}.log`);
    const script = `const fs = require('node:fs'); fs.appendFileSync(${JSON.stringify(starts)}, 'start\\n'); const run = fs.readFileSync(${JSON.stringify(starts)}, 'utf8').split('\\n').length - 1; console.error(${stderrOf}); process.exit(3)`;
    const config: McpServerConfig = { name, transport: { type: 'stdio', command: process.execPath, args: ['-e', script], env: {} } };
    return { config, runs: () => readFileSync(starts, 'utf8').split('\n').length - 1 };
  }

  it('a command that exits at once fails once: started again with initialize, its stderr shown once, both runs named, nothing remembered', async () => {
    const { config, runs } = exitsAtOnce('broken', `'config broken: no API key'`);
    const stderr: string[] = [];
    const remembered: unknown[] = [];
    const eras = memoryEraStore();
    const store: EraStore = { get: (key) => eras.get(key), set: (key, value) => (remembered.push(value), eras.set(key, value)) };
    const { hub: h, events } = hub([config], { eraStore: store, onStderr: (_server, line) => stderr.push(line) });
    assert.deepEqual(await h.listTools(), []);
    assert.equal(runs(), 2, 'asked, then started with initialize');
    assert.deepEqual(stderr, ['config broken: no API key'], 'the second run said the same: not shown again');
    const errors = events.filter((e) => e.type === 'server_error');
    assert.equal(errors.length, 1, JSON.stringify(events));
    const message = errors[0]?.type === 'server_error' ? errors[0].message : '';
    assert.match(
      message,
      /^MCP server "broken" \(command "[^"]+"\) failed to start: it exited when asked for its protocol era \(server\/discover\) and again when started with initialize, the same way both times \(exited with code 3; last stderr: config broken: no API key\)\. Run the command in a terminal to see why it stops\.$/,
    );
    assert.equal(message.split('config broken').length - 1, 1, `its stderr once in the error: ${message}`);
    assert.equal(h.status()[0]?.state, 'failed');
    assert.deepEqual(remembered, [], 'a command that exits on anything teaches no era');
  });

  it('a command that exits at once saying something different each run: every line shown, the error names both runs', async () => {
    const { config, runs } = exitsAtOnce('flaky', '`run ${run}: cannot open the database`');
    const stderr: string[] = [];
    const { hub: h, events } = hub([config], { onStderr: (_server, line) => stderr.push(line) });
    assert.deepEqual(await h.listTools(), []);
    assert.equal(runs(), 2);
    assert.deepEqual(stderr, ['run 1: cannot open the database', 'run 2: cannot open the database']);
    const error = events.find((e) => e.type === 'server_error');
    assert.ok(error?.type === 'server_error', JSON.stringify(events));
    assert.match(
      error.message,
      /^MCP server "flaky" \(command "[^"]+"\) failed to start: it exited when asked for its protocol era \(server\/discover\) \(exited with code 3; last stderr: run 1: cannot open the database\), and again when started with initialize \(exited with code 3; last stderr: run 2: cannot open the database\)\. Run the command in a terminal to see why it stops\.$/,
    );
  });

  it('a v1 SDK server (which never speaks 2026-07-28) is reached on the legacy era, its hook objecting', async () => {
    const { hub: h } = hub([v1Server('v1 says: not done')]);
    const tools = await h.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['v1__echo', 'v1___Stop']);
    assert.equal(h.status()[0]?.era, 'legacy');
    assert.equal(await stopText(h, 'v1'), 'v1 says: not done');
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`${era} era: a hook that asks for input is no answer and no question; a tool that asks gets the user's answer`, async () => {
      const { config } = fake({ era, hooks: { _Stop: { kind: 'askInput', message: 'hook question' } }, extraTools: [{ name: 'ask', behaviour: { kind: 'askInput', message: 'tool question' } }] });
      const { hub: h, asked } = hub([config]);
      await h.listTools();
      const hookResult = await h.callTool('srv', '_Stop', {}, { signal: signal() });
      assert.equal(hookResult.isError, true, hookResult.text);
      assert.deepEqual(asked, [], 'the hook never asked the user');
      const toolResult = await h.callTool('srv', 'ask', {}, { signal: signal() });
      assert.equal(toolResult.text, 'answered: accept ok=true');
      assert.deepEqual(asked, ['tool question']);
    });
  }

  it('modern era: tools/list_changed arrives through subscriptions/listen and the list is fetched again', async () => {
    const { config, log } = fake({ listChangedAfterCall: true });
    const { hub: h, events } = hub([config]);
    await h.listTools();
    assert.equal(h.status()[0]?.era, 'modern');
    await h.callTool('srv', 'echo', { text: 'hi' }, { signal: signal() });
    await waitFor(() => events.find((e) => e.type === 'tools_changed'), 'tools_changed', 20_000);
    assert.ok(methods(log).includes('subscriptions/listen'), methods(log).join(','));
    assert.ok((await h.listTools()).some((t) => t.bareName === 'added_0'));
  });
});
