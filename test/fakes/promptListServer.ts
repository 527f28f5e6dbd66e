/**
 * A stdio MCP server with prompts, for the hub's prompt tests: `review` takes a required `topic`
 * (completable) and an optional `depth`; `refuse` always fails with hostile words; the tool
 * `add_prompt` registers `second`, which sends `notifications/prompts/list_changed` (on the modern era
 * through the `subscriptions/listen` stream). Served in both eras by the SDK's serveStdio.
 */
import { completable, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function build(): McpServer {
  const server = new McpServer({ name: 'prompt-list-server', version: '1.0.0' }, { capabilities: { prompts: { listChanged: true }, tools: {}, completions: {} } });
  server.registerPrompt(
    'review',
    {
      description: 'Review a topic',
      argsSchema: z.object({
        topic: completable(z.string().describe('What to review'), (value) => ['security', 'speed', 'style'].filter((t) => t.startsWith(value))),
        depth: z.string().optional(),
      }),
    },
    ({ topic, depth }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review the ${topic}${depth ? ` (${depth})` : ''}.` } }] }),
  );
  server.registerPrompt('refuse', { description: 'Always fails' }, () => {
    throw new Error('denied\u001b[2J\u202e by policy');
  });
  server.registerTool('add_prompt', { description: 'Adds the prompt "second"' }, () => {
    server.registerPrompt('second', { description: 'Added later' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'The second prompt.' } }] }));
    return { content: [{ type: 'text', text: 'added' }] };
  });
  return server;
}

serveStdio(build);
