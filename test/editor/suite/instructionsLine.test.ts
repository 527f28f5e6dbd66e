// The turn's "N instructions" line in the real extension host, with the fake model: a nested AGENTS.md
// applies once a file of its folder is attached (Codex's scoping: the AGENTS.md files from the root down
// to the working folder, https://developers.openai.com/codex/guides/agents-md), the chat says
// which files shaped the turn and why, each file named on the line opens in the editor, and the model
// got the file's text as instructions. An untrusted window reads none of the workspace's files.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers'];
const folder = join(workspaceFolder, 'instructions-line');

describe('the turn\'s instructions line', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi | undefined;

  before(async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'AGENTS.md'), '# Line rules\n\nAlways run make check-line before you finish.\n');
    writeFileSync(join(folder, 'a.txt'), 'a\n');
    fake = await startFakeOpenAi({ models: ['fake-model'], responses: [fakeReply.text('ok')] });
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    const sprout = await api();
    const url = fake.url;
    await until(() => sprout.settings().baseUrl === url, 'settings');
    await vscode.commands.executeCommand('sprout.newChat');
  });

  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder, { recursive: true, force: true });
    await fake?.close();
  });

  it('names the nested AGENTS.md that applies, with why; the file opens from the line; the model got it as instructions', async () => {
    const sprout = await api();
    await sprout.handle({ type: 'send', text: 'tidy #file:instructions-line/a.txt' });
    const chat = await sprout.controller.current();
    const lines = chat.view.entries.filter((e) => e.kind === 'hookEvent' && /^\d+ instructions?: /.test(e.text));
    if (!vscode.workspace.isTrusted) {
      assert.deepEqual(lines.filter((e) => e.kind === 'hookEvent' && e.text.includes('instructions-line/AGENTS.md')), [], 'an untrusted window reads none of the workspace\'s files');
      return;
    }
    const line = lines.find((e) => e.kind === 'hookEvent' && e.text.includes('instructions-line/AGENTS.md'));
    assert.ok(line?.kind === 'hookEvent', lines.map((e) => (e.kind === 'hookEvent' ? e.text : '')).join(' | '));
    assert.match(line.text, /instructions-line\/AGENTS\.md \([^)]+\)/);
    assert.ok(line.files?.includes('instructions-line/AGENTS.md'), JSON.stringify(line.files));
    const system = String((fake?.chatRequests().at(-1)?.body as { messages: { role: string; content: unknown }[] }).messages[0]?.content);
    assert.match(system, /Always run make check-line before you finish\./);
    await sprout.handle({ type: 'openLocation', file: 'instructions-line/AGENTS.md' });
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === join(folder, 'AGENTS.md'), 'AGENTS.md open in the editor');
  });
});
