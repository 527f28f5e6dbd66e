// MCP prompts as slash commands in the real extension host, with the reference server
// (@modelcontextprotocol/server-everything, whose prompts take arguments): once it runs, the `/` menu
// lists its prompts as /mcp.everything.PROMPT with their descriptions and arguments; sending one with
// nothing typed after it asks every argument in turn (the optional one may be left empty), the
// server's completions are offered for a completable argument (the second narrowed by the first), and
// the server's text is the user message the model receives.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ArgumentQuestion } from '../../../src/extension/chat/mcpPromptCommands';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const keys = ['model.baseUrl', 'model.name', 'mcp.servers', 'mcp.builtinServers'];
const everything = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

describe('MCP prompts as slash commands in the editor', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi | undefined;

  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    await fake?.close();
  });

  it('the / menu lists the server\'s prompts; the form asks the arguments (with suggestions) and the server\'s text is sent', async () => {
    const sprout = await api();
    sprout.consent.prompt = async () => true;
    fake = await startFakeOpenAi({ responses: [fakeReply.text('Sunny.'), fakeReply.text('Promoted.')] });
    const servers = { everything: { command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } };
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', servers, target);
    const url = fake.url;
    await until(() => sprout.settings().baseUrl === url && JSON.stringify(config().inspect('mcp.servers')?.workspaceValue) === JSON.stringify(servers), 'settings');
    await sprout.host.invalidateServers();
    await sprout.host.listedStatus();

    // The menu is asked anew on each look (listing is asynchronous; `until` looks synchronously).
    let latest: Awaited<ReturnType<typeof sprout.controller.slashCommands>> = [];
    const menu = await until(() => {
      void sprout.controller.slashCommands().then((commands) => (latest = commands));
      return latest.some((c) => c.name === 'mcp.everything.args-prompt') ? latest : undefined;
    }, 'the server\'s prompts in the / menu');
    assert.deepEqual(menu.find((c) => c.name === 'mcp.everything.args-prompt'), { name: 'mcp.everything.args-prompt', description: 'A prompt with two arguments, one required and one optional', source: 'MCP server "everything"', argumentHint: '<city> [state]' });

    const asked: { name: string; required: boolean; suggestions: string[] }[] = [];
    const answers: Record<string, string> = { city: 'Paris', state: '', department: 'Sales', name: 'Eve' };
    sprout.controller.serverPrompts = {
      askArgument: async (question: ArgumentQuestion) => {
        asked.push({ name: question.argument.name, required: question.argument.required, suggestions: await question.suggest('') });
        return answers[question.argument.name];
      },
    };
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('/mcp.everything.args-prompt');
    assert.deepEqual(asked, [{ name: 'city', required: true, suggestions: [] }, { name: 'state', required: false, suggestions: [] }]);
    const first = await until(() => fake?.chatRequests()[0], 'the prompt to reach the model');
    const user = (first.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'user');
    assert.equal(user.at(-1)?.content, "What's weather in Paris?");

    asked.length = 0;
    const chat = await sprout.controller.current();
    await until(() => !chat.running || undefined, 'the first prompt to end');
    await sprout.controller.send('/mcp.everything.completable-prompt');
    assert.deepEqual(asked, [
      { name: 'department', required: true, suggestions: ['Engineering', 'Sales', 'Marketing', 'Support'] },
      { name: 'name', required: true, suggestions: ['David', 'Eve', 'Frank'] },
    ]);
    const second = await until(() => fake?.chatRequests()[1], 'the second prompt to reach the model');
    const last = (second.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'user').at(-1);
    assert.equal(last?.content, 'Please promote Eve to the head of the Sales team.');
  });
});
