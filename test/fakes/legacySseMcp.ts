/**
 * The old HTTP+SSE MCP transport (protocol 2024-11-05), written on the wire for the scripted HTTP
 * server: a POST to the endpoint is refused (405), a GET opens the event stream whose first event names the message URL, and every message
 * POSTed there is accepted (202) and answered on the stream.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Rpc = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown> };

function answer(rpc: Rpc, tools: unknown[]): Record<string, unknown> {
  const base = { jsonrpc: '2.0', id: rpc.id };
  switch (rpc.method) {
    case 'initialize':
      return { ...base, result: { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'legacy-sse', version: '0.1.0' } } };
    case 'tools/list':
      return { ...base, result: { tools } };
    case 'tools/call':
      return { ...base, result: { content: [{ type: 'text', text: String((rpc.params?.arguments as { text?: unknown } | undefined)?.text ?? '') }] } };
    case 'ping':
      return { ...base, result: {} };
    default:
      return { ...base, error: { code: -32601, message: `Method not found: ${rpc.method}` } };
  }
}

export function legacySseHandler(tools: unknown[]) {
  const streams = new Map<string, ServerResponse>();
  return (req: IncomingMessage, res: ServerResponse, path: string, rpc: Rpc | undefined, note: (status: number) => void): void => {
    if (path === '/mcp' && req.method === 'GET') {
      const id = randomUUID();
      streams.set(id, res);
      note(200);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
      res.on('close', () => streams.delete(id));
      return;
    }
    const stream = streams.get(new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '');
    if (path === '/messages' && req.method === 'POST' && stream !== undefined && rpc !== undefined) {
      note(202);
      res.writeHead(202);
      res.end('Accepted');
      if (rpc.id !== undefined) stream.write(`event: message\ndata: ${JSON.stringify(answer(rpc, tools))}\n\n`);
      return;
    }
    // A POST to the stream's URL: 405, as the legacy endpoints of Quarkus and others answer it.
    const status = path === '/mcp' ? 405 : 404;
    note(status);
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status === 405 ? 'Method Not Allowed' : `Cannot ${req.method} ${path}`);
  };
}
