// The turn's "N instructions" line in the real extension host, with the fake model: a nested AGENTS.md
// applies once a file of its folder is attached (Codex's scoping: the AGENTS.md files from the root down
// to the working folder, https://developers.openai.com/codex/guides/agents-md), the chat says
// which files shaped the turn and why, each file named on the line opens in the editor, and the model
// got the file's text as instructions. An untrusted window reads none of the workspace's files.
// A user-level file (~/.claude/CLAUDE.md under the test's HOME) opens from the line that names it; a
// path outside the workspace that the line does not name is refused (the webview is untrusted).
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers'];
const folder = join(workspaceFolder, 'instructions-line');
const userFile = join(homedir(), '.claude', 'CLAUDE.md');
const outside = join(homedir(), 'instructions-line-secret.txt');

describe('the turn\'s instructions line', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi | undefined;

  before(async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'AGENTS.md'), '# Line rules\n\nAlways run make check-line before you finish.\n');
    writeFileSync(join(folder, 'a.txt'), 'a\n');
    fake = await startFakeOpenAi({ models: ['fake-model'], responses: [fakeReply.text('ok'), fakeReply.text('ok again')] });
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
    rmSync(userFile, { force: true });
    rmSync(outside, { force: true });
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

  it('a user-level CLAUDE.md opens from the line that names it; an outside path the line does not name is refused', async () => {
    const sprout = await api();
    mkdirSync(join(homedir(), '.claude'), { recursive: true });
    writeFileSync(userFile, '# My own rules\n\nAnswer briefly.\n');
    writeFileSync(outside, 'not an instruction file\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.handle({ type: 'send', text: 'hello' });
    const chat = await sprout.controller.current();
    const line = chat.view.entries.find((e) => e.kind === 'hookEvent' && e.files?.includes('~/.claude/CLAUDE.md') === true);
    assert.ok(line?.kind === 'hookEvent', chat.view.entries.map((e) => (e.kind === 'hookEvent' ? e.text : e.kind)).join(' | '));
    assert.match(line.text, /~\/\.claude\/CLAUDE\.md \(/);
    const tabs = (): string[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.fsPath : t.label));
    // What the webview posts: the note's id with the file it names.
    await sprout.handle({ type: 'openLocation', file: '~/.claude/CLAUDE.md', entryId: line.id });
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === userFile, '~/.claude/CLAUDE.md open in the editor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => tabs().length === 0, 'the editors closed');
    // Each is handled to its end (a refusal, or an editor shown) before the next.
    await sprout.handle({ type: 'openLocation', file: '~/.claude/CLAUDE.md' });
    await sprout.handle({ type: 'openLocation', file: outside, entryId: line.id });
    await sprout.handle({ type: 'openLocation', file: '~/instructions-line-secret.txt', entryId: line.id });
    await sprout.handle({ type: 'openLocation', file: '~/.claude/CLAUDE.md', entryId: 'no-such-note' });
    assert.deepEqual(tabs(), [], 'nothing outside the workspace opened without a note that names it');
  });
});
