// Extension-host tests against the real `vscode` API: settings reach the core settings (including the
// "*"-mixed error), the API key lives in SecretStorage, workspace-defined servers need consent, and a
// scripted run (fake model server, real hook server child process) leaves the Hooks view's tree showing
// the objection and the budget used; before it, the view says the servers are not started and starts them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HookNode } from '../../../src/extension/hooks/hooksTreeProvider';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;

const keys = ['hooks.servers', 'hooks.timeoutMs', 'hooks.stopMaxRejections', 'hooks.stopBudgetScope', 'hooks.repeatedEndTurnStops', 'hooks.preToolUseMaxDenials', 'agent.maxRounds', 'model.name', 'model.baseUrl', 'model.contextWindowTokens', 'mcp.servers', 'mcp.builtinServers'];

describe('sprout extension', function () {
  this.timeout(60_000);
  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
  });

  it('maps every setting to the core settings, without a reload', async () => {
    const sprout = await api();
    await config().update('hooks.servers', ['tests', 'lint'], target);
    await config().update('hooks.timeoutMs', 700, target);
    await config().update('hooks.stopMaxRejections', 5, target);
    await config().update('hooks.stopBudgetScope', 'prompt', target);
    await config().update('hooks.repeatedEndTurnStops', false, target);
    await config().update('hooks.preToolUseMaxDenials', 4, target);
    await config().update('agent.maxRounds', 9, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('model.contextWindowTokens', 4096, target);
    await until(() => sprout.settings().agent.contextWindowTokens === 4096, 'settings to apply');
    const s = sprout.settings();
    assert.deepEqual(s.agent.hooks, {
      allowlist: { kind: 'names', names: ['tests', 'lint'] },
      timeoutMs: 700,
      stopMaxRejections: 5,
      stopBudgetScope: 'prompt',
      repeatedEndTurnStops: false,
      preToolUseMaxDenials: 4,
    });
    assert.equal(s.agent.maxRounds, 9);
    assert.equal(s.agent.model, 'fake-model');
    assert.deepEqual(s.errors, []);
  });

  it('reports "*" mixed with names as an error and keeps hooks off', async () => {
    const sprout = await api();
    await config().update('hooks.servers', ['*', 'tests'], target);
    await until(() => sprout.settings().errors.length > 0, 'the error');
    assert.equal(sprout.settings().errors[0]?.setting, 'sprout.hooks.servers');
    assert.deepEqual(sprout.settings().agent.hooks.allowlist, { kind: 'names', names: [] });
  });

  it('stores the API key in SecretStorage only and clears it', async () => {
    const sprout = await api();
    await vscode.commands.executeCommand('sprout.setApiKey', 'sk-editor-test-secret-123456');
    assert.equal(sprout.keys.current, 'sk-editor-test-secret-123456');
    const inspected = JSON.stringify(config());
    assert.ok(!inspected.includes('sk-editor-test-secret'), 'the key must not be in settings');
    await vscode.commands.executeCommand('sprout.clearApiKey');
    assert.equal(sprout.keys.current, undefined);
  });

  it('asks consent for a workspace-defined server, and again when its command changes', async () => {
    const sprout = await api();
    const asked: string[] = [];
    sprout.consent.prompt = async (server) => {
      asked.push(server.name);
      return false;
    };
    const server = { name: 'ws-server', transport: { type: 'stdio' as const, command: 'node', args: ['a.js'], env: {} } };
    assert.equal(await sprout.consent.ensure(server), false);
    assert.equal(await sprout.consent.ensure(server), false);
    assert.deepEqual(asked, ['ws-server']);
    await sprout.consent.ensure({ ...server, transport: { ...server.transport, args: ['b.js'] } });
    assert.deepEqual(asked, ['ws-server', 'ws-server']);
    assert.equal(vscode.workspace.isTrusted, true);
  });

  it('after a scripted run, the Hooks view shows the server, the objection and the budget used', async () => {
    const sprout = await api();
    const modelUrl = process.env['SPROUT_TEST_MODEL_URL'];
    const hookServer = process.env['SPROUT_TEST_HOOK_SERVER'];
    assert.ok(modelUrl && hookServer, 'the runner passes SPROUT_TEST_MODEL_URL and SPROUT_TEST_HOOK_SERVER');
    sprout.consent.prompt = async () => true;
    await config().update('model.baseUrl', modelUrl, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', { hooky: JSON.parse(hookServer) as unknown }, target);
    await config().update('hooks.servers', ['hooky'], target);
    await config().update('hooks.stopMaxRejections', 3, target);
    await config().update('hooks.repeatedEndTurnStops', true, target);
    await until(() => sprout.settings().agent.hooks.allowlist.kind === 'names' && sprout.settings().baseUrl === modelUrl, 'settings');
    await sprout.host.invalidateServers();
    // Before the first prompt the view says the servers are not started, and clicking that starts them.
    const serversNode = (): vscode.TreeItem => sprout.tree.getTreeItem(sprout.tree.getChildren().find((n) => n.kind === 'servers') as HookNode);
    assert.equal(sprout.hooks.serversStarted, false);
    assert.match(String(serversNode().description), /^not started yet/);
    const start = serversNode().command;
    assert.ok(start);
    assert.equal(start.command, 'sprout.restartMcpServers');
    await vscode.commands.executeCommand(start.command);
    await until(() => sprout.hooks.serversStarted, 'the servers node to follow the start');
    // Nothing polls: the server's own status reports (started, tools listed) bring its hooks into the view.
    await until(() => sprout.hooks.servers.get('hooky')?.hooks.join() === '_Stop', 'its hooks to show before any prompt');
    assert.equal(sprout.hooks.servers.get('hooky')?.health, 'ok');
    // hooky and the editor's own server (always there in the extension).
    await until(() => serversNode().description === '2', 'both servers in the view');
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('hello from the editor test');
    const chat = await sprout.controller.current();
    const kinds = chat.view.entries.map((e) => e.kind);
    assert.ok(kinds.includes('objection'), `entries: ${kinds.join(', ')}`);
    assert.equal(sprout.hooks.budget?.used, 1);
    assert.equal(sprout.hooks.objections.length, 1);
    assert.match(sprout.hooks.objections[0]?.text ?? '', /Editor-test objection/);
    const roots = sprout.tree.getChildren();
    const budgetItem = sprout.tree.getTreeItem(roots[0] as HookNode);
    assert.equal(budgetItem.label, 'Objections left: 2 of 3');
    const servers = sprout.tree.getChildren(roots.find((n) => n.kind === 'servers'));
    const hooky = servers.find((n) => n.kind === 'server' && n.server.name === 'hooky');
    assert.ok(hooky && hooky.kind === 'server');
    assert.equal(hooky.server.allowlisted, true);
    assert.deepEqual(hooky.server.hooks, ['_Stop']);
    const timeline = sprout.tree.getChildren(roots.find((n) => n.kind === 'timeline'));
    assert.equal(timeline.length, 1);
    assert.match(String(sprout.tree.getTreeItem(timeline[0] as HookNode).label), /hooky: Editor-test objection/);
    assert.match(sprout.statusBar.text, /Sprout · 2\/3 objections left/);
    assert.match(String(sprout.tree.getTreeItem(hooky).description), /^ok · Completion check$/, "a short row: health and what it checks");
  });
});
