// "Always allow in this workspace" across a real window reload: the first run answers a run_command
// question with "always allow", checks that the answer went to the extension's workspace state and
// that .vscode/settings.json was not touched; after the reload (windowReload.test.ts) the second run (a
// new extension host) finds the tool still allowed and runs it without asking. The phase is a file in
// the workspace.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SproutApi } from '../../../src/extension/extension';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi, toolCards, until, waitingCard } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const phaseFile = join(workspaceFolder, 'reload-phase.txt');
const settingsFile = join(workspaceFolder, '.vscode', 'settings.json');
/** A model that asks for one run_command, then answers; and the settings that point the extension at it. */
async function scriptedRun(sprout: SproutApi, marker: string): Promise<FakeOpenAi> {
  const fake = await startFakeOpenAi({ responses: [fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command: `echo ok > ${marker}` } }]), fakeReply.text('done')] });
  const config = vscode.workspace.getConfiguration('sprout');
  // User settings, so the workspace's settings file stays exactly as the test left it.
  await config.update('model.baseUrl', fake.url, vscode.ConfigurationTarget.Global);
  await config.update('model.name', 'fake-model', vscode.ConfigurationTarget.Global);
  await config.update('mcp.builtinServers', { workspace: true, todo: false, tests: false }, vscode.ConfigurationTarget.Global);
  await until(() => sprout.settings().baseUrl === fake.url && sprout.settings().agent.model === 'fake-model', 'the model settings');
  await vscode.commands.executeCommand('sprout.newChat');
  return fake;
}

describe('"always allow in this workspace" survives a window reload', function () {
  this.timeout(60_000);

  it('is kept in extension state, never in .vscode/settings.json, and still applies after the reload', async () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    const sprout = await sproutApi();
    const settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    if (!existsSync(phaseFile)) {
      const fake = await scriptedRun(sprout, 'first.txt');
      const chat = await sprout.controller.current();
      const run = sprout.controller.send('run it');
      const card = await until(() => waitingCard(chat.view.entries), 'the question');
      await sprout.handle({ type: 'approve', approvalId: card.approvalId ?? '', scope: 'workspace' });
      await run;
      await fake.close();
      assert.ok(existsSync(join(workspaceFolder, 'first.txt')), 'the allowed command ran');
      assert.deepEqual(sprout.approvals.list(), ['workspace__run_command']);
      assert.equal(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined, settingsBefore, '.vscode/settings.json was not touched');
      assert.ok(!vscode.workspace.getConfiguration('sprout').inspect('tools.autoApprove')?.workspaceValue, 'no workspace auto-approval was written');
      writeFileSync(phaseFile, 'answered');
      return; // windowReload.test.ts reloads the window; this file runs again after it.
    }
    assert.deepEqual(sprout.approvals.list(), ['workspace__run_command'], 'remembered across the reload');
    const fake = await scriptedRun(sprout, 'second.txt');
    const chat = await sprout.controller.current();
    await sprout.controller.send('run it again');
    await fake.close();
    const tool = toolCards(chat.view.entries)[0];
    assert.equal(tool?.status, 'ok', 'ran without a question');
    assert.equal(tool?.approvalId, undefined, 'never waited for approval');
    assert.ok(existsSync(join(workspaceFolder, 'second.txt')));
    assert.equal(existsSync(settingsFile), false, 'no settings file appeared');
    await vscode.commands.executeCommand('sprout.forgetToolApprovals', ['workspace__run_command']);
    assert.deepEqual(sprout.approvals.list(), [], 'Forget Always-Allowed Tools clears it');
  });
});
