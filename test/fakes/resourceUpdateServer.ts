/**
 * A stdio MCP server whose resource changes, for the attached-resource refresh tests: `memo://note`
 * reads "version 1" until the tool `edit_note` sets its text, and then the server sends
 * `notifications/resources/updated` for it (to a subscriber: after `resources/subscribe` on the legacy
 * era, on the `subscriptions/listen` stream on the modern one). With NO_SUBSCRIBE=1 it offers no
 * subscriptions. With REQUEST_LOG set, each legacy `resources/subscribe` and `resources/unsubscribe`
 * is appended to that file as a JSON line (method, uri, pid). Served in both eras by the SDK's serveStdio.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { appendFileSync } from 'node:fs';
import { z } from 'zod';

const NOTE = 'memo://note';
let text = 'version 1';
const subscribe = process.env.NO_SUBSCRIBE !== '1';

function logged(method: string, uri: string): Record<string, never> {
  const log = process.env.REQUEST_LOG;
  if (log !== undefined && log !== '') appendFileSync(log, `${JSON.stringify({ method, uri, pid: process.pid })}\n`);
  return {};
}

function build(): McpServer {
  const server = new McpServer({ name: 'resource-update-server', version: '1.0.0' }, { capabilities: { resources: { subscribe }, tools: {} } });
  server.registerResource('note', NOTE, { mimeType: 'text/plain', description: 'A note that changes' }, () => ({ contents: [{ uri: NOTE, mimeType: 'text/plain', text }] }));
  if (subscribe) {
    // The legacy era's request; the modern era's subscriptions/listen is served by serveStdio.
    server.server.setRequestHandler('resources/subscribe', (request) => logged('resources/subscribe', request.params.uri));
    server.server.setRequestHandler('resources/unsubscribe', (request) => logged('resources/unsubscribe', request.params.uri));
  }
  server.registerTool('edit_note', { description: 'Sets the note\'s text', inputSchema: z.object({ text: z.string() }) }, async (args) => {
    text = args.text;
    await server.server.sendResourceUpdated({ uri: NOTE });
    return { content: [{ type: 'text', text: 'edited' }] };
  });
  return server;
}

serveStdio(build);
