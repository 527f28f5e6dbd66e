// A delegated agent's own model through `node dist/cli.js` (README.md#subagents), against the fake
// model server, which lists its models at GET /v1/models and records every request: the child's
// requests carry the model its agent file names (Claude Code's `model: haiku` alias matched to a listed
// id; the field: https://code.claude.com/docs/en/sub-agents, asked for in
// https://github.com/anthropics/claude-code/issues/4549), the parent's the configured one, and the
// `--json` subagent events name the child's model. An agent whose model the endpoint does not list runs
// on the chat's model with a note, said once however often it is delegated to.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-subagent-models-', {
  checkRequests: true,
  setup: (dir) => {
    const agents = join(dir, 'home', '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'scout.md'), '---\nname: scout\ndescription: Finds things fast\nmodel: haiku\n---\nLook, then report briefly.\n');
    writeFileSync(join(agents, 'sage.md'), '---\nname: sage\ndescription: Thinks long\nmodel: unlisted-model-9\n---\nThink, then report.\n');
  },
  env: (dir) => ({ HOME: join(dir, 'home') }),
});

const wrapped = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'subagent_event' ? [e] : []));
const modelsAsked = (): string[] => (cli.fake?.chatRequests() ?? []).map((r) => (r.body as { model: string }).model);

it("the child's requests carry its agent's model, the parent's the configured one; --json names the child's model", async () => {
  const fake = await cli.startFake({
    models: ['fake-model', 'vendor/claude-haiku-4-5', 'other-model'],
    responses: [
      fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'scout', task: 'Find the README.' } }]),
      fakeReply.text('README.md is at the root.'),
      fakeReply.text('The scout found it.'),
    ],
  });
  const run = await runCli(['--json', 'where is the readme?'], { env: cli.env(fake.url, { SPROUT_AGENT_BUILTIN_SERVERS: '' }), cwd: cli.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(modelsAsked(), ['fake-model', 'vendor/claude-haiku-4-5', 'fake-model']);
  assert.equal(fake.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models').length, 1, 'the endpoint was asked for its models');
  const child = wrapped(parseEvents(run.stdout));
  assert.ok(child.length > 0 && child.every((e) => e.subagent.name === 'scout' && e.subagent.model === 'vendor/claude-haiku-4-5'), 'every subagent event names the model the child used');
  assert.ok(!child.some((e) => e.event.type === 'agent'), 'a reachable model: no note');
});

it("an agent whose model the endpoint does not list runs on the chat's model, said once for two delegations", async () => {
  const fake = await cli.startFake({
    models: ['fake-model', 'other-model'],
    responses: [
      fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'sage', task: 'Think about A.' } }]),
      fakeReply.text('A is fine.'),
      fakeReply.toolCalls([{ id: 'd2', name: 'sprout__delegate', arguments: { agent: 'sage', task: 'Think about B.' } }]),
      fakeReply.text('B is fine.'),
      fakeReply.text('Both are fine.'),
    ],
  });
  const run = await runCli(['--json', 'think'], { env: cli.env(fake.url, { SPROUT_AGENT_BUILTIN_SERVERS: '' }), cwd: cli.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(modelsAsked(), ['fake-model', 'fake-model', 'fake-model', 'fake-model', 'fake-model']);
  const child = wrapped(parseEvents(run.stdout));
  const notes = child.flatMap((e) => (e.event.type === 'agent' ? e.event.notes : []));
  assert.deepEqual(notes, ['~/.claude/agents/sage.md: the agent "sage" asks for the model "unlisted-model-9", which Sprout cannot reach here; it uses the chat\'s model (fake-model).']);
  assert.deepEqual([...new Set(child.map((e) => `${e.subagent.callId} ${e.subagent.model}`))], ['d1 fake-model', 'd2 fake-model']);


  // Without --json, the note is a line on stderr, tagged with the agent.
  fake.enqueue(fakeReply.toolCalls([{ id: 'd3', name: 'sprout__delegate', arguments: { agent: 'sage', task: 'Think about C.' } }]), fakeReply.text('C is fine.'), fakeReply.text('C too.'));
  const text = await runCli(['think again'], { env: cli.env(fake.url, { SPROUT_AGENT_BUILTIN_SERVERS: '' }), cwd: cli.dir });
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stderr.match(/sprout-agent: agent sage: ~\/\.claude\/agents\/sage\.md: the agent "sage" asks for the model "unlisted-model-9"/g)?.length, 1, text.stderr);
});
