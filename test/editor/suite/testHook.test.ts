// The test-runner hook's evidence in a real editor: the bundled `tests` server (dist/servers/tests.js, a
// real child process) runs a real node:test suite in the workspace; its `_Stop` objection's structured
// failures reach the chat's objection entry, the Hooks view (each failure opens its file at the line)
// and VS Code's Testing view through the extension's TestController; once the suite is fixed, the next
// verdict marks it passed there.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HookNode } from '../../../src/extension/hooks/hooksTreeProvider';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.servers', 'hooks.timeoutMs', 'hooks.stopMaxRejections', 'hooks.repeatedEndTurnStops'];
const SUITE = (total: string): string => `const test = require('node:test');
const assert = require('node:assert/strict');
const total = (items) => ${total};

test('totals prices', () => {
  assert.equal(total([2, 3]), 5);
});

test('an empty cart costs nothing', () => assert.equal(total([]), 0));
`;

describe('test-runner hook evidence in the editor', function () {
  this.timeout(90_000);
  const project = join(workspaceFolder, 'cart-suite');
  let state: string;

  before(async () => {
    const sprout = await api();
    const ext = vscode.extensions.getExtension('sprout.sprout-agent');
    assert.ok(ext && workspaceFolder !== '');
    mkdirSync(join(project, 'test'), { recursive: true });
    writeFileSync(join(project, 'test', 'cart.test.js'), SUITE('items.reduce((a, b) => a + b, 0) + 1'));
    state = mkdtempSync(join(tmpdir(), 'sprout-editor-tests-hook-'));
    const server = {
      command: process.execPath,
      // Rooted at the workspace, as the bundled server is: failures name files relative to it.
      args: [join(ext.extensionPath, 'dist', 'servers', 'tests.js'), '--root', workspaceFolder, '--state-dir', state, '--command', `"${process.execPath}" --test`, '--watch', 'off', '--hook-budget-ms', '20000'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
    sprout.consent.prompt = async () => true;
    await config().update('model.baseUrl', process.env['SPROUT_TEST_MODEL_URL'], target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', { suite: server }, target);
    await config().update('hooks.servers', ['suite'], target);
    await config().update('hooks.timeoutMs', 25_000, target);
    await config().update('hooks.stopMaxRejections', 3, target);
    await config().update('hooks.repeatedEndTurnStops', true, target);
    await until(() => sprout.settings().agent.hooks.timeoutMs === 25_000, 'settings');
    await sprout.host.invalidateServers();
  });
  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    rmSync(project, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  it('lists the failures in the chat, the Hooks view and the Testing view, and opens them at their line', async () => {
    const sprout = await api();
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('Fix the cart total.');
    const chat = await sprout.controller.current();
    const objection = chat.view.entries.find((e) => e.kind === 'objection');
    assert.ok(objection?.kind === 'objection', `entries: ${chat.view.entries.map((e) => e.kind).join(', ')}`);
    assert.deepEqual(
      objection.failures?.map((f) => [f.name, f.file, f.line]),
      [
        ['totals prices', 'cart-suite/test/cart.test.js', 6],
        ['an empty cart costs nothing', 'cart-suite/test/cart.test.js', 9],
      ],
    );
    assert.match(objection.failures?.[0]?.message ?? '', /6 !== 5/);

    // The Hooks view: the objection lists its failures, each opening its file at the line.
    const timeline = sprout.tree.getChildren(sprout.tree.getChildren().find((n) => n.kind === 'timeline'));
    const failureNodes = sprout.tree.getChildren(timeline[0] as HookNode);
    assert.deepEqual(failureNodes.map((n) => n.kind), ['failure', 'failure', 'showInTesting']);
    const open = sprout.tree.getTreeItem(failureNodes[1] as HookNode).command;
    assert.ok(open);
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === join(project, 'test', 'cart.test.js'), 'the failing test file to open');
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 8, 'at the failing line (0-based 8 = line 9)');

    // The Testing view: the extension's TestController mirrors the verdict.
    const root = sprout.testing.controller.items.get('hook:suite');
    assert.ok(root, 'a root item for the hook server');
    const children: vscode.TestItem[] = [];
    root.children.forEach((item) => void children.push(item));
    assert.deepEqual(
      children.map((c) => [c.label, c.uri?.fsPath, c.range?.start.line]),
      [
        ['totals prices', join(project, 'test', 'cart.test.js'), 5],
        ['an empty cart costs nothing', join(project, 'test', 'cart.test.js'), 8],
      ],
    );
    assert.equal(sprout.testing.lastRun?.status, 'failed');
    assert.deepEqual(sprout.testing.lastRun?.failed, [...children.map((c) => c.id), 'hook:suite']);
    assert.ok((await vscode.commands.getCommands(true)).includes('workbench.view.testing.focus'), 'the Testing view can be shown');
    await vscode.commands.executeCommand('sprout.showTestResults');
  });

  it('marks the suite passed once it is fixed', async () => {
    const sprout = await api();
    writeFileSync(join(project, 'test', 'cart.test.js'), SUITE('items.reduce((a, b) => a + b, 0)'));
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('Check the cart again.');
    await until(() => sprout.testing.lastRun?.status === 'passed', 'the green verdict in the Testing view', 30_000);
    const root = sprout.testing.controller.items.get('hook:suite');
    assert.equal(root?.children.size, 0, 'no failing tests left');
    assert.match(root?.description ?? '', /^0 failed, 2 passed/);
    assert.deepEqual(sprout.testing.lastRun?.passed, ['hook:suite']);
  });
  it('in a monorepo, the Testing view has a level per package and one per file above the failing tests', async () => {
    const sprout = await api();
    const failures = [
      { name: 'totals prices', file: 'cart-suite/packages/cart/src/cart.test.js', line: 4, message: 'Expected: 11', package: '@mono/cart' },
      { name: 'one item', file: 'cart-suite/packages/cart/src/cart.test.js', line: 12, message: 'Expected: 4', package: '@mono/cart' },
      { name: 'labels many items', file: 'cart-suite/packages/labels/src/label.test.js', line: 9, message: 'Expected: 3 items', package: '@mono/labels' },
    ];
    const evidence = { status: 'failed' as const, passed: 4, failed: 3, command: 'npm test', failures };
    sprout.testing.apply({ type: 'agent', event: { type: 'hook_finished', server: 'mono', hook: '_Stop', result: 'objection', text: 'The tests fail.', durationMs: 1, evidence }, at: Date.now() });
    const root = sprout.testing.controller.items.get('hook:mono');
    assert.ok(root, 'a root item for the hook server');
    const tree: [string, [string, string[]][]][] = [];
    root.children.forEach((pkg) => {
      const files: [string, string[]][] = [];
      pkg.children.forEach((file) => {
        const tests: string[] = [];
        file.children.forEach((t) => void tests.push(`${t.label}:${(t.range?.start.line ?? -1) + 1}`));
        files.push([file.description ?? '', tests]);
      });
      tree.push([pkg.label, files]);
    });
    assert.deepEqual(tree, [
      ['@mono/cart', [['cart-suite/packages/cart/src/cart.test.js', ['totals prices:4', 'one item:12']]]],
      ['@mono/labels', [['cart-suite/packages/labels/src/label.test.js', ['labels many items:9']]]],
    ]);
    assert.equal(sprout.testing.lastRun?.status, 'failed');
    assert.ok(sprout.testing.lastRun?.failed.includes('hook:mono:package:@mono/cart'), JSON.stringify(sprout.testing.lastRun?.failed));
  });
});
