// The core's side of MCP prompts as slash commands (src/agent/mcpPrompts.ts): the name
// (/mcp.SERVER.PROMPT, VS Code's form; Claude Code's /mcp__SERVER__PROMPT read too), arguments from
// the typed text (declared order, the last taking the rest, name=value) and from inputs, required ones
// missing, the prompt a prompts/get answer becomes, and a server's words escaped in its failure.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { findMcpPrompt, isMcpCommand, mcpCommandName, mcpPromptArguments, mcpPromptFailure, mcpPromptText, typeableMcpPrompt, unknownMcpPromptMessage, type McpPromptInfo } from '../../../src/agent/mcpPrompts';
import { parseSlash } from '../../../src/agent/promptCommands';

const weather: McpPromptInfo = { server: 'everything', name: 'args-prompt', description: 'A prompt', arguments: [{ name: 'city', description: 'Name of the city', required: true }, { name: 'state', required: false }] };
const review: McpPromptInfo = { server: 'gh', name: 'review', arguments: [{ name: 'task', required: true }] };

test('names: /mcp.server.prompt, typed as a slash command; the Claude Code form finds the same prompt; a name with a dot or a space is not offered', () => {
  assert.equal(mcpCommandName(weather), 'mcp.everything.args-prompt');
  assert.deepEqual(parseSlash('/mcp.everything.args-prompt Paris'), { name: 'mcp.everything.args-prompt', args: 'Paris' });
  assert.equal(findMcpPrompt('mcp.everything.args-prompt', [review, weather]), weather);
  assert.equal(findMcpPrompt('mcp__everything__args-prompt', [review, weather]), weather);
  assert.equal(findMcpPrompt('mcp.everything.review', [review, weather]), undefined);
  assert.ok(isMcpCommand('mcp.a.b') && isMcpCommand('mcp__a__b'));
  assert.ok(!isMcpCommand('mcp') && !isMcpCommand('mcpfix') && !isMcpCommand('fix-tests'));
  assert.ok(!typeableMcpPrompt({ server: 'a.b', name: 'c' }) && !typeableMcpPrompt({ server: 'a', name: 'two words' }));
});

test('arguments: declared order, quotes kept together, the last one takes the rest, name=value by name, inputs over typed words', () => {
  assert.deepEqual(mcpPromptArguments(weather, 'Paris Texas'), { ok: true, values: { city: 'Paris', state: 'Texas' } });
  assert.deepEqual(mcpPromptArguments(weather, '"San Francisco" California'), { ok: true, values: { city: 'San Francisco', state: 'California' } });
  assert.deepEqual(mcpPromptArguments(review, 'fix the login bug'), { ok: true, values: { task: 'fix the login bug' } });
  assert.deepEqual(mcpPromptArguments(weather, 'state=Texas Paris'), { ok: true, values: { state: 'Texas', city: 'Paris' } });
  assert.deepEqual(mcpPromptArguments(weather, 'Texas', { city: 'Paris' }), { ok: true, values: { state: 'Texas', city: 'Paris' } });
  // An input the prompt does not declare is not sent to the server.
  assert.deepEqual(mcpPromptArguments(weather, '', { city: 'Oslo', other: 'x' }), { ok: true, values: { city: 'Oslo' } });
});

test('a required argument nothing gave is missing, with its description; an optional one is not', () => {
  assert.deepEqual(mcpPromptArguments(weather, ''), { ok: false, missing: [{ name: 'city', placeholder: 'Name of the city' }], values: {} });
  assert.deepEqual(mcpPromptArguments(weather, 'state=Texas', { city: '' }), { ok: false, missing: [{ name: 'city', placeholder: 'Name of the city' }], values: { state: 'Texas', city: '' } });
});

test('the prompt: text in order, an assistant message marked, an embedded resource\'s text, images as parts, the rest left out and said', () => {
  const png = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
  const out = mcpPromptText(weather, [
    { role: 'user', content: { type: 'text', text: 'Look at this:' } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A text' } } },
    { role: 'assistant', content: { type: 'text', text: 'Noted.' } },
    { role: 'user', content: png },
    { role: 'user', content: { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } } },
    { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
  ]);
  assert.equal(out.text, 'Look at this:\n\nResource file:///a.txt:\nA text\n\n(assistant) Noted.');
  assert.deepEqual(out.images, [{ mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'image 1 from /mcp.everything.args-prompt' }]);
  assert.deepEqual(out.skipped, ['the binary resource file:///b.bin', 'a part of type audio']);
});

test('a server\'s failure names the command and the server; its words are escaped and capped', () => {
  const message = mcpPromptFailure({ server: 'evil\u202e', name: 'p' }, `no\u001b[31m way\n${'x'.repeat(600)}`);
  assert.match(message, /^\/mcp\.evil\\u202e\.p: MCP server "evil\\u202e" answered prompts\/get with an error: no\\u001b\[31m way x+\.\.\.$/);
  assert.ok(!message.includes('\u001b') && !message.includes('\u202e'));
  assert.ok(message.length < 700);
});

test('an unknown prompt names the server\'s own, or all, or none', () => {
  assert.match(unknownMcpPromptMessage('mcp.everything.nope', [weather, review]), /MCP server "everything" lists: \/mcp\.everything\.args-prompt\.$/);
  assert.match(unknownMcpPromptMessage('mcp.other.nope', [weather, review]), /The servers list: \/mcp\.everything\.args-prompt, \/mcp\.gh\.review\.$/);
  assert.match(unknownMcpPromptMessage('mcp.other.nope', []), /No connected MCP server lists prompts\.$/);
});
