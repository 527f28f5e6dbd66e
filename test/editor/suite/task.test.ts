// The `sprout` task type in a real editor: a task from the workspace's tasks.json, fetched and run
// through vscode.tasks like "Run Task" does, runs its prompt against the fake model and ends with exit
// code 0; a prompt whose turn ends with a hook objection unresolved (a real hook server objects, the
// model declines) ends with exit code 4, the CLI's code for the same end. Each task's chat is listed
// with the others.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sproutApi as api, runSproutTask as runTask, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.servers', 'hooks.stopMaxRejections', 'hooks.repeatedEndTurnStops'];

describe('sprout task type', function () {
  this.timeout(60_000);
  before(async () => {
    assert.ok(workspaceFolder && process.env['SPROUT_TEST_MODEL_URL'] && process.env['SPROUT_TEST_HOOK_SERVER']);
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(
      join(workspaceFolder, '.vscode', 'tasks.json'),
      JSON.stringify({
        version: '2.0.0',
        tasks: [
          { label: 'sprout ok', type: 'sprout', prompt: 'summarise the README' },
          { label: 'sprout objected', type: 'sprout', prompt: 'finish the feature' },
        ],
      }),
    );
    await config().update('model.baseUrl', process.env['SPROUT_TEST_MODEL_URL'], target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
  });
  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    rmSync(join(workspaceFolder, '.vscode', 'tasks.json'), { force: true });
  });

  it('runs a tasks.json prompt to a normal end: exit code 0, the reply in its chat', async () => {
    const sprout = await api();
    await config().update('hooks.servers', [], target);
    await sprout.host.invalidateServers();
    assert.equal(await runTask('sprout ok'), 0);
    const chat = sprout.index.list().find((c) => c.title.includes('summarise the README'));
    assert.ok(chat, 'the task chat is listed');
  });

  it('fails the task with the CLI\'s exit code 4 when a hook objection is left unresolved', async () => {
    const sprout = await api();
    sprout.consent.prompt = async () => true;
    // A hook that keeps objecting: after the model declines, the final verdict still objects.
    const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { env?: Record<string, string> };
    const hooky = { ...base, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify({ hooks: { _Stop: { kind: 'object', text: 'Run the tests first.' } } }) } };
    await config().update('mcp.servers', { hooky }, target);
    await config().update('hooks.servers', ['hooky'], target);
    await config().update('hooks.stopMaxRejections', 1, target);
    await config().update('hooks.repeatedEndTurnStops', true, target);
    await until(() => sprout.settings().agent.hooks.stopMaxRejections === 1, 'the budget setting to reach the extension');
    await sprout.host.invalidateServers();
    assert.equal(await runTask('sprout objected'), 4);
  });
});
