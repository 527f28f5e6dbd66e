// The CLI against the real reference server (@modelcontextprotocol/server-everything over stdio):
// progress shown live and keeping a call alive past the idle timeout (but not past the max total), a
// task-required tool run as a task, a server's question declined by default and answered from an
// answers file, roots answered with --cwd, and isError results marked for the model.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { baseEnv, outcomeOf, runCli } from './cliHarness';
import { everythingFixture } from './cliRun';

const cli = everythingFixture('sprout-cli-everything-');
const { call, run } = cli;

describe('the CLI with @modelcontextprotocol/server-everything', () => {
  it('progress is reported live and keeps a call alive past the idle timeout', async () => {
    const { result, events, last } = await run([call('trigger-long-running-operation', { duration: 3, steps: 6 })], [], { SPROUT_AGENT_TOOL_TIMEOUT_MS: '1500' });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(last?.isError, false, last?.text);
    assert.match(last?.text ?? '', /Long running operation completed/);
    const progress = events.flatMap((e) => (e.type === 'tool_progress' ? [[e.progress, e.total]] : []));
    // The SDK handles notifications a tick after responses, so the report sent right before the
    // result can be dropped; the others arrive in order, each out of 6.
    assert.deepEqual(progress.slice(0, 5), [1, 2, 3, 4, 5].map((n) => [n, 6]));
    assert.equal(outcomeOf(events)?.reason, 'end_turn');
  });

  it('progress never extends a call past the max total', async () => {
    const { result, last } = await run([call('trigger-long-running-operation', { duration: 6, steps: 12 })], [], {
      SPROUT_AGENT_TOOL_TIMEOUT_MS: '1500',
      SPROUT_AGENT_TOOL_MAX_TOTAL_MS: '2000',
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(last?.isError, true);
    assert.match(last?.text ?? '', /still running after 2000 ms .* was cancelled/);
  });

  it('readable output shows the progress line', async () => {
    const fake = await cli.startFake({ responses: [call('trigger-long-running-operation', { duration: 1, steps: 3 }), fakeReply.text('done')] });
    const result = await runCli(['--cwd', cli.dir, '--mcp-config', cli.mcpConfig, 'go'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /-> everything__trigger-long-running-operation .*\n\.\. everything__trigger-long-running-operation 1\/3\n\.\. everything__trigger-long-running-operation 2\/3\n/);
  });

  it('a task-required tool runs as a task: status as progress, then the result', async () => {
    const { result, events, last } = await run([call('simulate-research-query', { topic: 'gardening' })]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(last?.isError, false, last?.text);
    assert.match(last?.text ?? '', /Research Report: gardening/);
    const messages = events.flatMap((e) => (e.type === 'tool_progress' && e.message !== undefined ? [e.message] : []));
    assert.ok(messages.some((m) => m.startsWith('working: ')), `task statuses reported: ${JSON.stringify(messages)}`);
  });

  it("a server's question is declined by default, and the CLI says so", async () => {
    const { result, events, last } = await run([call('trigger-elicitation-request')]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(last?.text ?? '', /declined/);
    const asked = events.find((e) => e.type === 'elicitation_requested');
    assert.ok(asked?.type === 'elicitation_requested' && asked.request.server === 'everything' && asked.request.message.length > 0);
    const answered = events.find((e) => e.type === 'elicitation_answered');
    assert.deepEqual(answered?.type === 'elicitation_answered' ? [answered.action, answered.by] : [], ['decline', 'policy']);
  });

  it('readable output says which server asked and that nobody could answer', async () => {
    const fake = await cli.startFake({ responses: [call('echo', { message: 'warm up' }), call('trigger-elicitation-request'), fakeReply.text('done')] });
    const result = await runCli(['--cwd', cli.dir, '--mcp-config', cli.mcpConfig, 'go'], { env: baseEnv(fake.url), timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /server everything asks: Please provide inputs/);
    assert.match(result.stderr, /declined the question of server everything \(nobody to ask; --elicitation FILE answers questions\)/);
  });

  it('--elicitation FILE answers the question when the answers fit the form', async () => {
    const answers = join(cli.dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', integer: 7, untitledMultipleSelectEnum: ['Piano'] }));
    const { result, events, last } = await run([call('trigger-elicitation-request')], ['--elicitation', answers]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(last?.text ?? '', /- Name: Ada Lovelace/);
    assert.match(last?.text ?? '', /- Favorite Integer: 7/);
    const answered = events.find((e) => e.type === 'elicitation_answered');
    assert.equal(answered?.type === 'elicitation_answered' ? answered.action : undefined, 'accept');
  });

  it('--elicitation off does not declare the capability, so the server does not offer its asking tool', async () => {
    const { events } = await run([], ['--elicitation', 'off']);
    const offered = (cli.fake?.chatRequests().at(-1)?.body as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name) ?? [];
    assert.ok(offered.includes('everything__echo'));
    assert.ok(!offered.includes('everything__trigger-elicitation-request'), offered.join(', '));
    assert.equal(outcomeOf(events)?.reason, 'end_turn');
  });

  it('roots/list is answered with the --cwd folder', async () => {
    const { result, last } = await run([call('get-roots-list')]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(last?.text.includes(pathToFileURL(cli.dir).href), last?.text);
  });

  it('an isError result reaches the model marked as an error', async () => {
    const { last } = await run([call('get-sum', { a: 'not a number', b: 2 })]);
    assert.equal(last?.isError, true);
    assert.match(last?.text ?? '', /^Error/);
    const toolMessages = (cli.fake?.chatRequests().at(-1)?.body as { messages: { role: string; content?: string }[] }).messages.filter((m) => m.role === 'tool');
    assert.match(toolMessages.at(-1)?.content ?? '', /^Error/);
  });
});
