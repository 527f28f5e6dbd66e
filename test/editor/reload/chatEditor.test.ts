// "Open Chat in Editor" across a real window reload: the first run opens the chat in an editor tab;
// after the reload (windowReload.test.ts) the tab is back, and it is a live chat view again (with
// the side bar closed, the restored tab alone makes the chat visible to the user). Without a
// serializer VS Code drops the tab on reload. The phase is a file in the workspace.
import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sproutApi, until } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const phaseFile = join(workspaceFolder, 'chat-editor-phase.txt');

const chatTabs = (): vscode.Tab[] =>
  vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('sprout.chatEditor'));

describe('a chat in an editor tab survives a window reload', function () {
  this.timeout(60_000);

  it('is restored in its tab, showing the chat', async () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    const sprout = await sproutApi();
    if (!existsSync(phaseFile)) {
      await vscode.commands.executeCommand('sprout.openChatInEditor');
      await until(() => chatTabs().length === 1, 'the chat editor tab');
      writeFileSync(phaseFile, 'opened');
      return; // windowReload.test.ts reloads the window; this file runs again after it.
    }
    await until(() => chatTabs().length === 1, 'the restored chat editor tab', 40_000);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    // Only a tab the extension adopted is attached to the chat views, and so can be what the user sees.
    await until(() => sprout.views.visible(), 'the restored tab attached as a visible chat view', 40_000);
  });
});
