// The reload suite's turn: once every other file has done its first run (files run in name order;
// this one sorts last), the window reloads, and the suite runs again in the new extension host, where
// each file finds its phase file and checks what survived.
import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const phaseFile = join(workspaceFolder, 'window-phase.txt');

describe('the window', function () {
  this.timeout(60_000);

  it('reloads once, after the first run of every file', async () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    if (existsSync(phaseFile)) return;
    writeFileSync(phaseFile, 'reloaded');
    console.log('first run done: reloading the window');
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    await new Promise(() => undefined); // The extension host goes away with the window.
  });
});
