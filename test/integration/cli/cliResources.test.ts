// MCP resources through the real CLI (dist/) and the real reference server
// (@modelcontextprotocol/server-everything over stdio), with the fake model server asserting what
// arrived: the core's resource tools are offered once a server says it has resources, the listing names
// the server's static documents and its templates, a text resource is read whole, a blob is named by
// type and size and never inlined, a bad URI is an error naming the server. Without a server that has
// resources, the tools are not offered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { everythingFixture } from './cliRun';

const FEATURES = 'demo://resource/static/document/features.md';

const cli = everythingFixture('sprout-cli-resources-');

type Body = { messages: { role: string; content: string | null }[]; tools?: { function: { name: string } }[] };
const body = (index: number): Body => cli.fake?.chatRequests()[index]?.body as Body;
const offered = (index: number): string[] => body(index).tools?.map((t) => t.function.name) ?? [];
const lastToolText = (index: number): string => String(body(index).messages.filter((m) => m.role === 'tool').at(-1)?.content);
const call = (name: string, args: Record<string, unknown>) => fakeReply.toolCalls([{ name, arguments: args }]);

describe('MCP resources in the CLI with @modelcontextprotocol/server-everything', () => {
  it('the model lists the resources, reads a text one whole, and gets a blob named, not inlined', async () => {
    const fake = await cli.startFake({
      responses: [
        call('sprout__list_resources', {}),
        call('sprout__read_resource', { server: 'everything', uri: FEATURES }),
        call('sprout__read_resource', { server: 'everything', uri: 'demo://resource/dynamic/blob/7' }),
        call('sprout__read_resource', { server: 'everything', uri: 'demo://nowhere/at/all' }),
        call('sprout__read_resource', { server: 'elsewhere', uri: FEATURES }),
        fakeReply.text('done'),
      ],
    });
    const result = await runCli(['--json', '--cwd', cli.dir, '--mcp-config', cli.mcpConfig, 'what resources are there?'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(offered(0).includes('sprout__list_resources') && offered(0).includes('sprout__read_resource'), offered(0).join(', '));
    const listing = lastToolText(1);
    assert.match(listing, /^Server "?everything"?:/m);
    assert.match(listing, /- demo:\/\/resource\/static\/document\/features\.md \(features\.md; text\/markdown\)/);
    assert.match(listing, /- template demo:\/\/resource\/dynamic\/text\/\{resourceId\}/);
    const text = lastToolText(2);
    assert.match(text, /^Resource demo:\/\/resource\/static\/document\/features\.md \(text\/markdown\) of server "?everything"?:\n# Everything Server - Features/);
    const blob = lastToolText(3);
    assert.match(blob, /^Resource demo:\/\/resource\/dynamic\/blob\/7 \(text\/plain\) of server "?everything"?: binary, \d+ bytes, not shown\.$/);
    assert.doesNotMatch(blob, /This is a base64 blob/);
    assert.match(lastToolText(4), /^sprout__read_resource: resources\/read of demo:\/\/nowhere\/at\/all on MCP server "?everything"? failed: MCP error -32602: Resource demo:\/\/nowhere\/at\/all not found$/);
    assert.match(lastToolText(5), /no server "elsewhere" with resources\. Servers with resources: "?everything"?\./);
    const finished = parseEvents(result.stdout).filter((e): e is Extract<AgentEvent, { type: 'tool_finished' }> => e.type === 'tool_finished');
    assert.deepEqual(finished.map((e) => [e.name, e.isError]), [
      ['sprout__list_resources', false],
      ['sprout__read_resource', false],
      ['sprout__read_resource', false],
      ['sprout__read_resource', true],
      ['sprout__read_resource', true],
    ]);
  });

  it('--resource SERVER:URI attaches the resource to the prompt; a bad one is a usage error naming it', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('done')] });
    const config = ['--json', '--cwd', cli.dir, '--mcp-config', cli.mcpConfig];
    const result = await runCli([...config, '--resource', `everything:${FEATURES}`, 'summarise it'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    const user = String(body(0).messages.filter((m) => m.role === 'user').at(-1)?.content);
    assert.match(user, /^summarise it\n\nAttached: everything:demo:\/\/resource\/static\/document\/features\.md\n```\nResource demo:\/\/resource\/static\/document\/features\.md \(text\/markdown\) of server "everything":\n# Everything Server - Features\n/);
    const missing = await runCli([...config, '--resource', 'everything:demo://nowhere', 'summarise it'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /--resource everything:demo:\/\/nowhere: resources\/read of demo:\/\/nowhere on MCP server "everything" failed: MCP error -32602: Resource demo:\/\/nowhere not found/);
    const malformed = await runCli([...config, '--resource', 'features.md', 'summarise it'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(malformed.code, 2, malformed.stderr);
    assert.match(malformed.stderr, /--resource "features\.md": give SERVER:URI/);
    assert.equal(fake.chatRequests().length, 1, 'no model call for a run whose resource could not be attached');
  });

  it('without a server that has resources, the resource tools are not offered', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('done')] });
    const result = await runCli(['--json', '--cwd', cli.dir, 'hello'], { env: { ...baseEnv(fake.url), SPROUT_AGENT_BUILTIN_SERVERS: 'workspace' }, timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(offered(0).length > 0, 'the workspace server offers tools');
    assert.ok(!offered(0).some((name) => name.includes('resource')), offered(0).join(', '));
  });
});
