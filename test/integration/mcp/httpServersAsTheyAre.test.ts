/**
 * HTTP servers as people run them, on 127.0.0.1: the v2 SDK's `createMcpHandler` serving only MCP
 * 2026-07-28 and serving both eras, a `fastmcp` server, and real packages from the npm registry:
 * `@modelcontextprotocol/server-everything` restarted under a running session (it answers the old
 * session id with 400 "No valid session ID provided", not the spec's 404: the call is retried once on
 * a new session), `mcp-proxy --server sse` in front of a stdio hook server (only the old HTTP+SSE
 * transport: Sprout falls back to it, and its hooks object), and a URL that is no MCP endpoint at all
 * (the failure names the server, the URL, the status and the server's own words).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { after, afterEach, describe, it } from 'node:test';
import type { ToolHostEvent } from '../../../src/agent/ports';
import { McpHub } from '../../../src/mcp/mcpHub';
import { memoryEraStore } from '../../../src/mcp/protocolEra';
import { HOOK_SERVER_ENTRY, HOOK_SERVER_ENV, hookServerConfig } from '../../fakes/hookServer';
import { startHttpHookServer } from '../../fakes/httpHookServer';
import { freePort, signal, startListening, stopped } from './mcpHarness';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const MCP_PROXY = require.resolve('mcp-proxy/dist/bin/mcp-proxy.mjs');

const children: ChildProcess[] = [];
const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await Promise.all(children.splice(0).map(stopped));
});

function newHub(name: string, url: string, eras = memoryEraStore()): { hub: McpHub; events: ToolHostEvent[] } {
  const hub = new McpHub([{ name, transport: { type: 'http', url, headers: {} } }], { eraStore: eras });
  hubs.push(hub);
  const events: ToolHostEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, events };
}

const FASTMCP_SERVER = require.resolve('../../fakes/fastmcpServer.ts');
const stopMeta = { 'sprout/hook': { event: '_Stop' } };

describe('HTTP servers of both protocol eras', () => {
  for (const legacy of ['reject', 'stateless'] as const) {
    it(`v2 createMcpHandler (${legacy === 'reject' ? 'MCP 2026-07-28 only' : 'both eras'}): reached with no configuration on 2026-07-28, its hook objecting`, async () => {
      const server = await startHttpHookServer(`objection (${legacy})`, legacy);
      try {
        const { hub } = newHub('modern', server.url);
        assert.deepEqual((await hub.listTools()).map((t) => t.qualifiedName), ['modern__echo', 'modern___Stop']);
        assert.deepEqual(hub.status().map((s) => [s.transport, s.era, s.protocolVersion]), [['http', 'modern', '2026-07-28']]);
        assert.equal((await hub.callTool('modern', '_Stop', {}, { signal: signal(), meta: stopMeta })).text, `objection (${legacy})`);
        assert.ok(server.eras.every((era) => era === 'modern'), server.eras.join(','));
      } finally {
        await server.close();
      }
    });
  }

  it('v2 createMcpHandler serving both eras is reached on 2025-11-25 when the setting says legacy', async () => {
    const server = await startHttpHookServer('objection (legacy era)', 'stateless');
    try {
      const hub = new McpHub([{ name: 'dual', transport: { type: 'http', url: server.url, headers: {} } }], { protocol: 'legacy' });
      hubs.push(hub);
      await hub.listTools();
      assert.equal(hub.status()[0]?.era, 'legacy');
      assert.equal((await hub.callTool('dual', '_Stop', {}, { signal: signal(), meta: stopMeta })).text, 'objection (legacy era)');
      assert.ok(server.eras.includes('legacy'));
    } finally {
      await server.close();
    }
  });

  it('a fastmcp server over httpStream: its tools and its hook, on the era it speaks', async () => {
    const port = await freePort();
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    children.push(await startListening(['--import', tsx, FASTMCP_SERVER, String(port)], { FASTMCP_OBJECTION: 'fastmcp objects' }, /listening/, port));
    const { hub, events } = newHub('fast', `http://127.0.0.1:${port}/mcp`);
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['fast__echo', 'fast___Stop'], JSON.stringify(events));
    assert.ok(hub.status()[0]?.era !== undefined);
    assert.equal((await hub.callTool('fast', '_Stop', {}, { signal: signal(), meta: stopMeta })).text, 'fastmcp objects');
    assert.equal((await hub.callTool('fast', 'echo', { text: 'hi' }, { signal: signal() })).text, 'hi');
  });
});

describe('HTTP servers as they really behave', () => {
  it('server-everything restarted mid-run answers the old session with 400: one reconnect, and the call goes through', async () => {
    const port = await freePort();
    const start = async (): Promise<ChildProcess> => {
      const child = await startListening([EVERYTHING, 'streamableHttp'], { PORT: String(port) }, /listening on port/, port);
      children.push(child);
      return child;
    };
    const first = await start();
    const { hub, events } = newHub('everything', `http://127.0.0.1:${port}/mcp`);
    await hub.listTools();
    assert.equal((await hub.callTool('everything', 'echo', { message: 'before' }, { signal: signal() })).text, 'Echo: before');
    await stopped(first);
    await start();
    const after = await hub.callTool('everything', 'echo', { message: 'after the restart' }, { signal: signal() });
    assert.equal(after.text, 'Echo: after the restart');
    const lost = events.find((e) => e.type === 'server_error');
    assert.ok(lost?.type === 'server_error', JSON.stringify(events));
    assert.match(lost.message, /MCP server "everything" \(URL http:\/\/127\.0\.0\.1:\d+\/mcp\) no longer knows this session, so it probably restarted \(it answered HTTP 400 Bad Request: ".*No valid session ID.*"\); it reconnects on next use\.$/);
    assert.equal(events.filter((e) => e.type === 'server_connected').length, 2, 'one reconnect');
  });

  it('mcp-proxy --server sse (only the old HTTP+SSE transport): Sprout falls back to it, remembers, and the hook objects', async () => {
    const port = await freePort();
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    const config = hookServerConfig({ hooks: { _Stop: { kind: 'text', text: 'objection over SSE' } } });
    const proxy = await startListening(
      [MCP_PROXY, '--server', 'sse', '--host', '127.0.0.1', '--port', String(port), '--', process.execPath, '--import', tsx, HOOK_SERVER_ENTRY],
      { [HOOK_SERVER_ENV]: JSON.stringify(config) },
      /starting server on port/,
      port,
    );
    children.push(proxy);
    const eras = memoryEraStore();
    const { hub, events } = newHub('legacy', `http://127.0.0.1:${port}/sse`, eras);
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['legacy__echo', 'legacy___Stop'], JSON.stringify(events));
    assert.deepEqual(hub.status().map((s) => [s.transport, s.era]), [['sse', 'legacy']]);
    const stop = await hub.callTool('legacy', '_Stop', {}, { signal: signal(), meta: { 'sprout/hook': { event: '_Stop' } } });
    assert.equal(stop.text, 'objection over SSE');
    await hub.close();
    const again = newHub('legacy', `http://127.0.0.1:${port}/sse`, eras);
    await again.hub.listTools();
    assert.equal(again.hub.status()[0]?.transport, 'sse', 'remembered: straight to the old transport');
  });

  it('a URL that is no MCP endpoint fails with the server, the URL, the status and the server\'s own words', async () => {
    const http: HttpServer = createHttpServer((req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end(`<!doctype html><title>Cannot ${req.method} /mcp</title><p>nope</p>`));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const port = (http.address() as { port: number }).port;
      const { hub, events } = newHub('nowhere', `http://127.0.0.1:${port}/mcp?token=secret-in-query`);
      await hub.listTools();
      const error = events.find((e) => e.type === 'server_error');
      assert.ok(error?.type === 'server_error');
      assert.equal(error.message, `MCP server "nowhere" (URL http://127.0.0.1:${port}/mcp) failed to start: HTTP 404 Not Found: "Cannot POST /mcp"`);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

after(async () => {
  await Promise.all(children.map(stopped));
});
