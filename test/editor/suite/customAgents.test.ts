// Custom agents in the real extension host (README.md#custom-agents): a workspace .github/agents file
// and a .claude/agents one (our own text) are listed for the composer's mode picker after Agent, Ask and
// Plan; a prompt sent with one picked narrows the request the fake model server receives to the agent's
// tools and carries its instructions; a call outside its tools is refused without running; an agent
// whose file is gone is not sent, the text goes back to the box. After the turn, the agent's VS Code
// handoffs go to the chat views as the buttons' data. An agent's `model` runs the prompt where the
// endpoint lists it; one Sprout cannot reach keeps the chat's model, said once. The same for an agent
// the model delegates to (`sprout__delegate`): the child runs on its file's model, here one in VS Code.
// The endpoint's models are listed once for all of those (GET /v1/models counted), again when a
// setting of the endpoint changes.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { HostMessage } from '../../../src/shared/protocol';
import { sproutApi as api, approveUntilDone, fakeModelForSuite, toolCards, until } from '../sproutHarness';
import { SCRIPTED_LM_EXTENSION_ID, type ScriptedLmProviderApi } from '../lmProvider/scriptedLmTypes';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const githubAgent = join(workspaceFolder, '.github', 'agents', 'test-reviewer.agent.md');
const claudeAgent = join(workspaceFolder, '.claude', 'agents', 'test-runner.md');
const fastAgent = join(workspaceFolder, '.claude', 'agents', 'test-fast.md');
const farAgent = join(workspaceFolder, '.github', 'agents', 'test-far.agent.md');
const lmAgent = join(workspaceFolder, '.github', 'agents', 'test-lm.agent.md');

const modelListings = (fake: FakeOpenAi): number => fake.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models').length;

