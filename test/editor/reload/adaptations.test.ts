// What a model endpoint taught survives a real window reload, and reaches no other endpoint. The first
// run (before windowReload.test.ts reloads the window; files run in name order) sends a prompt to a
// fake that refuses the system role, as Gemma's chat template on vLLM does: the request is rejected
// once, sent again in the right shape, and the chat says so in a note. After the reload (a new
// extension host), a fake on the same address starts with the right shape at once (nothing
// rejected), the chat says the endpoint taught it earlier, and the runner's own fake (another
// endpoint, same model name) still gets the system role. The phase and the address are a file in
// the workspace.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SproutApi } from '../../../src/extension/extension';
import type { ChatEntry } from '../../../src/shared/protocol';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi, until } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const phaseFile = join(workspaceFolder, 'adaptations-phase.json');

async function gemmaLike(port?: number): Promise<FakeOpenAi> {
  const fake = await startFakeOpenAi({ rules: ['no-system-role'], port });
  fake.setResponder(() => ({ type: 'reply', text: 'Hello from a template without a system role.' }));
  return fake;
}

async function useEndpoint(sprout: SproutApi, url: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('sprout');
  await config.update('model.baseUrl', url, vscode.ConfigurationTarget.Global);
  await config.update('model.name', 'fake-model', vscode.ConfigurationTarget.Global);
  await config.update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, vscode.ConfigurationTarget.Global);
  await until(() => sprout.settings().baseUrl === url && sprout.settings().agent.model === 'fake-model', 'the model settings');
  await vscode.commands.executeCommand('sprout.newChat');
}

const notes = (entries: readonly ChatEntry[]): string[] => entries.flatMap((e) => (e.kind === 'hookEvent' ? [e.text] : []));
const firstRole = (fake: FakeOpenAi, n: number): string | undefined => (fake.chatRequests()[n]?.body as { messages: Array<{ role: string }> }).messages[0]?.role;

describe('what a model endpoint taught survives a window reload', function () {
  this.timeout(90_000);

  it('is learned once, said once, and applied from the first request after the reload, for that endpoint only', async () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    const sprout = await sproutApi();
    if (!existsSync(phaseFile)) {
      const fake = await gemmaLike();
      try {
        await useEndpoint(sprout, fake.url);
        const chat = await sprout.controller.current();
        await sprout.controller.send('hello');
        assert.deepEqual(fake.chatRequests().map((r) => r.valid), [false, true], 'rejected once, then accepted in the new shape');
        assert.equal(firstRole(fake, 1), 'user');
        assert.ok(notes(chat.view.entries).some((n) => /Adapted to .*: sending Sprout's instructions as the start of the first user message.*System role not supported/.test(n)), notes(chat.view.entries).join('\n'));
        writeFileSync(phaseFile, JSON.stringify({ port: Number(new URL(fake.url).port) }));
      } finally {
        await fake.close();
      }
      return; // windowReload.test.ts reloads the window; this file runs again after it.
    }
    const { port } = JSON.parse(readFileSync(phaseFile, 'utf8')) as { port: number };
    const fake = await gemmaLike(port);
    try {
      await useEndpoint(sprout, fake.url);
      const chat = await sprout.controller.current();
      await sprout.controller.send('hello again');
      assert.deepEqual(fake.chatRequests().map((r) => r.valid), [true], 'nothing rejected: the shape was remembered across the reload');
      assert.equal(firstRole(fake, 0), 'user');
      assert.ok(notes(chat.view.entries).some((n) => /as this endpoint taught it earlier/.test(n)), notes(chat.view.entries).join('\n'));
    } finally {
      await fake.close();
    }
    // Another endpoint with the same model name: nothing of it applies there.
    const runnerFake = process.env['SPROUT_TEST_MODEL_URL'] ?? '';
    await useEndpoint(sprout, runnerFake);
    const chat = await sprout.controller.current();
    await sprout.controller.send('plain endpoint');
    assert.ok(!notes(chat.view.entries).some((n) => /taught/.test(n)), 'nothing was applied at another endpoint');
    assert.ok(chat.view.entries.some((e) => e.kind === 'assistant' && /Fake model reply to: plain endpoint/.test(JSON.stringify(e))));
  });
});
