// A huge tool result does not kill its server: 20 MB of text (twice the MCP SDK's read buffer) is read,
// the model gets it cut to the tool-result cap with the marker saying how much was cut, and the run ends
// normally with the server never restarted. Only a server that floods past the hard limit (one line of
// more than 64 MiB) is stopped, and the model and the user are told which limit it passed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { exitCodeForOutcome } from '../../../src/runtime/exitCodes';
import { fakeReply, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, type HookBehaviour } from '../../fakes/hookServer';
import { baseEnv, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-large-');

const SLOW = { timeoutMs: 240_000 };
const env = (url: string): Record<string, string> => ({ ...baseEnv(url), SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' });

function serverWith(name: string, behaviour: HookBehaviour): string {
  return writeMcpConfig(join(cli.dir, `${name}.json`), [hookServerMcpConfig(name, hookServerConfig({ extraTools: [{ name: 'produce', behaviour }] }))]);
}

const toolMessage = (fakeServer: FakeOpenAi): string =>
  String((fakeServer.chatRequests()[1]?.body as { messages: { role: string; content?: unknown }[] }).messages.find((m) => m.role === 'tool')?.content);

test('a 20 MB result reaches the model capped with its marker; the server lives on', async () => {
  const bytes = 20 * 1024 * 1024;
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'big__produce', arguments: {} }]), fakeReply.text('read it')] });
  const result = await runCli(['--json', '--mcp-config', serverWith('big', { kind: 'bigText', bytes }), 'produce'], { env: env(fake.url), ...SLOW });
  assert.equal(result.code, 0, result.stderr);
  const events = parseEvents(result.stdout);
  assert.deepEqual(
    events.filter((e) => e.type === 'server_error' || e.type === 'server_killed' || e.type === 'server_restarted'),
    [],
    'the server was neither stopped nor restarted',
  );
  const content = toolMessage(fake);
  assert.ok(content.startsWith('xxxx'), content.slice(0, 100));
  assert.match(content, /\n\[result truncated: (\d+) more characters\]$/);
  assert.equal(Number(/(\d+) more characters/.exec(content)?.[1]), bytes - content.indexOf('\n[result truncated'), 'the marker counts what was cut');
  assert.equal(outcomeOf(events)?.reason, 'end_turn');
});

test('a line past the hard limit stops that server, and both the model and the user read which limit', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'flood__produce', arguments: {} }]), fakeReply.text('gave up')] });
  const result = await runCli(['--json', '--mcp-config', serverWith('flood', { kind: 'floodLine', bytes: 70 * 1024 * 1024 }), 'produce'], { env: env(fake.url), ...SLOW });
  const events = parseEvents(result.stdout);
  const outcome = events.filter((e) => e.type === 'outcome').at(-1);
  assert.ok(outcome?.type === 'outcome');
  assert.equal(result.code, exitCodeForOutcome(outcome.outcome), result.stderr);
  assert.match(toolMessage(fake), /stopped by Sprout: it sent a message of more than 64 MiB .* the most one message may hold/);
  const reported = events.find((e) => e.type === 'server_error');
  assert.ok(reported?.type === 'server_error' && /more than 64 MiB/.test(reported.message), JSON.stringify(reported));
});
