/**
 * A hook server built on the v1 SDK (`@modelcontextprotocol/sdk` 1.x, which will never speak MCP
 * 2026-07-28), run as a real child process: what many servers in the wild still are. It has `echo`,
 * and a `_Stop` hook that objects with the text in V1_HOOK_SERVER_OBJECTION (empty: no objection).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export const V1_OBJECTION_ENV = 'V1_HOOK_SERVER_OBJECTION';

export function v1HookServer(objection: string): McpServer {
  const server = new McpServer({ name: 'v1-hook-server', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('_Stop', { description: 'Lifecycle hook: objects while the env says so.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: objection }] }));
  return server;
}

if (require.main === module) {
  v1HookServer(process.env[V1_OBJECTION_ENV] ?? '')
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      process.stderr.write(`v1 hook server: ${String(error)}\n`);
      process.exit(1);
    });
}
