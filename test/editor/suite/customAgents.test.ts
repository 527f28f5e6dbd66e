// Custom agents in the real extension host (README.md#custom-agents): a workspace .github/agents file
// and a .claude/agents one (our own text) are listed for the composer's mode picker after Agent, Ask and
// Plan; a prompt sent with one picked narrows the request the fake model server receives to the agent's
// tools and carries its instructions; a call outside its tools is refused without running; an agent
// whose file is gone is not sent, the text goes back to the box. After the turn, the agent's VS Code
// handoffs go to the chat views as the buttons' data.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { HostMessage } from '../../../src/shared/protocol';
import { sproutApi as api, toolCards, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const githubAgent = join(workspaceFolder, '.github', 'agents', 'test-reviewer.agent.md');
const claudeAgent = join(workspaceFolder, '.claude', 'agents', 'test-runner.md');

interface WireRequest {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

describe('custom agents (the mode picker\'s agents)', function () {
  this.timeout(90_000);
  let fake: FakeOpenAi | undefined;

  before(() => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    mkdirSync(join(workspaceFolder, '.github', 'agents'), { recursive: true });
    mkdirSync(join(workspaceFolder, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      githubAgent,
      "---\ndescription: Reads and reports, never writes\ntools: ['read', 'search']\nhandoffs:\n  - label: Run it\n    agent: test-runner\n    prompt: Run the tests.\n---\nReport findings only. Never change a file.\n",
    );
    writeFileSync(claudeAgent, '---\nname: test-runner\ndescription: Runs commands\ntools: Bash\n---\nRun what is asked.\n');
  });

  after(async () => {
    for (const key of ['model.baseUrl', 'model.name', 'model.provider', 'mcp.builtinServers']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(githubAgent, { force: true });
    rmSync(claudeAgent, { force: true });
    rmSync(join(workspaceFolder, 'agent-wrote.txt'), { force: true });
    await fake?.close();
  });

  it('lists both formats; picking one narrows the request to its tools, adds its text and refuses a call outside them', async () => {
    const sprout = await api();
    fake = await startFakeOpenAi({
      responses: [fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'agent-wrote.txt', content: 'x' } }]), fakeReply.text('reported')],
      models: ['fake-model'],
    });
    await config().update('mcp.builtinServers', { workspace: true, todo: false, tests: false }, vscode.ConfigurationTarget.Workspace);
    await config().update('model.baseUrl', fake.url, vscode.ConfigurationTarget.Workspace);
    await config().update('model.name', 'fake-model', vscode.ConfigurationTarget.Workspace);
    await config().update('model.provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await until(() => sprout.settings().baseUrl === fake?.url && sprout.settings().provider === 'openai', 'the settings');
    await sprout.host.invalidateServers();
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
    await until(() => !chat.running && fake !== undefined && fake.chatRequests().length >= 2, 'the two model calls');
    const first = fake.chatRequests()[0]?.body as WireRequest;
    const offered = (first.tools ?? []).map((t) => t.function.name).sort();
    assert.deepEqual(offered, ['workspace__list_files', 'workspace__read_file', 'workspace__search_text'], 'read and search only, no editor or writing tool');
    assert.match(String(first.messages[0]?.content), /agent "test-reviewer"[\s\S]*Report findings only\. Never change a file\./);
    const cards = toolCards(chat.view.entries);
    assert.equal(cards[0]?.status, 'error');
    assert.match(cards[0]?.result ?? '', /was not run: the agent "test-reviewer" may use only its own tools/);
    assert.ok(!existsSync(join(workspaceFolder, 'agent-wrote.txt')), 'the write did not run');
  });

  it('an agent whose file is gone is not sent: nothing reaches the model', async () => {
    const sprout = await api();
    const before = fake?.chatRequests().length ?? 0;
    await sprout.handle({ type: 'send', text: 'anyone there', agent: 'no-such-agent' });
    assert.equal(fake?.chatRequests().length ?? 0, before);
  });
});
