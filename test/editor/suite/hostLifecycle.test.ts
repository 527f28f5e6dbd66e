// The agent host's server builds in the real extension host: a build that waits on the user (an
// `${input:}` box of .vscode/mcp.json) is stopped by one cancellation when a newer build supersedes it
// (the real input box closes, and the newer build's question is the one showing) and when the host is
// disposed (a window reload or deactivation): the late answer then starts no server process.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../src/agent/ports';
import { AgentHost } from '../../../src/extension/agentHost';
import type { SproutApi } from '../../../src/extension/extension';
import { readBaseUrlLevels } from '../../../src/extension/settings/configReader';
import { promptForInput } from '../../../src/extension/settings/mcpSecrets';
import type { McpInputSpec } from '../../../src/mcp/configInputs';
import { processAdaptationMemory } from '../../../src/model/adaptationMemory';
import { HOOK_SERVER_ENV, hookServerConfig, readHookServerLog } from '../../fakes/hookServer';
import { changeMcpJson, sproutApi, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const workspace = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const mcpJson = join(workspace, '.vscode', 'mcp.json');

/** The runner's command for the fake hook server (the suites' Node with tsx), with this test's own configuration. */
function fakeServer(logFile?: string, extra: Record<string, string> = {}): { command: string; args: string[]; env: Record<string, string> } {
  const t = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
  const server = hookServerConfig({ logFile, extraTools: [{ name: 'show_env', behaviour: { kind: 'env' } }] });
  return { ...t, env: { ...t.env, [HOOK_SERVER_ENV]: JSON.stringify(server), ...extra } };
}

/** A file whose server needs the input `id` (its value goes to the server's TOKEN variable). */
const fileAsking = (id: string, name: string, logFile?: string, declared: Record<string, unknown> = {}) => ({
  inputs: [{ type: 'promptString', id, ...declared }],
  servers: { [name]: fakeServer(logFile, { TOKEN: `\${input:${id}}` }) },
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('Server builds end when superseded or disposed', function () {
  this.timeout(90_000);
  let sprout: SproutApi;
  let restore: () => void = () => undefined;
  before(async () => {
    sprout = await sproutApi();
    const { consent, mcpPrompts } = sprout;
    const [prompt, askInput] = [consent.prompt, mcpPrompts.askInput];
    restore = () => ((consent.prompt = prompt), (mcpPrompts.askInput = askInput));
    // These servers are the workspace's (.vscode/mcp.json): the test is the user who lets them start.
    sprout.consent.prompt = async () => true;
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', {}, target);
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
  });
  after(async () => {
    // An input box a failed run left open would block the suites after this one.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await changeMcpJson(sprout, () => rmSync(mcpJson, { force: true }));
    for (const key of ['mcp.builtinServers', 'mcp.servers']) await config().update(key, undefined, target);
    restore();
  });

  it("a superseded build's ${input:} box is closed, and the newer build's question is the one showing", async () => {
    const asked: string[] = [];
    let older: { value: string | undefined; aborted: boolean | undefined } | undefined;
    // The real input box (showInputBox) for both files, as the extension asks by default.
    sprout.mcpPrompts.askInput = (spec: McpInputSpec, source: string, signal?: AbortSignal) => {
      asked.push(spec.id);
      const box = promptForInput(spec, source, signal);
      if (spec.id === 'older-lifecycle-token') void box.then((value) => (older = { value, aborted: signal?.aborted }));
      return box;
    };
    await changeMcpJson(sprout, () => writeFileSync(mcpJson, JSON.stringify(fileAsking('older-lifecycle-token', 'older', undefined, { password: true }))));
    const started = sprout.host.ensureServers();
    await until(() => asked.length === 1, 'the older file\'s input box');
    await changeMcpJson(sprout, () => writeFileSync(mcpJson, JSON.stringify(fileAsking('newer-lifecycle-token', 'newer', undefined, { default: 'typed-in-the-newer-box' }))));
    const closed = await until(() => older, 'the older input box to close once its build was superseded', 60_000);
    assert.deepEqual(closed, { value: undefined, aborted: true }, 'the older box was closed by the build being superseded, not answered');
    await until(() => asked.length === 2, 'the newer file\'s input box');
    // Enter in the box that is showing: the newer one, with its default value.
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const hub = await started;
    assert.deepEqual(hub.status().map((s) => s.name), ['newer', 'editor'], 'the start that began first answers with the newer hub (beside the editor\'s own server)');
    await hub.listTools();
    const env = await hub.callTool('newer', 'show_env', {}, { signal: new AbortController().signal });
    assert.match(env.text, /"TOKEN":"typed-in-the-newer-box"/, 'the answer typed in the box that was showing reached the newer server');
    assert.deepEqual(asked, ['older-lifecycle-token', 'newer-lifecycle-token']);
  });

  it('dispose while a build waits on ${input:} ends the build: the late answer starts no server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sprout-dispose-'));
    const log = join(dir, 'server.log');
    let answer: (() => void) | undefined;
    let asked: AbortSignal | undefined;
    // A second host over the window's real stores and settings, so disposing it leaves the extension's own one running.
    const host = new AgentHost({
      extensionPath: vscode.extensions.getExtension('sprout.sprout-agent')?.extensionPath ?? '',
      storageDir: dir,
      workspaceFolder: workspace,
      logger: quiet,
      consent: sprout.consent,
      secretConsent: sprout.secretConsent,
      settings: sprout.settings,
      apiKey: () => undefined,
      keyConsent: sprout.keyConsent,
      baseUrlLevels: readBaseUrlLevels,
      modelMemory: processAdaptationMemory(),
      trusted: () => vscode.workspace.isTrusted,
      // The user answers only after the window started to close (as a modal's answer can come): the value ignores the signal.
      inputs: (_source, specs, signal) => {
        asked = signal;
        return new Promise((resolve) => (answer = () => resolve(new Map(specs.map((s) => [s.id, 'late-answer'])))));
      },
    });
    let started: number[] = [];
    try {
      await changeMcpJson(sprout, () => writeFileSync(mcpJson, JSON.stringify(fileAsking('dispose-lifecycle-token', 'late', log))));
      // What the Hooks view and Restart MCP Servers do: start every server and list it.
      const listing = host.listedStatus().then(
        (status) => `listed ${status.map((s) => s.name).join(', ')}`,
        (error: Error) => error.message,
      );
      await until(() => answer, 'the build to ask for the input');
      await host.dispose();
      answer?.();
      const outcome = await listing;
      started = readHookServerLog(log).filter((e) => e.type === 'started').map((e) => e.pid);
      assert.deepEqual(started.filter(alive), [], `no server process may outlive the disposed host (the build ended with: ${outcome})`);
      assert.match(outcome, /shutting down/, 'whoever waited on the build is told the host is gone');
      assert.equal(asked?.aborted, true, 'the question was asked under the build\'s signal, aborted by dispose');
    } finally {
      for (const pid of started.filter(alive)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
