// The CLI against servers that are not OpenAI, as `node dist/cli.js`: SPROUT_AGENT_MODEL_COMPAT picks the
// dialect (a bad value exits 2 naming the variable), thinking streams as its own --json events and never
// as the answer, the readable output shows only the answer, and what an endpoint taught is remembered
// in the user's state folder for the next run (for that endpoint and model only).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply, startFakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { FakeResponse } from '../../fakes/openai/fakeOpenAiTypes';
import { streamed } from '../model/corpus/modelCase';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-models-');

function toolsConfig(): string {
  return writeMcpConfig(join(cli.dir, 'tools.mcp.json'), [hookServerMcpConfig('tools', hookServerConfig({ logFile: join(cli.dir, 'tools.log') }))]);
}

describe('model servers from the CLI', () => {
  it('a bad SPROUT_AGENT_MODEL_COMPAT exits 2 naming the variable and the values', async () => {
    const result = await runCli(['hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), SPROUT_AGENT_MODEL_COMPAT: 'claude' } });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SPROUT_AGENT_MODEL_COMPAT: expected one of auto, openai, azure, mistral, deepseek, gemini, ollama, lmstudio, gemma, generic, got "claude"/);
  });

  it('DeepSeek forced by SPROUT_AGENT_MODEL_COMPAT: --json has reasoning_delta events apart from the answer, and reasoning_content goes back', async () => {
    const fake = await cli.startFake({
      provider: 'deepseek',
      responses: [fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'ping' } }], { reasoning: 'Echo first.' }), fakeReply.text('Pong received.', { reasoning: 'It answered.' })],
    });
    const result = await runCli(['--json', '--mcp-config', toolsConfig(), 'ping it'], { env: { ...baseEnv(fake.url), SPROUT_AGENT_MODEL_COMPAT: 'deepseek' } });
    assert.equal(result.code, 0, result.stderr);
    const events = parseEvents(result.stdout);
    assert.equal(events.map((e) => (e.type === 'reasoning_delta' ? e.delta : '')).join(''), 'Echo first.It answered.');
    assert.equal(events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join(''), 'Pong received.');
    assert.equal(outcomeOf(events)?.reason, 'end_turn');
    const second = fake.chatRequests()[1]?.body as { messages: Array<{ role: string; reasoning_content?: string }> };
    assert.deepEqual(second.messages.filter((m) => m.role === 'assistant').map((m) => m.reasoning_content), ['Echo first.']);
    assertAllRequestsValid(fake.requests);
  });

  it('readable output prints the answer only, never the thinking', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('The answer is 4.', { reasoning: 'Two plus two.', reasoningAs: 'think_tags' })] });
    const result = await runCli(['--builtin-servers', '', 'add'], { env: baseEnv(fake.url) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /The answer is 4\./);
    assert.doesNotMatch(result.stdout + result.stderr, /Two plus two|<think>/);
  });

  // A lone </think> (DeepSeek-R1 distills on vLLM, https://github.com/vllm-project/vllm/issues/13125):
  // --json says the streamed text was thinking; readable output through a pipe holds each reply until
  // it is whole, so it never prints the thinking.
  it('a lone </think>: --json has text_reclassified for the text streamed before it, the piped readable output shows only the answer', async () => {
    const play = (): FakeResponse => streamed(['Two plus', ' two makes', ' four.\n', '</think>', '\n\nIt is 4.']);
    const fake = await cli.startFake({ responses: [play(), play()] });
    const json = await runCli(['--json', '--builtin-servers', '', 'add'], { env: baseEnv(fake.url) });
    assert.equal(json.code, 0, json.stderr);
    const events = parseEvents(json.stdout);
    const streamedText = events.filter((e) => e.type === 'text_delta' || e.type === 'text_reclassified' || e.type === 'reasoning_delta');
    assert.deepEqual(streamedText, [
      { type: 'text_delta', delta: 'Two plus' },
      { type: 'text_delta', delta: ' two makes' },
      { type: 'text_delta', delta: ' four.\n' },
      { type: 'text_reclassified', text: 'Two plus two makes four.\n' },
      { type: 'text_delta', delta: 'It is 4.' },
    ]);
    const answer = events.find((e) => e.type === 'message' && e.message.role === 'assistant');
    assert.ok(answer?.type === 'message' && answer.message.role === 'assistant');
    assert.equal(answer.message.content, 'It is 4.');
    assert.equal(answer.message.reasoning, 'Two plus two makes four.\n');
    const readable = await runCli(['--builtin-servers', '', 'add'], { env: baseEnv(fake.url) });
    assert.equal(readable.code, 0, readable.stderr);
    assert.match(readable.stdout, /^It is 4\.\n/);
    assert.doesNotMatch(readable.stdout + readable.stderr, /Two plus|think>/);
    assertAllRequestsValid(fake.requests);
  });

  it('a lesson survives to the next run and reaches no other endpoint: the run says it once, --json has model_adapted', async () => {
    const state = join(cli.dir, 'state');
    const env = (url: string) => ({ ...baseEnv(url), XDG_STATE_HOME: state });
    const gemma = await startFakeOpenAi({ rules: ['no-system-role'], responses: [fakeReply.text('first run'), fakeReply.text('second run')] });
    const plain = await startFakeOpenAi({ responses: [fakeReply.text('other endpoint')] });
    try {
      const first = await runCli(['--builtin-servers', '', 'hello'], { env: env(gemma.url) });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, /sending Sprout's instructions as the start of the first user message .*it said: System role not supported \(remembered for next time\)/);
      assert.equal(gemma.chatRequests().filter((r) => !r.valid).length, 1, 'one rejection taught it');
      const file = join(state, 'sprout-agent', 'model-adaptations.json');
      assert.match(readFileSync(file, 'utf8'), /instructions-as-user/);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const second = await runCli(['--json', '--builtin-servers', '', 'hello again'], { env: env(gemma.url) });
      assert.equal(second.code, 0, second.stderr);
      const adapted = parseEvents(second.stdout).filter((e) => e.type === 'model_adapted');
      assert.deepEqual(adapted.map((e) => (e.type === 'model_adapted' ? e.learnedFrom : '')), ['memory'], 'the next run starts in the right shape and says so');
      assert.equal(gemma.chatRequests().length, 3, 'the second run was not rejected');
      assert.equal((gemma.chatRequests()[2]?.body as { messages: Array<{ role: string }> }).messages[0]?.role, 'user');
      const other = await runCli(['--json', '--builtin-servers', '', 'hello'], { env: env(plain.url) });
      assert.equal(other.code, 0, other.stderr);
      assert.equal((plain.chatRequests()[0]?.body as { messages: Array<{ role: string }> }).messages[0]?.role, 'system', 'never leaks to another endpoint');
      assert.deepEqual(parseEvents(other.stdout).filter((e) => e.type === 'model_adapted'), []);
    } finally {
      await gemma.close();
      await plain.close();
    }
  });
});
