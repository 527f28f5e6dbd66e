// Plan mode in the real extension host, with the bundled todo server and a scripted model: a Plan turn
// offers only read-only tools and ends with a plan card; Approve with the steps edited writes the edited
// steps into the todo list (the todo server's own _Stop then lists them as open) and runs the plan in
// Agent mode (the next request offers the writing tools and carries the approved steps); the card reads
// approved. A text with no numbered steps writes nothing and sends nothing. The list is that chat's:
// another chat of the window is not held to it (the todo server keeps a list per session).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hookMeta } from '../../../src/agent/hookCaller';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const KEYS = ['model.baseUrl', 'model.name', 'model.provider', 'mcp.builtinServers'];

type Body = { tools?: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: unknown }> };
const toolNames = (body: Body): string[] => (body.tools ?? []).map((t) => t.function.name);

describe('Plan mode: the plan card and Approve', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi | undefined;
  let chatId = '';

  after(async () => {
    const hub = await (await api()).host.ensureServers();
    const meta = { 'sprout/session': { sessionId: chatId } };
    await hub.callTool('todo', 'todo', { items: [] }, { signal: new AbortController().signal, meta }).catch(() => undefined);
    for (const key of KEYS) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    await fake?.close();
  });

  it('approves the edited steps into the todo list and runs them in Agent mode', async () => {
    const sprout = await api();
    fake = await startFakeOpenAi({ responses: [fakeReply.text('The plan:\n1. Read cart.ts\n2. Add the discount'), fakeReply.text('Working on it.')], models: ['fake-model'] });
    await config().update('mcp.builtinServers', { workspace: true, todo: true, tests: false }, vscode.ConfigurationTarget.Workspace);
    await config().update('model.baseUrl', fake.url, vscode.ConfigurationTarget.Workspace);
    await config().update('model.name', 'fake-model', vscode.ConfigurationTarget.Workspace);
    await config().update('model.provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await until(() => sprout.settings().baseUrl === fake?.url && sprout.settings().provider === 'openai', 'the fake model to be read');
    await sprout.host.invalidateServers();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    chatId = chat.id;
    await sprout.controller.send('plan a discount', [], [], 'plan');

    const planned = fake.chatRequests()[0]?.body as Body;
    assert.ok(!toolNames(planned).includes('workspace__write_file') && !toolNames(planned).includes('todo__todo'), `Plan offers no writing tool: ${toolNames(planned).join(', ')}`);
    const card = chat.view.entries.find((e) => e.kind === 'plan');
    assert.ok(card?.kind === 'plan' && card.state === 'open', JSON.stringify(chat.view.entries.slice(-3)));
    assert.deepEqual(card.steps, ['Read cart.ts', 'Add the discount']);

    // No numbered steps: nothing is written, nothing is sent.
    await sprout.handle({ type: 'approvePlan', text: 'just do it' });
    assert.equal(fake.chatRequests().length, 1);

    await sprout.handle({ type: 'approvePlan', text: '1. Read cart.ts\n2. Add a 10% discount\n3. Run the tests' });
    assert.equal(fake.chatRequests().length, 2);
    const approved = fake.chatRequests()[1]?.body as Body;
    assert.ok(toolNames(approved).includes('workspace__write_file') && toolNames(approved).includes('todo__todo'), 'the approved plan runs in Agent mode');
    const prompt = approved.messages.findLast((m) => m.role === 'user');
    assert.match(JSON.stringify(prompt?.content), /approved this plan[\s\S]*1\. Read cart\.ts[\s\S]*2\. Add a 10% discount[\s\S]*3\. Run the tests/);
    const after = chat.view.entries.find((e) => e.id === card.id);
    assert.ok(after?.kind === 'plan' && after.state === 'approved', JSON.stringify(after));

    const hub = await sprout.host.ensureServers();
    const stopOf = async (sessionId: string) => (await hub.callTool('todo', '_Stop', {}, { signal: new AbortController().signal, meta: hookMeta('_Stop', { sessionId }) })).text;
    assert.match(await stopOf(chat.id), /Add a 10% discount[\s\S]*Run the tests/, 'the todo _Stop holds the agent to the edited steps');
    await vscode.commands.executeCommand('sprout.newChat');
    const other = await sprout.controller.current();
    assert.notEqual(other.id, chat.id);
    assert.equal(await stopOf(other.id), '', 'another chat is not held to this chat\'s plan');
  });
});
