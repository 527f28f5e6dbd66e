// Smoke test proving the harness end to end: the packaged manifest is what the real extension host
// loads, the extension activates, and every command it declares is registered.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { sproutApi } from '../sproutHarness';

const EXTENSION_ID = 'sprout.sprout-agent';

describe('activation', () => {
  it('is installed and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed in the extension host`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command declared in package.json', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const declared = (ext.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    assert.ok(declared.length > 0, 'package.json declares no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(declared.filter((c) => !registered.has(c)), []);
  });

  it('registers no test controller until a hook reports a test verdict (no Testing view for a window without one)', async () => {
    const sprout = await sproutApi();
    assert.equal(sprout.testing.active, false);
  });
});
