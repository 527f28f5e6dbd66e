// The extension with a model already in VS Code (the ScriptedLmProvider fixture) and no key or base
// URL: `auto` picks the VS Code source, the setup card offers its models, Select Model writes the
// source and the model together, a chat runs through the controller (tools, a real hook server's
// objection), the window is the model's maxInputTokens (it starts a compaction), a denied consent says
// what to do, and a stored API key switches `auto` back to the endpoint.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SproutApi } from '../../../src/extension/extension';
import { SCRIPTED_LM_EXTENSION_ID, type ScriptedLmProviderApi } from '../lmProvider/scriptedLmTypes';
import { sproutApi, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspaceKeys = ['mcp.servers', 'mcp.builtinServers', 'hooks.servers'];
// Tool auto-approval is read from user settings only.
const userKeys = ['model.provider', 'model.name', 'tools.autoApprove'];

async function clear(): Promise<void> {
  for (const key of workspaceKeys) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  for (const key of userKeys) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
}

describe('a model already in VS Code (extension, real vscode.lm)', function () {
  this.timeout(60_000);
  let sprout: SproutApi;
  let provider: ScriptedLmProviderApi;

  before(async () => {
    const fixture = vscode.extensions.getExtension<ScriptedLmProviderApi>(SCRIPTED_LM_EXTENSION_ID);
    assert.ok(fixture, `the runner installs ${SCRIPTED_LM_EXTENSION_ID}`);
    sprout = await sproutApi();
    provider = await fixture.activate();
    await clear();
    await vscode.commands.executeCommand('sprout.clearApiKey');
    const hookServer = process.env['SPROUT_TEST_HOOK_SERVER'];
    assert.ok(hookServer, 'the runner passes SPROUT_TEST_HOOK_SERVER (it objects once at _Stop)');
    sprout.consent.prompt = async () => true;
    const target = vscode.ConfigurationTarget.Workspace;
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', { hooky: JSON.parse(hookServer) as unknown }, target);
    await config().update('hooks.servers', ['hooky'], target);
    await config().update('tools.autoApprove', ['hooky__echo'], vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings().autoApprove.includes('hooky__echo') && !sprout.settings().baseUrlConfigured, 'the settings');
    await sprout.host.invalidateServers();
  });
  beforeEach(() => provider.reset());

  /** What the picker does when the user chooses the model; resolves once the settings say so. */
  async function useModel(ref: string): Promise<void> {
    await vscode.commands.executeCommand('sprout.selectModel', { source: 'vscode', ref });
    await until(() => sprout.settings().agent.model === ref, 'the model setting');
  }
  after(async () => {
    await clear();
    await sprout.host.invalidateServers();
  });

  it('with no key and no base URL, auto uses VS Code and the setup card offers its models', async () => {
    assert.equal(sprout.settings().provider, 'auto');
    await sprout.host.modelSources.refresh();
    assert.equal(sprout.host.modelSources.source(), 'vscode');
    const setup = sprout.controller.setupNeeded();
    assert.ok(setup, 'no model picked yet');
    assert.equal(setup.vscodeModels, true);
    assert.equal(setup.needsModel, true);
    assert.match(setup.reason, /one already in VS Code/);
  });

  it('Select Model with a VS Code model writes the source and the model; its input limit is the window', async () => {
    const selected = await vscode.commands.executeCommand('sprout.selectModel', { source: 'vscode', ref: 'sprout-test/scripted-small' });
    assert.deepEqual(selected, { source: 'vscode', name: 'sprout-test/scripted-small' });
    await until(() => sprout.settings().agent.model === 'sprout-test/scripted-small', 'the model setting');
    assert.equal(config().inspect('model.provider')?.globalValue, 'vscode');
    assert.equal(sprout.controller.setupNeeded(), null);
    assert.equal(sprout.host.modelSources.agentSettings().contextWindowTokens, 3_000);
    assert.equal(sprout.settings().agent.contextWindowTokens, 128_000, 'the setting itself is untouched');
    // The composer names it (from VS Code's own listing), so a model chosen by settings is in sight.
    assert.deepEqual((await sprout.snapshot()).model, {
      label: 'Scripted Small Model',
      source: 'vscode',
      detail: 'Scripted Small Model (sprout-test, scripted-small), a model in VS Code',
    });
  });

  it('a chat through the controller: a tool runs, the hook objects, the model answers; every request went to VS Code', async () => {
    await useModel('sprout-test/scripted');
    provider.script([
      { kind: 'toolCalls', calls: [{ name: 'hooky__echo', input: { text: 'ping' } }] },
      { kind: 'text', text: 'Echoed. All done.' },
      { kind: 'text', text: 'Tests run: none exist here.' },
    ]);
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('Echo ping, then finish.');
    const chat = await sprout.controller.current();
    const kinds = chat.view.entries.map((e) => e.kind);
    assert.ok(kinds.includes('tool') && kinds.includes('objection'), `entries: ${kinds.join(', ')}`);
    const outcome = chat.view.entries.filter((e) => e.kind === 'outcome').at(-1);
    assert.equal(outcome?.kind === 'outcome' && outcome.reason, 'end_turn');
    assert.equal(provider.requests.length, 3);
    assert.ok(provider.requests.every((r) => r.model === 'scripted' && r.tools.includes('hooky__echo') && !r.tools.some((t) => t.includes('___'))));
  });

  it("the model's maxInputTokens starts a compaction in a chat", async () => {
    await useModel('sprout-test/scripted-small');
    provider.script([
      { kind: 'toolCalls', calls: [{ name: 'hooky__echo', input: { text: 'ok' } }] },
      { kind: 'text', text: 'Original task: read and echo. Done: echoed. Next: answer.' },
      { kind: 'text', text: 'Answered after the handoff.' },
    ]);
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send(`Read this and echo ok.\n${'lorem ipsum '.repeat(420)}`);
    const chat = await sprout.controller.current();
    const compaction = chat.view.entries.find((e) => e.kind === 'compaction');
    assert.ok(compaction?.kind === 'compaction' && compaction.trigger === 'auto' && !compaction.fallback, `entries: ${chat.view.entries.map((e) => e.kind).join(', ')}`);
    assert.deepEqual(provider.requests[1]?.tools, [], 'the summary call offers no tools');
  });

  it('a denied consent ends the prompt saying what to do', async () => {
    await useModel('sprout-test/scripted');
    provider.script([{ kind: 'error', code: 'NoPermissions', message: 'the user did not allow it' }]);
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.send('hello');
    const chat = await sprout.controller.current();
    const outcome = chat.view.entries.filter((e) => e.kind === 'outcome').at(-1);
    assert.ok(outcome?.kind === 'outcome' && outcome.reason === 'error', JSON.stringify(outcome));
    assert.match(outcome.message ?? '', /did not allow Sprout to use "Scripted Model" \(sprout-test\).*choose Allow.*Manage Language Model Access/);
  });

  it('a stored API key makes auto use the endpoint again; clearing it returns to VS Code', async () => {
    await config().update('model.provider', undefined, vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings().provider === 'auto', 'auto');
    await vscode.commands.executeCommand('sprout.setApiKey', 'sk-lm-editor-test-0000');
    assert.equal(sprout.host.modelSources.source(), 'openai');
    // The endpoint now serves the chat, and the composer says so (the VS Code reference is no endpoint model, but it is what is set).
    const model = (await sprout.snapshot()).model;
    assert.equal(model?.source, 'openai');
    assert.match(model?.detail ?? '', / at api\.openai\.com$/);
    await vscode.commands.executeCommand('sprout.clearApiKey');
    assert.equal(sprout.host.modelSources.source(), 'vscode');
  });
});
