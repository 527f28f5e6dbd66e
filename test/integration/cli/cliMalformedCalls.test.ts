// A tool call whose arguments are not a JSON object does not end the run: against an endpoint that
// parses every earlier call's arguments (the fake playing vLLM, which answers 400 otherwise) the model
// is told what it sent and why the call did not run, the history sent back holds `{}` in its place,
// and the model's retry runs. A session file written before this rule (holding such a call) is
// repaired when resumed, so it too is accepted.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-malformed-');

const SLOW = { timeoutMs: 180_000 };
const CUT_OFF = '{"text": "half a str';

type WireMessage = { role: string; content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
const messagesOf = (fakeServer: FakeOpenAi, index: number): WireMessage[] => (fakeServer.chatRequests()[index]?.body as { messages: WireMessage[] }).messages;

test('a call with arguments that are not JSON is refused to the model, `{}` goes on the wire, and the retry runs', async () => {
  const fake = await cli.startFake({
    provider: 'vllm',
    responses: [
      fakeReply.toolCalls([{ name: 'srv__echo', arguments: CUT_OFF }]),
      fakeReply.toolCalls([{ name: 'srv__echo', arguments: { text: 'second try' } }]),
      fakeReply.text('echoed'),
    ],
  });
  const log = join(cli.dir, 'echo.log');
  const mcp = writeMcpConfig(join(cli.dir, 'echo.json'), [hookServerMcpConfig('srv', hookServerConfig({ logFile: log }))]);
  const result = await runCli(['--json', '--mcp-config', mcp, 'echo something'], { env: { ...baseEnv(fake.url), SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: '120000' }, ...SLOW });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(outcomeOf(parseEvents(result.stdout))?.reason, 'end_turn');
  assert.ok(fake.chatRequests().every((r) => r.outcome !== 'rejected'), 'the endpoint accepted every request');
  assertAllRequestsValid(fake.requests);

  const second = messagesOf(fake, 1);
  const call = second.find((m) => m.role === 'assistant')?.tool_calls?.[0];
  assert.equal(call?.function.arguments, '{}', 'the history carries an empty object in place of the broken text');
  const answer = second.find((m) => m.role === 'tool')?.content ?? '';
  assert.match(answer, /^invalid arguments for srv__echo: the arguments were not valid JSON \(.+\), so the call did not run\./);
  assert.ok(answer.includes(`The arguments you sent: ${CUT_OFF}`), answer);
  const calls = readHookServerLog(log).filter((e) => e.type === 'call');
  assert.deepEqual(calls.map((c) => c.arguments), [{ text: 'second try' }], 'only the retry reached the server');
});

test('a session saved with such a call is repaired on resume and the endpoint accepts it', async () => {
  const fake = await cli.startFake({ provider: 'vllm', responses: [fakeReply.text('resumed fine')] });
  const session = join(cli.dir, 'old.jsonl');
  const at = Date.now();
  const records = [
    { type: 'session_started', sessionId: 'cli-old-session', resumed: false },
    { type: 'message', message: { role: 'user', content: 'first' } },
    { type: 'message', message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'srv__echo', arguments: CUT_OFF }] } },
    { type: 'message', message: { role: 'tool', toolCallId: 'call_1', content: 'invalid arguments' } },
    { type: 'message', message: { role: 'assistant', content: 'gave up' } },
  ];
  writeFileSync(session, records.map((event) => `${JSON.stringify({ at, event })}\n`).join(''), { mode: 0o600 });
  const result = await runCli(['--json', '--session', session, 'go on'], { env: baseEnv(fake.url), ...SLOW });
  assert.equal(result.code, 0, result.stderr);
  const call = messagesOf(fake, 0).find((m) => m.role === 'assistant' && m.tool_calls !== undefined)?.tool_calls?.[0];
  assert.equal(call?.function.arguments, '{}');
  assertAllRequestsValid(fake.requests);
});
