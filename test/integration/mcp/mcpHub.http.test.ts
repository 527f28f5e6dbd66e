/**
 * McpHub over Streamable HTTP against a real SDK server on 127.0.0.1 (the v2 SDK's sessionful 2025-era
 * transport): list, call with _meta, the configured headers reach the server but never the logs, a
 * kill terminates the session, and a server that restarts (forgets the session) or goes away is
 * noticed and reconnected to.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server, type ListToolsResult } from '@modelcontextprotocol/server';
import type { Logger } from '../../../src/agent/ports';
import { McpHub } from '../../../src/mcp/mcpHub';
import { signal } from './mcpHarness';

const SECRET = 'Bearer sk-http-header-secret-123';

interface Seen {
  authorization: (string | undefined)[];
  deletes: number;
  metas: unknown[];
}

function mcpServer(seen: Seen): Server {
  const server = new Server({ name: 'http-fake', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', (): ListToolsResult => ({
    tools: [
      { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      { name: '_Stop', inputSchema: { type: 'object', properties: {} } },
    ],
  }));
  server.setRequestHandler('tools/call', (request) => {
    seen.metas.push(request.params._meta);
    if (request.params.name === '_Stop') return { content: [{ type: 'text', text: 'over http: not done' }] };
    return { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] };
  });
  return server;
}

/** `sessions` is the server's memory: clearing it is what a server restart does to its clients. */
function startHttpMcp(seen: Seen, sessions = new Map<string, StreamableHTTPServerTransport>(), port = 0): Promise<HttpServer> {
  const http = createServer((req: IncomingMessage, res) => {
    seen.authorization.push(req.headers.authorization);
    if (req.method === 'DELETE') seen.deletes++;
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (typeof sid === 'string' && !transport) return void res.writeHead(404).end();
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
      transport = created;
      void mcpServer(seen).connect(created);
    }
    void transport.handleRequest(req, res);
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve(http));
  });
}

describe('McpHub over Streamable HTTP', () => {
  const seen: Seen = { authorization: [], deletes: 0, metas: [] };
  const logged: string[] = [];
  const logger: Logger = {
    debug: (m, d) => logged.push(m + JSON.stringify(d ?? {})),
    info: (m, d) => logged.push(m + JSON.stringify(d ?? {})),
    warn: (m, d) => logged.push(m + JSON.stringify(d ?? {})),
    error: (m, d) => logged.push(m + JSON.stringify(d ?? {})),
  };
  let http: HttpServer;
  let hub: McpHub;

  before(async () => {
    http = await startHttpMcp(seen);
    const { port } = http.address() as AddressInfo;
    hub = new McpHub([{ name: 'remote', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: SECRET } } }], {
      logger,
      restart: { initialDelayMs: 50 },
    });
  });
  after(async () => {
    await hub.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('lists and calls tools with the configured headers', async () => {
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => [t.qualifiedName, t.isHook]), [
      ['remote__echo', false],
      ['remote___Stop', true],
    ]);
    const meta = { 'sprout/hook': { event: '_Stop' } };
    assert.deepEqual(await hub.callTool('remote', '_Stop', {}, { signal: signal(), meta }), { isError: false, text: 'over http: not done' });
    assert.equal((await hub.callTool('remote', 'echo', { text: 'via http' }, { signal: signal() })).text, 'via http');
    assert.ok(seen.metas.some((m) => JSON.stringify((m as Record<string, unknown> | undefined)?.['sprout/hook']) === JSON.stringify(meta['sprout/hook'])));
    assert.ok(seen.authorization.length > 0 && seen.authorization.every((a) => a === SECRET));
    assert.equal(hub.status()[0]?.state, 'ready');
  });

  it('kill terminates the session; the next call reconnects', async () => {
    await hub.killServer('remote', 'test');
    assert.equal(seen.deletes, 1);
    assert.equal(hub.status()[0]?.state, 'killed');
    assert.equal((await hub.callTool('remote', 'echo', { text: 'again' }, { signal: signal() })).text, 'again');
    assert.equal(hub.status()[0]?.restarts, 1);
  });

  it('never logs header values', () => {
    assert.ok(logged.length > 0, 'the hub logged something to check');
    assert.ok(!logged.some((line) => line.includes('sk-http-header-secret')), logged.join('\n'));
  });
});

