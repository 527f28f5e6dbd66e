// An attached resource that changes while the run goes on, through the real CLI (dist/) and the fake
// model server: `--resource` subscribes where the server offers it (said once on stderr), and after
// the server sends notifications/resources/updated the next round carries the new content, as a
// sprout__read_resource call and its result (MCP spec, resources/subscribe and
// notifications/resources/updated: https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions).
// The server is test/fakes/resourceUpdateServer.ts in both eras (resources/subscribe on the legacy one,
// a subscriptions/listen stream on 2026-07-28) and the reference server
// (@modelcontextprotocol/server-everything, whose toggle-subscriber-updates tool sends the updates).
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { baseEnv, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const SERVER = resolve(__dirname, '..', '..', 'fakes', 'resourceUpdateServer.ts');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FEATURES = 'demo://resource/static/document/features.md';

const cli = cliFixture('sprout-cli-resource-updates-', { checkRequests: true });

type Message = { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string };
const messages = (index: number): Message[] => (cli.fake?.chatRequests()[index]?.body as { messages: Message[] }).messages;

function memoConfig(name: string, env: Record<string, string> = {}): string {
  return writeMcpConfig(join(cli.dir, `${name}.json`), [{ name: 'memo', transport: { type: 'stdio', command: process.execPath, args: ['--import', pathToFileURL(require.resolve('tsx')).href, SERVER], env } }]);
}

/** The read the refresh put in the history: the call's arguments and its result. */
function refreshed(index: number): { args: unknown; text: string } | undefined {
  const all = messages(index);
  const call = all.flatMap((m) => m.tool_calls ?? []).find((c) => c.id.startsWith('sprout_resource_'));
  if (call === undefined) return undefined;
  return { args: JSON.parse(call.function.arguments), text: String(all.find((m) => m.tool_call_id === call.id)?.content) };
}

for (const protocol of ['legacy', '2026-07-28'] as const) {
  test(`a subscribed resource that changes: the next round carries its new content (protocol ${protocol})`, async () => {
    const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'memo__edit_note', arguments: { text: 'version 2' } }]), fakeReply.text('done')] });
    const env = { ...baseEnv(fake.url), SPROUT_AGENT_MCP_PROTOCOL: protocol, SPROUT_AGENT_STATE_HOME: join(cli.dir, `state-${protocol}`) };
    const result = await runCli(['--json', '--cwd', cli.dir, '--mcp-config', memoConfig(`memo-${protocol}`), '--resource', 'memo:memo://note', 'keep the note in mind'], { env, timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(String(messages(0).find((m) => m.role === 'user')?.content), /Attached: memo:memo:\/\/note\n```\nResource memo:\/\/note \(text\/plain\) of server "memo":\nversion 1\n```/);
    assert.equal(refreshed(0), undefined);
    const read = refreshed(1);
    assert.deepEqual(read?.args, { server: 'memo', uri: 'memo://note' });
    assert.match(read?.text ?? '', /^The attached resource changed; it now reads:\nResource memo:\/\/note \(text\/plain\) of server "memo":\nversion 2$/);
    const watch = parseEvents(result.stdout).filter((e): e is Extract<AgentEvent, { type: 'resource_watch' }> => e.type === 'resource_watch');
    assert.deepEqual(watch.map((e) => e.state), ['subscribed', 'updated']);
  });
}

test('a server without subscriptions: the resource is sent as attached, said once on stderr; no refresh', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'memo__edit_note', arguments: { text: 'version 2' } }]), fakeReply.text('done')] });
  const result = await runCli(['--cwd', cli.dir, '--mcp-config', memoConfig('memo-plain', { NO_SUBSCRIBE: '1' }), '--resource', 'memo:memo://note', 'keep the note in mind'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr.match(/--resource memo:memo:\/\/note: sent as attached \(the server offers no subscriptions\)/g)?.length, 1, result.stderr);
  assert.equal(refreshed(1), undefined);
});

test('the reference server (server-everything): its resources/updated after toggle-subscriber-updates refreshes the attached document', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'everything__toggle-subscriber-updates', arguments: {} }]), fakeReply.text('done')] });
  const config = writeMcpConfig(join(cli.dir, 'everything.json'), [{ name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} } }]);
  const result = await runCli(['--cwd', cli.dir, '--mcp-config', config, '--resource', `everything:${FEATURES}`, 'summarise it'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /--resource everything:demo:\/\/resource\/static\/document\/features\.md: watched; a change reaches the next round/);
  assert.match(refreshed(1)?.text ?? '', /^The attached resource changed; it now reads:\nResource demo:\/\/resource\/static\/document\/features\.md \(text\/markdown\) of server "everything":\n# Everything Server - Features/);
});
