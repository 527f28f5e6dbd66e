/**
 * A hook server on the v2 SDK over Streamable HTTP on 127.0.0.1 (`createMcpHandler`, served through
 * `@modelcontextprotocol/node`): `echo` and a `_Stop` hook objecting with the given text. `legacy:
 * 'reject'` serves only MCP 2026-07-28; `'stateless'` (the SDK's default) serves both eras.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface HttpHookServer {
  url: string;
  /** The eras of the requests it served, in order (`modern`, `legacy`). */
  eras: string[];
  close(): Promise<void>;
}

export async function startHttpHookServer(objection: string, legacy: 'reject' | 'stateless'): Promise<HttpHookServer> {
  const eras: string[] = [];
  const handler = createMcpHandler(
    ({ era }) => {
      eras.push(era);
      const server = new McpServer({ name: 'http-hooks', version: '1.0.0' });
      server.registerTool('echo', { description: 'Echoes its text.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
      server.registerTool('_Stop', { description: 'Lifecycle hook.', inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: objection }] }));
      return server;
    },
    { legacy },
  );
  const node = toNodeHandler(handler);
  const http: HttpServer = createServer((req, res) => void node(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    eras,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await handler.close?.();
    },
  };
}
