/**
 * McpHub over Streamable HTTP against a real SDK server on 127.0.0.1: list, call with _meta, the
 * configured headers reach the server but never the logs, and a kill terminates the session.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../../src/agent/ports';
import { McpHub } from '../../../src/mcp/mcpHub';
import { signal } from './mcpTestKit';

const SECRET = 'Bearer sk-http-header-secret-123';

interface Seen {
  authorization: (string | undefined)[];
  deletes: number;
  metas: unknown[];
}

function mcpServer(seen: Seen): Server {
  const server = new Server({ name: 'http-fake', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      { name: '_Stop', inputSchema: { type: 'object', properties: {} } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    seen.metas.push(request.params._meta);
    if (request.params.name === '_Stop') return { content: [{ type: 'text', text: 'over http: not done' }] };
    return { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] };
  });
  return server;
}

function startHttpMcp(seen: Seen): Promise<HttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
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
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
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
    assert.ok(seen.metas.some((m) => JSON.stringify(m) === JSON.stringify(meta)));
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
