// Workspace Trust in a real editor: the runner launches with trust on, so the folder opens in
// Restricted Mode. A workspace-defined MCP server (`.vscode/mcp.json` and workspace settings) and the
// workspace's hook allowlist must not take effect, the bundled test runner must not start, no such
// server process may ever run, nor another agent's hook file in the workspace, and the chat and the
// Hooks view must say why.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HookNode } from '../../../src/extension/hooks/hooksTreeProvider';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const marker = join(workspaceFolder, 'workspace-server-started');

/** A server that leaves a file behind the moment it is started. */
function markerServer(): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'started'); setInterval(() => {}, 1000)`] };
}

describe('untrusted workspace (Restricted Mode)', function () {
  this.timeout(60_000);
  const userKeys = ['model.baseUrl', 'model.name', 'mcp.builtinServers'];
  const workspaceKeys = ['mcp.servers', 'hooks.servers', 'model.provider'];

  after(async () => {
    for (const key of userKeys) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    for (const key of workspaceKeys) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(join(workspaceFolder, '.vscode'), { recursive: true, force: true });
    rmSync(join(workspaceFolder, '.claude'), { recursive: true, force: true });
    rmSync(marker, { force: true });
  });

  it('opens the folder untrusted', () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('starts no workspace-defined server or hook, and says why in the chat and the Hooks view', async () => {
    const sprout = await api();
    let asked = 0;
    sprout.consent.prompt = async () => {
      asked++;
      return true;
    };
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(join(workspaceFolder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { fromFile: markerServer() } }));
    // Another agent's hook file with a command that would leave the marker: never asked about, never run.
    sprout.hookFiles.prompt = async () => (asked++, true);
    mkdirSync(join(workspaceFolder, '.claude'), { recursive: true });
    writeFileSync(join(workspaceFolder, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `touch ${JSON.stringify(marker)}` }] }] } }));
    await config().update('mcp.servers', { fromSettings: markerServer() }, vscode.ConfigurationTarget.Workspace);
    await config().update('hooks.servers', ['fromFile', 'fromSettings'], vscode.ConfigurationTarget.Workspace);
    // Nor may it switch the model source (to VS Code's models, say, which may be paid per request).
    await config().update('model.provider', 'vscode', vscode.ConfigurationTarget.Workspace);
    // The user's own settings still apply in Restricted Mode: a model, and the bundled test runner asked for.
    await config().update('model.baseUrl', process.env['SPROUT_TEST_MODEL_URL'], vscode.ConfigurationTarget.Global);
    await config().update('model.name', 'fake-model', vscode.ConfigurationTarget.Global);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: true }, vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings().baseUrl === process.env['SPROUT_TEST_MODEL_URL'], 'the user endpoint setting to reach the extension');

    assert.deepEqual(sprout.settings().agent.hooks.allowlist, { kind: 'names', names: [] }, 'the workspace hook allowlist is ignored');
    assert.equal(sprout.settings().provider, 'auto', 'the workspace model source is ignored');
    assert.equal(sprout.host.modelSources.source(), 'openai');
    await sprout.host.invalidateServers();
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('hello from an untrusted workspace');
    const chat = await sprout.controller.current();
    assert.ok(chat.view.entries.some((e) => e.kind === 'assistant' && e.text.includes('Fake model reply to: hello from an untrusted workspace')), 'the chat itself still works');

    // Only the editor's own server: in the extension host, no process, read-only tools over VS Code's API.
    assert.deepEqual(sprout.host.servers.map((s) => s.name), ['editor'], 'no configured server starts');
    assert.deepEqual(sprout.host.status().map((s) => s.name), ['editor']);
    assert.equal(asked, 0, 'consent is never even asked in Restricted Mode');
    assert.equal(existsSync(marker), false, 'a workspace-defined server process ran');

    const notices = sprout.host.notices.join('\n');
    // VS Code itself hides the workspace value of a restricted setting in Restricted Mode, so only the
    // `.vscode/mcp.json` server can be named; neither starts (asserted above).
    assert.match(notices, /This workspace is not trusted, so its MCP servers \(fromFile\) and hooks do not start/);
    assert.match(notices, /bundled test runner does not start in an untrusted workspace/);
    assert.match(notices, /Restricted Mode: \.claude\/settings\.json \(Claude Code hooks\) does not run/);
    const snapshot = await sprout.snapshot();
    // The notice names what it blocks (the .vscode/mcp.json server; VS Code hides the settings one).
    assert.match(snapshot.notice ?? '', /Restricted Mode: Sprout does not start this workspace's MCP server fromFile, and ignores the workspace's hook servers/);

    const shown = sprout.tree.getChildren().filter((n): n is Extract<HookNode, { kind: 'notice' }> => n.kind === 'notice');
    const labels = shown.map((n) => String(sprout.tree.getTreeItem(n).label ?? ''));
    assert.ok(labels.some((l) => l.includes('not trusted')), `Hooks view notices: ${labels.join(' | ')}`);
  });
});
