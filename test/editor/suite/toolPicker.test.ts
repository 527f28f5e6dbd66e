// The tool picker in the real extension host (Sprout: Pick Tools, the command the message box's tools
// button runs), with the bundled workspace server, the editor's own server and the fake model server:
// the picker's answer is given as the command's argument (the names to keep on, as the quick pick's
// checked items give them), a tool set of the workspace's .vscode/*.toolsets.jsonc among them. The
// request the fake received offers only what was picked; the model's call to a tool turned off is
// refused with words and never runs (no approval card); the choice is the chat's, read back from its
// file when the chat is opened again, and another chat has every tool. The second test drives the
// quick pick itself with the workbench's commands and checks the next request.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi as api, toolCards, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const toolSetFile = join(workspaceFolder, '.vscode', 'picker-test.toolsets.jsonc');

interface WireRequest {
  tools?: Array<{ function: { name: string } }>;
}

describe('tool picker (Sprout: Pick Tools)', function () {
  this.timeout(90_000);
  let fake: FakeOpenAi | undefined;

  before(() => assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE'));

  after(async () => {
    for (const key of ['model.baseUrl', 'model.name', 'model.provider', 'mcp.builtinServers']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(toolSetFile, { force: true });
    rmSync(join(workspaceFolder, 'picked.txt'), { force: true });
    await fake?.close();
  });

  it('narrows the request to the picked tools, refuses a call to a tool turned off, and keeps the choice with the chat', async () => {
    const sprout = await api();
    fake = await startFakeOpenAi({
      responses: [fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'picked.txt', content: 'x' } }]), fakeReply.text('done'), fakeReply.text('other chat')],
      models: ['fake-model'],
    });
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(toolSetFile, '{\n  // VS Code\'s tool-set format\n  "reader": { "tools": ["workspace/read_file", "workspace/list_files"], "description": "Read", "icon": "book" },\n}\n');
    await config().update('mcp.builtinServers', { workspace: true, todo: false, tests: false }, vscode.ConfigurationTarget.Workspace);
    await config().update('model.baseUrl', fake.url, vscode.ConfigurationTarget.Workspace);
    await config().update('model.name', 'fake-model', vscode.ConfigurationTarget.Workspace);
    await config().update('model.provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await until(() => sprout.settings().baseUrl === fake?.url && sprout.settings().provider === 'openai', 'the settings');
    await sprout.host.invalidateServers();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const choice = await vscode.commands.executeCommand<{ off: string[] }>('sprout.pickTools', { picked: ['reader', 'editor'] });
    assert.ok(choice?.off.includes('workspace__write_file'), JSON.stringify(choice));
    assert.ok(!choice.off.includes('workspace__read_file'));

    await sprout.controller.send('write picked.txt');
    const offered = ((fake.chatRequests()[0]?.body as WireRequest).tools ?? []).map((t) => t.function.name);
    assert.ok(offered.includes('workspace__read_file') && offered.includes('workspace__list_files'), offered.join(', '));
    assert.ok(offered.some((n) => n.startsWith('editor__')), `the editor server stays on: ${offered.join(', ')}`);
    assert.deepEqual(offered.filter((n) => n.startsWith('workspace__')).sort(), ['workspace__list_files', 'workspace__read_file']);
    const card = toolCards(chat.view.entries)[0];
    assert.equal(card?.status, 'error', JSON.stringify(card));
    assert.match(card?.result ?? '', /"workspace__write_file" was not run: it is turned off for this chat/);
    assert.ok(!existsSync(join(workspaceFolder, 'picked.txt')), 'the tool did not run');

    // Another chat has every tool; the first, opened again, reads its choice back from its file.
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('hi');
    const other = ((fake.chatRequests()[2]?.body as WireRequest).tools ?? []).map((t) => t.function.name);
    assert.ok(other.includes('workspace__write_file'), other.join(', '));
    await sprout.controller.openChat(chat.id);
    const reopened = await sprout.controller.current();
    assert.notEqual(reopened, chat, 'a new Chat object, read from the files');
    assert.deepEqual(reopened.toolChoice, choice);
  });

  // The real quick pick, driven with the workbench's own commands as VS Code's API tests drive a
  // canSelectMany pick (microsoft/vscode, extensions/vscode-api-tests/src/singlefolder-tests/quickInput.test.ts:
  // quickOpenSelectNext moves the active item, quickPickManyToggle flips its box, acceptSelectedQuickOpenItem accepts).
  it('the quick pick itself: unchecking a server and one tool narrows the next request', async () => {
    const sprout = await api();
    assert.ok(fake, 'the first test started the fake model server');
    fake.enqueue(fakeReply.text('narrowed'));
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    let labels: string[] | undefined;
    const listening = sprout.onToolPickerShown((shown) => (labels = shown));
    const answered = vscode.commands.executeCommand<{ off: string[] } | undefined>('sprout.pickTools');
    const items = await until(() => labels, 'the tool picker to be shown');
    listening.dispose();
    const workspaceGroup = items.indexOf('$(server) workspace');
    const editorGroup = items.indexOf('$(server) editor');
    assert.ok(workspaceGroup >= 0 && editorGroup > workspaceGroup, items.join(' | '));
    const editorTool = items[editorGroup + 1] ?? '';
    // The first "next" makes the first item active; each further one moves down a row (separators are not rows).
    for (let i = 0; i <= workspaceGroup; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.quickPickManyToggle');
    for (let i = workspaceGroup; i < editorGroup + 1; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.quickPickManyToggle');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const choice = await answered;
    assert.ok(choice?.off.includes('workspace__read_file') && choice.off.includes(`editor__${editorTool}`), JSON.stringify(choice));
    assert.deepEqual(chat.toolChoice, choice);

    const before = fake.chatRequests().length;
    await sprout.controller.send('hi with fewer tools');
    const offered = ((fake.chatRequests()[before]?.body as WireRequest).tools ?? []).map((t) => t.function.name);
    assert.deepEqual(offered.filter((n) => n.startsWith('workspace__')), [], offered.join(', '));
    assert.ok(!offered.includes(`editor__${editorTool}`), `${editorTool} was unchecked: ${offered.join(', ')}`);
    assert.ok(offered.some((n) => n.startsWith('editor__')), `the rest of the editor server stays on: ${offered.join(', ')}`);
  });
});
