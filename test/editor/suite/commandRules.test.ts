// Command rules in the real extension host, with the bundled workspace server and a scripted model:
// the user's allow rule runs run_command without a card, the workspace's allow rule (a cloned
// repository's .vscode/settings.json) is ignored so the call is asked, "Always allow" on that card
// writes the allow rule into the user's settings, and the user's deny rule refuses a compound command
// naming the rule, without asking.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { cardsText, sproutApi as api, toolCards, until, waitingCard } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const settingsFile = join(workspaceFolder, '.vscode', 'settings.json');
const run = (command: string) => fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command } }]);

describe('command rules (sprout.tools.commandRules)', function () {
  this.timeout(90_000);
  let fake: FakeOpenAi | undefined;
  let savedSettings: string | undefined;

  before(() => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    savedSettings = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
  });

  after(async () => {
    await config().update('tools.commandRules', undefined, vscode.ConfigurationTarget.Global);
    for (const key of ['model.baseUrl', 'model.name', 'model.provider', 'mcp.builtinServers']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    if (savedSettings === undefined) rmSync(settingsFile, { force: true });
    else writeFileSync(settingsFile, savedSettings);
    for (const file of ['allowed.txt', 'ws.txt', 'keep.txt']) rmSync(join(workspaceFolder, file), { force: true });
    await fake?.close();
  });

  it('allows by the user rule, ignores the workspace allow, offers Always allow into user settings, refuses by deny', async () => {
    const sprout = await api();
    fake = await startFakeOpenAi({ responses: [run('touch allowed.txt'), run('touch ws.txt'), run('touch allowed.txt && rm -f keep.txt'), fakeReply.text('done')], models: ['fake-model'] });
    writeFileSync(join(workspaceFolder, 'keep.txt'), 'x');
    // The workspace's own allow rule, as a cloned repository ships it (on disk, not through the API).
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    const shipped = existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8') || '{}') as Record<string, unknown>) : {};
    writeFileSync(settingsFile, JSON.stringify({ ...shipped, 'sprout.tools.commandRules': [{ allow: 'touch ws.txt' }] }, null, 2));
    await config().update('mcp.builtinServers', { workspace: true, todo: false, tests: false }, vscode.ConfigurationTarget.Workspace);
    await config().update('model.baseUrl', fake.url, vscode.ConfigurationTarget.Workspace);
    await config().update('model.name', 'fake-model', vscode.ConfigurationTarget.Workspace);
    await config().update('model.provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await config().update('tools.commandRules', [{ allow: 'touch allowed.txt' }, { deny: 'rm' }], vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings().baseUrl === fake?.url && sprout.settings().provider === 'openai' && sprout.settings().commandRules.length === 2, 'the settings, the workspace allow left out');
    assert.deepEqual(sprout.settings().commandRules.map((rule) => `${rule.kind} ${rule.pattern}`), ['allow touch allowed.txt', 'deny rm']);
    await sprout.host.invalidateServers();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const sent = sprout.controller.send('set up');
    const card = await until(() => waitingCard(chat.view.entries), 'the command the workspace tried to allow to ask').catch((error: Error) => {
      throw new Error(`${error.message}; ${cardsText(chat.view.entries)}`);
    });
    assert.match(card.args, /touch ws\.txt/);
    assert.ok(existsSync(join(workspaceFolder, 'allowed.txt')), `the user-allowed command ran before, unasked; ${cardsText(chat.view.entries)}`);
    assert.ok(card.approvalScopes?.includes('rule'));
    assert.equal(card.approvalRule, 'touch ws.txt');
    await sprout.handle({ type: 'approve', approvalId: card.approvalId ?? '', scope: 'rule' });
    await sent;
    const cards = toolCards(chat.view.entries);
    assert.deepEqual(cards.map((c) => c.status), ['ok', 'ok', 'error'], cardsText(chat.view.entries));
    assert.match(cards[2]?.result ?? '', /Refused by the command rule deny "rm" \(user settings sprout\.tools\.commandRules\[1\]\): `rm -f keep\.txt` is denied/);
    assert.ok(existsSync(join(workspaceFolder, 'ws.txt')) && existsSync(join(workspaceFolder, 'keep.txt')));
    const user = config().inspect('tools.commandRules')?.globalValue;
    assert.deepEqual(user, [{ allow: 'touch allowed.txt' }, { deny: 'rm' }, { allow: 'touch ws.txt' }], 'Always allow wrote the rule into the user settings');
  });
});