describe('McpHub over Streamable HTTP, server down', () => {
  it('reports an unreachable server by name and URL, without the query or headers', async () => {
    const http = await startHttpMcp({ authorization: [], deletes: 0, metas: [] });
    const { port } = http.address() as AddressInfo;
    await new Promise((resolve) => http.close(resolve)); // the port is now (almost certainly) closed
    const hub = new McpHub([
      { name: 'down', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp?token=sk-query-secret`, headers: { Authorization: SECRET } } },
    ]);
    const errors: string[] = [];
    hub.subscribe((e) => e.type === 'server_error' && errors.push(e.message));
    try {
      assert.deepEqual(await hub.listTools(), []);
      assert.equal(errors.length, 1);
      assert.match(errors[0] ?? '', new RegExp(`"down" \\(URL http://127\\.0\\.0\\.1:${port}/mcp\\) failed to start`));
      assert.ok(!errors[0]?.includes('sk-'), errors[0]);
    } finally {
      await hub.close();
    }
  });
});

describe('McpHub over Streamable HTTP, server restarted or gone', () => {
  const stopHttp = async (http: HttpServer): Promise<void> => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };

  it('a server that forgot the session (HTTP 404) gets a new one and the call goes through', async () => {
    const seen: Seen = { authorization: [], deletes: 0, metas: [] };
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const http = await startHttpMcp(seen, sessions);
    const { port } = http.address() as AddressInfo;
    const hub = new McpHub([{ name: 'remote', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} } }], { restart: { initialDelayMs: 50 } });
    const events: string[] = [];
    hub.subscribe((e) => events.push(e.type === 'server_error' ? `error: ${e.message}` : e.type));
    try {
      assert.equal((await hub.callTool('remote', 'echo', { text: 'first' }, { signal: signal() })).text, 'first');
      sessions.clear();
      assert.equal((await hub.callTool('remote', 'echo', { text: 'after restart' }, { signal: signal() })).text, 'after restart');
      assert.deepEqual(events.filter((e) => e !== 'server_connected'), [
        `error: MCP server "remote" (URL http://127.0.0.1:${port}/mcp) no longer knows this session, so it probably restarted (it answered HTTP 404 Not Found with no body); it reconnects on next use.`,
        'server_restarted',
      ]);
      assert.equal(hub.status()[0]?.state, 'ready');
      assert.equal(sessions.size, 1, 'exactly one new session');
    } finally {
      await hub.close();
      await stopHttp(http);
    }
  });

  it('a server that went away fails the call by name, then is reconnected to once it is back', async () => {
    const seen: Seen = { authorization: [], deletes: 0, metas: [] };
    let http = await startHttpMcp(seen);
    const { port } = http.address() as AddressInfo;
    const hub = new McpHub([{ name: 'remote', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} } }], { restart: { initialDelayMs: 50 } });
    const errors: string[] = [];
    hub.subscribe((e) => e.type === 'server_error' && errors.push(e.message));
    try {
      assert.equal((await hub.callTool('remote', 'echo', { text: 'first' }, { signal: signal() })).text, 'first');
      await stopHttp(http);
      await assert.rejects(hub.callTool('remote', 'echo', { text: 'lost' }, { signal: signal() }), /call of echo on MCP server "remote" \(URL http:\/\/127\.0\.0\.1:\d+\/mcp\) failed: fetch failed: [A-Z_]+$/);
      assert.match(errors[0] ?? '', /^MCP server "remote" \(URL http:\/\/127\.0\.0\.1:\d+\/mcp\) cannot be reached \(fetch failed: [A-Z_]+\); it reconnects on next use\.$/);
      assert.equal(hub.status()[0]?.state, 'restarting');
      http = await startHttpMcp(seen, new Map(), port);
      assert.equal((await hub.callTool('remote', 'echo', { text: 'back' }, { signal: signal() })).text, 'back');
      assert.equal(hub.status()[0]?.state, 'ready');
      assert.equal(hub.status()[0]?.restarts, 1);
    } finally {
      await hub.close();
      await stopHttp(http);
    }
  });
});
