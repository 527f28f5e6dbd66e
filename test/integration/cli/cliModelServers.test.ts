// The CLI against servers that are not OpenAI, as `node dist/cli.js`: SPROUT_AGENT_MODEL_COMPAT picks the
// dialect (a bad value exits 2 naming the variable), thinking streams as its own --json events and never
// as the answer, and the readable output shows only the answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';

let fake: FakeOpenAi | undefined;
let dir: string;
before(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-models-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function toolsConfig(): string {
  return writeMcpConfig(join(dir, 'tools.mcp.json'), [hookServerMcpConfig('tools', hookServerConfig({ logFile: join(dir, 'tools.log') }))]);
}

describe('model servers from the CLI', () => {
  it('a bad SPROUT_AGENT_MODEL_COMPAT exits 2 naming the variable and the values', async () => {
    const result = await runCli(['hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), SPROUT_AGENT_MODEL_COMPAT: 'claude' } });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SPROUT_AGENT_MODEL_COMPAT: expected one of auto, openai, azure, mistral, deepseek, gemini, ollama, generic, got "claude"/);
  });

  it('DeepSeek forced by SPROUT_AGENT_MODEL_COMPAT: --json has reasoning_delta events apart from the answer, and reasoning_content goes back', async () => {
    fake = await startFakeOpenAi({
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
    fake = await startFakeOpenAi({ responses: [fakeReply.text('The answer is 4.', { reasoning: 'Two plus two.', reasoningAs: 'think_tags' })] });
    const result = await runCli(['--builtin-servers', '', 'add'], { env: baseEnv(fake.url) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /The answer is 4\./);
    assert.doesNotMatch(result.stdout + result.stderr, /Two plus two|<think>/);
  });
});