interface WireRequest {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

describe('custom agents (the mode picker\'s agents)', function () {
  this.timeout(90_000);

  before(() => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    mkdirSync(join(workspaceFolder, '.github', 'agents'), { recursive: true });
    mkdirSync(join(workspaceFolder, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      githubAgent,
      "---\ndescription: Reads and reports, never writes\ntools: ['read', 'search']\nhandoffs:\n  - label: Run it\n    agent: test-runner\n    prompt: Run the tests.\n---\nReport findings only. Never change a file.\n",
    );
    writeFileSync(claudeAgent, '---\nname: test-runner\ndescription: Runs commands\ntools: Bash\n---\nRun what is asked.\n');
    // Claude Code's `model` and VS Code's "Name (vendor)" form (https://code.visualstudio.com/docs/copilot/customization/custom-agents).
    writeFileSync(fastAgent, '---\nname: test-fast\ndescription: Quick answers\nmodel: fast-model\n---\nAnswer briefly.\n');
    writeFileSync(farAgent, '---\ndescription: Wants a model Sprout cannot reach\nmodel: GPT-9 (copilot)\n---\nAnswer.\n');
    writeFileSync(lmAgent, '---\ndescription: Runs on a model in VS Code\nmodel: Scripted Model (sprout-test)\n---\nAnswer.\n');
  });

  after(() => {
    rmSync(githubAgent, { force: true });
    rmSync(claudeAgent, { force: true });
    rmSync(fastAgent, { force: true });
    rmSync(farAgent, { force: true });
    rmSync(lmAgent, { force: true });
    rmSync(join(workspaceFolder, 'agent-wrote.txt'), { force: true });
  });

  const model = fakeModelForSuite(
    {
      responses: [
        fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'agent-wrote.txt', content: 'x' } }]),
        fakeReply.text('reported'),
        ...['fast', 'far', 'far again', 'plain'].map((t) => fakeReply.text(t)),
      ],
      models: ['fake-model', 'fast-model'],
    },
    { provider: 'openai', builtin: { workspace: true } },
  );

  it('lists both formats; picking one narrows the request to its tools, adds its text and refuses a call outside them', async () => {
    const sprout = await api();
    const { fake } = model;
    const names = sprout.controller.agentChoices().map((a) => `${a.name} ${a.source}`);
    assert.ok(names.includes('test-reviewer .github/agents/test-reviewer.agent.md'), names.join(', '));
    assert.ok(names.includes('test-runner .claude/agents/test-runner.md'), names.join(', '));
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const posted: HostMessage[] = [];
    const port = sprout.views.attach({ post: (message) => void posted.push(message), visible: () => false });
    await sprout.handle({ type: 'send', text: 'review the code', agent: 'test-reviewer' });
    port.dispose();
    assert.deepEqual(posted.filter((m) => m.type === 'handoffs'), [{ type: 'handoffs', handoffs: [{ label: 'Run it', agent: 'test-runner', prompt: 'Run the tests.' }] }]);
    await until(() => !chat.running && fake.chatRequests().length >= 2, 'the two model calls');
    const first = fake.chatRequests()[0]?.body as WireRequest;
    const offered = (first.tools ?? []).map((t) => t.function.name).sort();
    assert.deepEqual(offered, ['workspace__list_files', 'workspace__read_file', 'workspace__search_text'], 'read and search only, no editor or writing tool');
    assert.match(String(first.messages[0]?.content), /agent "test-reviewer"[\s\S]*Report findings only\. Never change a file\./);
    const cards = toolCards(chat.view.entries);
    assert.equal(cards[0]?.status, 'error');
    assert.match(cards[0]?.result ?? '', /was not run: the agent "test-reviewer" may use only its own tools/);
    assert.ok(!existsSync(join(workspaceFolder, 'agent-wrote.txt')), 'the write did not run');
  });

  it("an agent's model is used where the endpoint lists it; one Sprout cannot reach keeps the chat's model, said once", async () => {
    const sprout = await api();
    const chat = await sprout.controller.current();
    const sent = async (text: string, agent?: string): Promise<string> => {
      const before = model.fake.chatRequests().length;
      await sprout.handle({ type: 'send', text, ...(agent === undefined ? {} : { agent }) });
      await until(() => !chat.running && model.fake.chatRequests().length > before, `the answer to "${text}"`);
      return String((model.fake.chatRequests().at(-1)?.body as { model?: unknown }).model);
    };
    assert.equal(await sent('quick one', 'test-fast'), 'fast-model', "the model the endpoint lists, named by the agent's file");
    assert.equal(await sent('far one', 'test-far'), 'fake-model');
    assert.equal(await sent('far again', 'test-far'), 'fake-model');
    const said = chat.view.entries.flatMap((e) => (e.kind === 'hookEvent' && e.text.includes('GPT-9') ? [e.text] : []));
    assert.equal(said.length, 1, `said once: ${said.join(' | ')}`);
    assert.match(said[0] ?? '', /asks for the model "GPT-9 \(copilot\)", which Sprout cannot reach here; it uses the chat's model \(fake-model\)/);
    assert.equal(await sent('plain'), 'fake-model', 'without the agent, the chat\'s model again');
  });

  it("an agent naming a model in VS Code runs on it, while the chat's model is the endpoint's", async () => {
    const fixture = vscode.extensions.getExtension<ScriptedLmProviderApi>(SCRIPTED_LM_EXTENSION_ID);
    assert.ok(fixture, `the runner loads ${SCRIPTED_LM_EXTENSION_ID}`);
    const provider = await fixture.activate();
    provider.reset();
    const sprout = await api();
    const chat = await sprout.controller.current();
    const before = model.fake.chatRequests().length;
    await sprout.handle({ type: 'send', text: 'hello there', agent: 'test-lm' });
    await until(() => !chat.running && provider.requests.some((r) => r.done), 'the scripted model to answer');
    assert.deepEqual(provider.requests.map((r) => r.model), ['scripted']);
    assert.equal(model.fake.chatRequests().length, before, 'nothing went to the endpoint');
    assert.equal(sprout.controller.facts().model?.source, 'openai', "the chat's own model is still the endpoint's");
  });

  it("a delegated agent runs on its own model (one in VS Code); one Sprout cannot reach runs on the chat's, said once", async () => {
    const fixture = vscode.extensions.getExtension<ScriptedLmProviderApi>(SCRIPTED_LM_EXTENSION_ID);
    assert.ok(fixture, `the runner loads ${SCRIPTED_LM_EXTENSION_ID}`);
    const provider = await fixture.activate();
    provider.reset();
    provider.script([{ kind: 'text', text: 'hi from the scripted model' }]);
    const sprout = await api();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const before = model.fake.chatRequests().length;
    model.fake.enqueue(
      fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'test-lm', task: 'Say hi.' } }]),
      fakeReply.toolCalls([{ id: 'd2', name: 'sprout__delegate', arguments: { agent: 'test-far', task: 'Think about A.' } }]),
      fakeReply.text('A is fine.'),
      fakeReply.toolCalls([{ id: 'd3', name: 'sprout__delegate', arguments: { agent: 'test-far', task: 'Think about B.' } }]),
      fakeReply.text('B is fine.'),
      fakeReply.text('All done.'),
    );
    await sprout.handle({ type: 'send', text: 'delegate these' });
    await approveUntilDone(sprout, chat);
    assert.deepEqual(provider.requests.map((r) => r.model), ['scripted'], "the test-lm child ran on the model in VS Code its file names");
    const models = model.fake.chatRequests().slice(before).map((r) => (r.body as { model?: unknown }).model);
    assert.deepEqual(models, Array(6).fill('fake-model'), "the parent and the test-far children on the chat's model");
    const answer = (model.fake.chatRequests()[before + 1]?.body as WireRequest).messages.find((m) => m.role === 'tool');
    assert.equal(answer?.content, 'hi from the scripted model', "the child's answer is the delegate call's result");
    const said = chat.view.entries.flatMap((e) => (e.kind === 'hookEvent' && e.text.includes('GPT-9') ? [e.text] : []));
    assert.equal(said.length, 1, `said once: ${said.join(' | ')}`);
    assert.match(said[0] ?? '', /^Subagent test-far \(sub-2\): .*asks for the model "GPT-9 \(copilot\)", which Sprout cannot reach here; it uses the chat's model \(fake-model\)/);
    assert.equal(modelListings(model.fake), 1, 'every prompt and delegation that named a model read the one listing of the endpoint\'s models');
  });

  it("the endpoint's models are listed again when its settings change", async () => {
    const fake = model.fake;
    const sprout = await api();
    const chat = await sprout.controller.current();
    const before = modelListings(fake);
    await vscode.workspace.getConfiguration('sprout').update('model.provider', 'auto', vscode.ConfigurationTarget.Workspace);
    await until(() => sprout.settings().provider === 'auto', 'the provider setting');
    fake.enqueue(fakeReply.text('fast again'));
    await sprout.handle({ type: 'send', text: 'quick again', agent: 'test-fast' });
    await until(() => !chat.running && fake.pending() === 0, 'the answer');
    assert.equal(String((fake.chatRequests().at(-1)?.body as { model?: unknown }).model), 'fast-model');
    assert.equal(modelListings(fake), before + 1, 'listed once more, for the new provider setting');
    await vscode.workspace.getConfiguration('sprout').update('model.provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await until(() => sprout.settings().provider === 'openai', 'the provider setting back');
  });

  it('an agent whose file is gone is not sent: nothing reaches the model', async () => {
    const sprout = await api();
    const before = model.fake.chatRequests().length;
    await sprout.handle({ type: 'send', text: 'anyone there', agent: 'no-such-agent' });
    assert.equal(model.fake.chatRequests().length, before);
  });
});
