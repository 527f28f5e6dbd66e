// MCP prompts through the hub against a real stdio server (test/fakes/promptListServer.ts), in both
// protocol eras: prompts are listed only from servers that are up (or the ones asked to start), with
// their arguments; prompts/get gives the messages; completion/complete suggests values; a refusal is
// named with the server and its words escaped; and notifications/prompts/list_changed reaches the
// hub's listeners, after which the new prompt is listed.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { McpServerConfig } from '../../../src/mcp/config';
import { waitFor } from './mcpHarness';

const SERVER = resolve(__dirname, '..', '..', 'fakes', 'promptListServer.ts');
const config: McpServerConfig = { name: 'notes', transport: { type: 'stdio', command: process.execPath, args: ['--import', pathToFileURL(require.resolve('tsx')).href, SERVER], env: {} } };

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

for (const protocol of ['legacy', 'auto'] as const) {
  describe(`MCP prompts through the hub (protocol ${protocol})`, () => {
    it('lists, gets, completes, refuses and follows list_changed', async () => {
      hub = new McpHub([config], { protocol, closeGraceMs: 300 });
      assert.deepEqual(await hub.listPrompts(), [], 'a server that is not up is not started for the list');
      const listed = await hub.listPrompts(['notes']);
      assert.equal(hub.status()[0]?.era, protocol === 'auto' ? 'modern' : 'legacy');
      const review = listed.find((p) => p.name === 'review');
      assert.deepEqual(review, { server: 'notes', name: 'review', description: 'Review a topic', arguments: [{ name: 'topic', description: 'What to review', required: true }, { name: 'depth', required: false }] });
      assert.deepEqual((await hub.listPrompts()).map((p) => p.name).sort(), ['refuse', 'review'], 'once up, it is listed');
      assert.deepEqual(await hub.getPrompt({ server: 'notes', name: 'review' }, { topic: 'security', depth: 'deep' }), [{ role: 'user', content: { type: 'text', text: 'Review the security (deep).' } }]);
      assert.deepEqual(await hub.completePrompt({ server: 'notes', name: 'review' }, { name: 'topic', value: 's' }, {}), ['security', 'speed', 'style']);
      await assert.rejects(hub.getPrompt({ server: 'notes', name: 'refuse' }, {}), (error: Error) => {
        assert.match(error.message, /^\/mcp\.notes\.refuse: MCP server "notes" answered prompts\/get with an error: .*denied\\u001b\[2J\\u202e by policy/);
        assert.ok(!error.message.includes('\u001b') && !error.message.includes('\u202e'));
        return true;
      });
      const changed: string[] = [];
      hub.onPromptsChanged((server) => changed.push(server));
      await hub.callTool('notes', 'add_prompt', {}, { signal: new AbortController().signal });
      await waitFor(() => changed.includes('notes'), 'notifications/prompts/list_changed from notes');
      assert.ok((await hub.listPrompts()).some((p) => p.name === 'second'));
    });
  });
}
