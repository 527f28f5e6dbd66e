// MCP sampling in the CLI against the real reference server (@modelcontextprotocol/server-everything
// over stdio, its `trigger-sampling-request` tool): with --allow-sampling the server's request reaches
// the fake model server as one call without tools (what it received is asserted) and the reply returns
// to the tool; without the flag the server gets an MCP error naming the flag; 1M maxTokens is capped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { SAMPLING_MAX_TOKENS } from '../../../src/mcp/sampling';
import { fakeReply, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { baseEnv, outcomeOf, parseEvents, runCli } from './cliHarness';
import { everythingFixture } from './cliRun';

const cli = everythingFixture('sprout-cli-sampling-');
const { call } = cli;

interface ChatBody {
  model: string;
  max_tokens?: number;
  tools?: unknown[];
  messages: { role: string; content: unknown }[];
}

/** Round 1 echoes (the server registers its tools after initialize); `sampled` answers the sampling call when it comes. */
async function run(args: Record<string, unknown>, extraArgs: string[], sampled?: FakeResponse) {
  const outcome = await cli.run([call('trigger-sampling-request', args), ...(sampled ? [sampled] : [])], extraArgs);
  const bodies = cli.fake?.chatRequests().map((r) => r.body as ChatBody) ?? [];
  return { ...outcome, bodies };
}

function answered(events: AgentEvent[]): Extract<AgentEvent, { type: 'sampling_answered' }> | undefined {
  return events.find((e): e is Extract<AgentEvent, { type: 'sampling_answered' }> => e.type === 'sampling_answered');
}

describe('MCP sampling in the CLI with @modelcontextprotocol/server-everything', () => {
  it('--allow-sampling: the request reaches the model as one call without tools, and the reply returns to the tool', async () => {
    const { result, events, last, bodies } = await run({ prompt: 'a haiku about moss', maxTokens: 64 }, ['--allow-sampling', 'everything'], fakeReply.text('Moss keeps the stone warm', { usage: { prompt_tokens: 21, completion_tokens: 6 } }));
    assert.equal(result.code, 0, result.stderr);
    // Requests: echo round, sampling-tool round, the sampling call itself, the final round.
    assert.equal(bodies.length, 4);
    const sampling = bodies[2];
    assert.ok(sampling !== undefined);
    assert.equal(sampling.model, 'fake-model');
    assert.equal(sampling.max_tokens, 64);
    assert.equal(sampling.tools, undefined, 'a sampling call carries no tools');
    assert.deepEqual(
      sampling.messages.map((m) => [m.role, m.content]),
      [
        ['system', 'You are a helpful test server.'],
        ['user', 'Resource trigger-sampling-request context: a haiku about moss'],
      ],
    );
    assert.equal(last?.isError, false, last?.text);
    assert.match(last?.text ?? '', /Moss keeps the stone warm/);
    assert.match(last?.text ?? '', /"model": "fake-model"/);
    const asked = events.find((e) => e.type === 'sampling_requested');
    assert.ok(asked?.type === 'sampling_requested' && asked.request.server === 'everything' && asked.request.maxTokens === 64 && asked.request.cappedTo === undefined);
    const done = answered(events);
    assert.deepEqual([done?.outcome, done?.by, done?.model, done?.usage?.totalTokens], ['answered', 'policy', 'fake-model', 27]);
    // --json's usage_total (just before the outcome) counts the sampling tokens apart from the agent's own calls.
    const total = (events as unknown[]).find((e): e is { type: 'usage_total'; sampling: { totalTokens: number; requests: number }; model: { calls: number }; totalTokens: number } => (e as { type?: string }).type === 'usage_total');
    assert.deepEqual([total?.sampling.totalTokens, total?.sampling.requests, total?.model.calls], [27, 1, 3]);
    assert.ok(total !== undefined && total.totalTokens >= 27, JSON.stringify(total));
    assert.equal(outcomeOf(events)?.reason, 'end_turn');
  });

  it('without --allow-sampling the server gets an MCP error that names the flag, and the model is not called for it', async () => {
    const { result, events, last, bodies } = await run({ prompt: 'anything' }, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(bodies.length, 3, 'no sampling call reached the model');
    assert.match(last?.text ?? '', /--allow-sampling everything/);
    const done = answered(events);
    assert.deepEqual([done?.outcome, done?.by], ['refused', 'policy']);
  });

  it('readable output says which server asked and that it was refused', async () => {
    const fake = await cli.startFake({ responses: [call('echo', { message: 'warm up' }), call('trigger-sampling-request', { prompt: 'x' }), fakeReply.text('done')] });
    const result = await runCli(['--cwd', cli.dir, '--mcp-config', cli.mcpConfig, 'go'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /server everything asks the model for a reply \(sampling, maxTokens 100\)/);
    assert.match(result.stderr, /refused the sampling request of server everything \(--allow-sampling everything allows it\)/);
  });

  it('a request for 1M tokens is capped, and the cap is said to the server and in the event', async () => {
    const { result, events, last, bodies } = await run({ prompt: 'everything you know', maxTokens: 1_000_000 }, ['--allow-sampling', 'everything'], fakeReply.text('short'));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(bodies[2]?.max_tokens, SAMPLING_MAX_TOKENS);
    const asked = events.find((e) => e.type === 'sampling_requested');
    assert.ok(asked?.type === 'sampling_requested' && asked.request.maxTokens === 1_000_000 && asked.request.cappedTo === SAMPLING_MAX_TOKENS);
    assert.match(answered(events)?.message ?? '', new RegExp(`maxTokens 1000000 was capped to ${SAMPLING_MAX_TOKENS}`));
    assert.match(last?.text ?? '', new RegExp(`maxTokens 1000000 was capped to ${SAMPLING_MAX_TOKENS}`), 'the server sees the note in the result _meta');
  });

  it('--allow-sampling naming no server of the run is a usage error', async () => {
    const fake = await cli.startFake({ responses: [] });
    const result = await runCli(['--cwd', cli.dir, '--mcp-config', cli.mcpConfig, '--allow-sampling', 'everythin', 'go'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--allow-sampling everythin: no server of that name \(this run's servers: everything\)/);
  });
});

describe('URL-mode elicitation in the CLI with @modelcontextprotocol/server-everything', () => {
  it('prints the URL, and declines when there is no terminal to ask on', async () => {
    const fake = await cli.startFake({
      responses: [call('echo', { message: 'warm up' }), call('trigger-url-elicitation', { url: 'https://example.com/consent?x=1', message: 'Grant access' }), fakeReply.text('done')],
    });
    const result = await runCli(['--json', '--cwd', cli.dir, '--mcp-config', cli.mcpConfig, 'go'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /MCP server "?everything"? asks you to open this URL \(Grant access\):\n {2}https:\/\/example\.com\/consent\?x=1\n/);
    assert.match(result.stderr, /declined \(no terminal to ask on\)/);
    const events = parseEvents(result.stdout);
    const asked = events.find((e): e is Extract<AgentEvent, { type: 'url_elicitation' }> => e.type === 'url_elicitation');
    assert.deepEqual([asked?.server, asked?.url, asked?.action, asked?.by], ['everything', 'https://example.com/consent?x=1', 'decline', 'policy']);
    const last = events.filter((e): e is Extract<AgentEvent, { type: 'tool_finished' }> => e.type === 'tool_finished').at(-1);
    assert.match(last?.text ?? '', /decline/);
  });

  it('a URL that is not http(s) is declined before anyone is asked, and said', async () => {
    const fake = await cli.startFake({ responses: [call('echo', { message: 'warm up' }), call('trigger-url-elicitation', { url: 'file:///etc/passwd' }), fakeReply.text('done')] });
    const result = await runCli(['--json', '--cwd', cli.dir, '--mcp-config', cli.mcpConfig, 'go'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /asks you to open this URL/);
    const events = parseEvents(result.stdout);
    assert.ok(events.some((e) => e.type === 'server_error' && /not http\(s\) \(file:\/\/\/etc\/passwd\); it was declined/.test(e.message)));
    const asked = events.find((e) => e.type === 'url_elicitation');
    assert.equal(asked?.type === 'url_elicitation' ? asked.action : undefined, 'decline');
  });
});
