// `--agent NAME` and `sprout-agent agents`, driven as a user would: `node dist/cli.js` with the bundled
// workspace and todo servers against the fake OpenAI server, which records every request. The agent
// files are written per test (a Claude Code subagent and a VS Code .agent.md, our own text): the request
// carries only the agent's tools and its instructions (and its model where the endpoint lists it), a call outside them is refused without running,
// an untrusted workspace's agents are not read, an unknown name exits 2 listing the known ones.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { cliFixture, systemText, toolNames } from './cliRun';

const cli = cliFixture('sprout-cli-agents-', {
  setup: (dir) => {
    const home = join(dir, 'home');
    mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
    mkdirSync(join(dir, '.github', 'agents'), { recursive: true });
    mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(dir, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews without editing\ntools: Read, Grep, WebFetch\nmodel: opus\n---\nReview the change. Cite file and line. Never edit.\n',
    );
    writeFileSync(join(dir, '.github', 'agents', 'planner.agent.md'), "---\ndescription: Plans\ntools: ['search', 'todo']\nhandoffs:\n  - label: Implement\n    agent: reviewer\n    prompt: Go.\n---\nPlan first.\n");
    writeFileSync(join(home, '.claude', 'agents', 'mine.md'), '---\nname: mine\ndescription: My own\n---\nMine.\n');
  },
  env: (dir) => ({ HOME: join(dir, 'home') }),
});

describe('--agent', () => {
  it('the request offers only the agent\'s tools with its instructions; a call outside them is refused, not run; notes said once', async () => {
    const fake = await cli.startFake({
      responses: [fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'notes.txt', content: 'written' } }]), fakeReply.text('I only review.')],
    });
    const run = await runCli(['--json', '--trust-workspace', '--agent', 'reviewer', 'review the change'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(toolNames(cli.requestAt(0)), ['workspace__read_file', 'workspace__search_text']);
    assert.match(systemText(cli.requestAt(0)), /agent "reviewer"[\s\S]*Review the change\. Cite file and line\. Never edit\./);
    const events = parseEvents(run.stdout);
    const started = events.find((e) => e.type === 'prompt_started');
    assert.ok(started?.type === 'prompt_started' && started.agent === 'reviewer');
    const said = events.filter((e) => e.type === 'agent');
    assert.equal(said.length, 1);
    assert.ok(said[0]?.type === 'agent');
    assert.deepEqual(said[0].notes, [
      '.claude/agents/reviewer.md:4: tool "WebFetch" is left out: Sprout has no such tool.',
      `.claude/agents/reviewer.md: the agent "reviewer" asks for the model "opus", which Sprout cannot reach here; it uses the chat's model (${baseEnv(fake.url).SPROUT_AGENT_MODEL}).`,
    ]);
    const finished = events.find((e) => e.type === 'tool_finished');
    assert.ok(finished?.type === 'tool_finished' && finished.isError);
    assert.match(finished.text, /workspace__write_file was not run: the agent "reviewer" may use only its own tools/);
    assert.ok(!existsSync(join(cli.dir, 'notes.txt')), 'the tool did not run');
    assert.match(String(cli.requestAt(1).messages.find((m) => m.role === 'tool')?.content), /may use only its own tools/, 'the model reads the refusal');
    assertAllRequestsValid(fake.requests);
  });

  it("the agent's model runs the prompt where the endpoint lists it (Claude Code's `opus` alias, https://code.claude.com/docs/en/sub-agents); no model note then", async () => {
    const fake = await cli.startFake({ models: ['fake-model', 'acme-opus-4'], responses: [fakeReply.text('Reviewed.')] });
    const run = await runCli(['--json', '--trust-workspace', '--agent', 'reviewer', 'review the change'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fake.chatRequests().map((r) => (r.body as { model: string }).model), ['acme-opus-4']);
    const said = parseEvents(run.stdout).flatMap((e) => (e.type === 'agent' ? e.notes : []));
    assert.deepEqual(said, ['.claude/agents/reviewer.md:4: tool "WebFetch" is left out: Sprout has no such tool.'], 'only the tool note: the model was reached');
    assertAllRequestsValid(fake.requests);
  });

  it('without --trust-workspace the workspace\'s agents are not read: an unknown agent exits 2 listing the known ones, nothing sent', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('never')] });
    const run = await runCli(['--agent', 'reviewer', 'review'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--agent "reviewer" names no custom agent\. The agents are: mine \(list them with: sprout-agent agents/);
    assert.match(run.stderr, /note: The workspace is not trusted, so none of its custom agents/);
    assert.equal(fake.chatRequests().length, 0);
  });

  it('the user\'s own agent runs without trust; its text reaches the system message', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('done')] });
    const run = await runCli(['--agent', 'MINE', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(systemText(cli.requestAt(0)), /agent "mine"[\s\S]*Mine\./);
    assert.ok(toolNames(cli.requestAt(0)).includes('workspace__write_file'), 'no tools field: every tool');
  });
});

describe('sprout-agent agents', () => {
  it('lists both formats with source, tools, handoffs and notes; --json the same as data', async () => {
    const text = await runCli(['agents'], { env: cli.env('http://127.0.0.1:9'), cwd: cli.dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^3 custom agents:/);
    assert.match(text.stdout, / {2}planner {2}\.github\/agents\/planner\.agent\.md\n {4}Plans\n {4}tools: workspace\/search_text, workspace\/list_files, todo\/todo\n {4}handoffs: Implement -> reviewer/);
    assert.match(text.stdout, / {2}mine {2}~\/\.claude\/agents\/mine\.md/);
    assert.match(text.stdout, /note: \.claude\/agents\/reviewer\.md:4: tool "WebFetch" is left out/);
    assert.match(text.stdout, /only with --trust-workspace/);
    const json = await runCli(['agents', '--json'], { env: cli.env('http://127.0.0.1:9'), cwd: cli.dir });
    const listed = JSON.parse(json.stdout) as { agents: Array<{ name: string; source: string }>; notes: string[] };
    assert.deepEqual(listed.agents.map((a) => `${a.name} ${a.source}`), ['planner .github/agents/planner.agent.md', 'reviewer .claude/agents/reviewer.md', 'mine ~/.claude/agents/mine.md']);
  });
});
