/**
 * A Streamable HTTP MCP server (the 2025 era: `initialize`, `Mcp-Session-Id`) written on the wire,
 * without an SDK, so a test can play exactly what a real server did to a session or a call, as the
 * public reports describe it: a session that ends while a call's event stream is open (the stream
 * closes, and every later request with the session id is refused as the scenario says), a call
 * stream that drops with no answer and no event id to resume from, a POST refused for an unknown
 * session (404 as the spec says, or the 400 and 401 real servers send), and OAuth discovery that
 * leads to metadata missing fields. It records every request it received.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { legacySseHandler } from './legacySseMcp';

/** What `tools/call` does. */
export type CallScript =
  | { kind: 'answer' }
  /** Opens the call's event stream with a priming event (id `1`), then forgets the session and closes the stream. */
  | { kind: 'endSessionMidCall' }
  /** Opens the call's event stream with no event id and closes it with no answer (the session stays). */
  | { kind: 'dropStreamMidCall' }
  /** The first call's POST is refused as if the session were unknown (the server restarted); later calls answer. */
  | { kind: 'forgetSessionBeforeCall' };

export interface UnknownSessionAnswer {
  status: number;
  body: string;
  contentType?: string;
}

export interface ScriptedMcpHttpOptions {
  call?: CallScript;
  /** How the standalone `GET /mcp` stream is refused; default the spec's 405 (a server that offers none). */
  standaloneGet?: UnknownSessionAnswer;
  /** How a request with an unknown (or forgotten) session id is answered; default the spec's 404. */
  unknownSession?: UnknownSessionAnswer;
  /**
   * Every `/mcp` request is refused with 401 pointing at protected-resource metadata, whose
   * authorization server (this server) publishes this metadata; `ORIGIN` in it is replaced by the origin.
   */
  authMetadata?: Record<string, unknown>;
  /** The endpoint lives at `/mcp/`, and `/mcp` answers with this redirect status (Starlette's trailing-slash 307). */
  redirect?: number;
  /** `initialize` is answered with this protocol version whatever the client asked for. */
  protocolVersion?: string;
  /** The old HTTP+SSE transport only (legacySseMcp.ts): a POST to `/mcp` is refused, a GET opens the stream. */
  legacySse?: boolean;
}

export interface ScriptedMcpHttpServer {
  url: string;
  origin: string;
  /** `METHOD path [json-rpc method] -> status`, in order. */
  log: string[];
  close(): Promise<void>;
}

const SPEC_404: UnknownSessionAnswer = { status: 404, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }), contentType: 'application/json' };

const TOOLS = [{ name: 'echo', description: 'Echoes its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

type Rpc = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown> };

export async function startScriptedMcpHttpServer(options: ScriptedMcpHttpOptions = {}): Promise<ScriptedMcpHttpServer> {
  const sessions = new Set<string>();
  const log: string[] = [];
  let calls = 0;
  let origin = '';
  const unknown = options.unknownSession ?? SPEC_404;
  const legacy = legacySseHandler(TOOLS);

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    let rpc: Rpc | undefined;
    try {
      rpc = raw === '' ? undefined : (JSON.parse(raw) as Rpc);
    } catch {
      rpc = undefined;
    }
    const note = (status: number): void => void log.push(`${req.method} ${path}${rpc?.method ? ` ${rpc.method}` : ''} -> ${status}`);
    if (options.authMetadata !== undefined) {
      if (path.startsWith('/.well-known/oauth-protected-resource')) {
        note(200);
        return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      }
      if (path.startsWith('/.well-known/oauth-authorization-server') || path.startsWith('/.well-known/openid-configuration')) {
        note(200);
        // `ORIGIN` in the scripted metadata stands for this server's own origin, known once it listens.
        return json(res, 200, JSON.parse(JSON.stringify(options.authMetadata).split('ORIGIN').join(origin)));
      }
      note(401);
      return json(res, 401, { error: 'invalid_token', error_description: 'Authentication required' }, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
    }
    if (options.legacySse) return legacy(req, res, path, rpc, note);
    if (options.redirect !== undefined && path === '/mcp') {
      note(options.redirect);
      res.writeHead(options.redirect, { location: `${origin}/mcp/` });
      res.end();
      return;
    }
    if (path !== (options.redirect !== undefined ? '/mcp/' : '/mcp')) {
      note(404);
      return json(res, 404, { error: 'not found' });
    }
    const session = req.headers['mcp-session-id'];
    const sessionId = typeof session === 'string' ? session : undefined;
    if (sessionId !== undefined && !sessions.has(sessionId)) {
      note(unknown.status);
      res.writeHead(unknown.status, { 'content-type': unknown.contentType ?? 'text/plain' });
      res.end(unknown.body);
      return;
    }
    if (req.method === 'GET') {
      // No standalone stream: the spec's answer for a server that offers none (405), or what a server sends instead.
      const get = options.standaloneGet;
      note(get?.status ?? 405);
      res.writeHead(get?.status ?? 405, get ? { 'content-type': get.contentType ?? 'text/plain' } : { allow: 'POST, DELETE' });
      res.end(get?.body);
      return;
    }
    if (req.method === 'DELETE') {
      if (sessionId !== undefined) sessions.delete(sessionId);
      note(200);
      res.writeHead(200);
      res.end();
      return;
    }
    if (rpc === undefined || req.method !== 'POST') {
      note(400);
      return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (rpc.id === undefined) {
      note(202);
      res.writeHead(202);
      res.end();
      return;
    }
    switch (rpc.method) {
      case 'initialize': {
        const id = randomUUID();
        sessions.add(id);
        note(200);
        return json(
          res,
          200,
          { jsonrpc: '2.0', id: rpc.id, result: { protocolVersion: options.protocolVersion ?? String(rpc.params?.protocolVersion ?? '2025-06-18'), capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1.0.0' } } },
          { 'mcp-session-id': id },
        );
      }
      case 'tools/list':
        note(200);
        return json(res, 200, { jsonrpc: '2.0', id: rpc.id, result: { tools: TOOLS } });
      case 'tools/call':
        return call(rpc, sessionId, res, note);
      case 'ping':
        note(200);
        return json(res, 200, { jsonrpc: '2.0', id: rpc.id, result: {} });
      default:
        note(200);
        return json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: `Method not found: ${rpc.method}` } });
    }
  }

  function call(rpc: Rpc, sessionId: string | undefined, res: ServerResponse, note: (status: number) => void): void {
    calls += 1;
    const script = options.call ?? { kind: 'answer' };
    const text = String((rpc.params?.arguments as { text?: unknown } | undefined)?.text ?? '');
    const answer = { jsonrpc: '2.0', id: rpc.id, result: { content: [{ type: 'text', text }] } };
    if (script.kind === 'forgetSessionBeforeCall' && calls === 1) {
      if (sessionId !== undefined) sessions.delete(sessionId);
      note(unknown.status);
      res.writeHead(unknown.status, { 'content-type': unknown.contentType ?? 'text/plain' });
      res.end(unknown.body);
      return;
    }
    if (script.kind === 'endSessionMidCall' || script.kind === 'dropStreamMidCall') {
      note(200);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const priming = script.kind === 'endSessionMidCall' ? 'id: 1\ndata: \n\n' : ': working\n\n';
      res.write(priming, () => {
        if (script.kind === 'endSessionMidCall' && sessionId !== undefined) sessions.delete(sessionId);
        res.end();
      });
      return;
    }
    note(200);
    json(res, 200, answer);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    log,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
