// `--mode agent|ask|plan` and `--approve-plan`, driven as a user would: `node dist/cli.js` with the
// bundled workspace and todo servers against the fake OpenAI server, which records every request. Ask
// offers no tool that writes or runs (asserted on the request the fake received) and refuses a call to
// one without running it; Plan adds its system text; an approved plan becomes the todo list and the todo
// `_Stop` objects while a step is open; a plan with no steps and a bad --mode exit 2, saying why.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { outcomeOf, parseEvents, runCli } from './cliHarness';
import type { AgentEvent } from '../../../src/agent/events';
import { cliFixture, systemText, toolNames } from './cliRun';

const cli = cliFixture('sprout-cli-modes-');
const started = (events: AgentEvent[]): AgentEvent | undefined => events.find((e) => e.type === 'prompt_started');

describe('--mode', () => {
  it('ask: the request offers only read-only tools; a call to write_file is refused, not run; --json says the mode', async () => {
    const fake = await cli.startFake({
      responses: [fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'notes.txt', content: 'written' } }]), fakeReply.text('I can only read here.')],
    });
    const run = await runCli(['--json', '--mode', 'ask', 'write notes.txt'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    const offered = toolNames(cli.requestAt(0));
    assert.deepEqual(offered, ['workspace__list_files', 'workspace__read_file', 'workspace__search_text']);
    for (const writing of ['workspace__write_file', 'workspace__edit_file', 'workspace__run_command', 'todo__todo']) assert.ok(!offered.includes(writing), writing);
    assert.match(systemText(cli.requestAt(0)), /Mode: Ask/);
    const events = parseEvents(run.stdout);
    assert.deepEqual(started(events), { type: 'prompt_started', text: 'write notes.txt', mode: 'ask' });
    const finished = events.find((e) => e.type === 'tool_finished');
    assert.ok(finished?.type === 'tool_finished');
    assert.equal(finished.isError, true);
    assert.match(finished.text, /workspace__write_file was not run: Ask mode allows only read-only tools/);
    assert.ok(!existsSync(join(cli.dir, 'notes.txt')), 'the tool did not run');
    const answered = cli.requestAt(1).messages.find((m) => m.role === 'tool');
    assert.match(String(answered?.content), /Ask mode allows only read-only tools/, 'the model reads the refusal');
    assertAllRequestsValid(fake.requests);
  });

  it('agent (the default) offers the writing tools; plan offers the read-only ones and asks for numbered steps', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('ok'), fakeReply.text('1. Read it\n2. Change it')] });
    const agent = await runCli(['--json', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(agent.code, 0, agent.stderr);
    assert.ok(toolNames(cli.requestAt(0)).includes('workspace__write_file'));
    assert.doesNotMatch(systemText(cli.requestAt(0)), /Mode: /);
    assert.deepEqual(started(parseEvents(agent.stdout)), { type: 'prompt_started', text: 'hi', mode: 'agent' });
    const plan = await runCli(['--json', '--mode', 'plan', 'plan it'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(plan.code, 0, plan.stderr);
    assert.deepEqual(toolNames(cli.requestAt(1)), ['workspace__list_files', 'workspace__read_file', 'workspace__search_text']);
    assert.match(systemText(cli.requestAt(1)), /Mode: Plan[\s\S]*numbered list of steps/);
  });

  it('a bad --mode, --approve-plan without --session or with --mode plan exit 2, naming the flag and what to do; nothing is sent', async () => {
    const fake = await cli.startFake({ responses: [] });
    const bad = await runCli(['--mode', 'build', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--mode "build" is not a mode: use agent, ask, plan/);
    const noSession = await runCli(['--approve-plan'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(noSession.code, 2);
    assert.match(noSession.stderr, /--approve-plan needs --session FILE/);
    const both = await runCli(['--approve-plan', '--mode', 'plan', '--session', join(cli.dir, 'x.jsonl')], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--approve-plan runs the plan in agent mode; leave out --mode plan/);
    const help = await runCli(['--help'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.match(help.stdout, /--mode MODE {14}agent \(default: every tool\), ask/);
    assert.equal(fake.requests.length, 0);
  });
});

describe('--approve-plan', () => {
  it('the plan\'s steps become the todo list; the todo _Stop objects while a step is open, then the agent ticks them off', async () => {
    const session = join(cli.dir, 'plan.jsonl');
    const fake = await cli.startFake({
      responses: [
        fakeReply.text('Here is the plan:\n\n1. Add a discount field\n2. Write a test for it\n'),
        // Approved: the model ends at once, the todo _Stop objects with both steps open.
        fakeReply.text('Done.'),
        fakeReply.toolCalls([{ name: 'todo__todo', arguments: { items: [{ text: 'Add a discount field', done: true }, { text: 'Write a test for it', done: true }] } }]),
        fakeReply.text('Both steps are done.'),
      ],
    });
    const extra = { MCP_HOOK_SERVERS: 'todo' };
    const plan = await runCli(['--json', '--mode', 'plan', '--session', session, 'add a discount'], { env: cli.env(fake.url, extra), cwd: cli.dir });
    assert.equal(plan.code, 0, plan.stderr);
    const approved = await runCli(['--json', '--session', session, '--approve-plan'], { env: cli.env(fake.url, extra), cwd: cli.dir });
    assert.equal(approved.code, 0, approved.stderr);
    const events = parseEvents(approved.stdout);
    const prompt = started(events);
    assert.ok(prompt?.type === 'prompt_started');
    assert.equal(prompt.mode, 'agent');
    assert.match(prompt.text, /^Carry out the approved plan\.[\s\S]*\n1\. Add a discount field\n2\. Write a test for it$/);
    assert.ok(toolNames(cli.requestAt(1)).includes('workspace__write_file'), 'the approved run is in Agent mode');
    const objection = events.find((e) => e.type === 'hook_objected');
    assert.ok(objection?.type === 'hook_objected', approved.stdout);
    assert.equal(objection.server, 'todo');
    assert.match(objection.text, /open todo items[\s\S]*Add a discount field[\s\S]*Write a test for it/);
    assert.equal(outcomeOf(events)?.reason, 'end_turn');
    assert.match(readFileSync(session, 'utf8'), /The user approved this plan/, 'the approved plan is in the transcript');
    assertAllRequestsValid(fake.requests);
  });

  it('an answer with no numbered steps is not approved: exit 2 saying so, and no model call is made', async () => {
    const session = join(cli.dir, 'noplan.jsonl');
    const fake = await cli.startFake({ responses: [fakeReply.text('Just change the constant; no plan needed.')] });
    const plan = await runCli(['--mode', 'plan', '--session', session, 'plan it'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(plan.code, 0, plan.stderr);
    const approved = await runCli(['--session', session, '--approve-plan'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(approved.code, 2);
    assert.match(approved.stderr, /--approve-plan: The last answer has no numbered steps to approve/);
    assert.equal(fake.chatRequests().length, 1, 'only the plan run called the model');
  });
});
