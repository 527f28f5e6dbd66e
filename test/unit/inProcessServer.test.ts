// An in-process server (the editor's, in the extension) reached through McpHub like any other: the
// SDK's linked in-memory pair, a fresh SDK server per connection, tools listed with their annotations,
// calls answered, and a kill that starts it afresh on next use.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { McpHub } from '../../src/mcp/mcpHub';

function inProcess(name: string, onConnect: () => void) {
  return {
    name,
    transport: {
      type: 'inProcess' as const,
      connect: async () => {
        onConnect();
        const server = new McpServer({ name: 'in-process', version: '1.0.0' });
        server.registerTool('echo', { description: 'echo', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } }, (args) => ({ content: [{ type: 'text', text: `echo: ${args.text}` }] }));
        const [client, end] = InMemoryTransport.createLinkedPair();
        await server.connect(end);
        return client;
      },
    },
  };
}

test('an in-process server lists, answers, and starts afresh after a kill', async () => {
  let connects = 0;
  const hub = new McpHub([inProcess('editor', () => connects++)], { restart: { initialDelayMs: 1, maxDelayMs: 1 } });
  try {
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => [t.server, t.bareName, t.annotations?.readOnlyHint]), [['editor', 'echo', true]]);
    const result = await hub.callTool('editor', 'echo', { text: 'hi' }, { signal: new AbortController().signal });
    assert.deepEqual([result.isError, result.text], [false, 'echo: hi']);
    assert.equal(hub.status()[0]?.transport, 'inProcess');
    await hub.killServer('editor', 'test');
    const again = await hub.callTool('editor', 'echo', { text: 'again' }, { signal: new AbortController().signal });
    assert.equal(again.text, 'echo: again');
    assert.equal(connects, 2);
  } finally {
    await hub.close();
  }
});
