// Sprout: Use Hooks in Another Agent, in the real editor: for a hook server the window runs from
// .vscode/mcp.json and allowlists, it writes Claude Code's hook entries (the events the server's hooks
// need, each running the sprout-agent CLI's bridge with the same servers) into .claude/settings.json
// beside the user's own hooks, and writes nothing twice; a server defined only in settings, which the
// CLI cannot start, is refused with where to move it.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const keys = ['mcp.builtinServers', 'mcp.servers', 'hooks.servers'];
const PROGRAM = '/opt/sprout/bin/sprout-agent';

describe('Sprout: Use Hooks in Another Agent', function () {
  this.timeout(120_000);
  const mcpJson = join(workspaceFolder, '.vscode', 'mcp.json');
  const settingsFile = join(workspaceFolder, '.claude', 'settings.json');
  let hadMcpJson: string | undefined;

  before(async () => {
    const sprout = await api();
    hadMcpJson = existsSync(mcpJson) ? readFileSync(mcpJson, 'utf8') : undefined;
    const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(mcpJson, JSON.stringify({ servers: { gate: { type: 'stdio', ...base, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify({ hooks: { _Stop: { kind: 'empty' } } }) } } } }));
    mkdirSync(join(workspaceFolder, '.claude'), { recursive: true });
    writeFileSync(settingsFile, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './lint.sh' }] }] } }, null, 2));
    sprout.consent.prompt = async () => true;
    // The .claude/settings.json written below has a command hook of the user's: this test does not run it.
    sprout.hookFiles.prompt = async () => false;
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('hooks.servers', ['gate'], target);
    await until(() => {
      const allowlist = sprout.settings().agent.hooks.allowlist;
      return allowlist.kind === 'names' && allowlist.names.join() === 'gate';
    }, 'the allowlist to be read');
    await sprout.host.invalidateServers();
  });

  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    if (hadMcpJson === undefined) rmSync(mcpJson, { force: true });
    else writeFileSync(mcpJson, hadMcpJson);
    rmSync(join(workspaceFolder, '.claude'), { recursive: true, force: true });
  });

  it('writes Claude Code\'s hooks for the allowlisted server beside the user\'s own, once', async () => {
    const written = await vscode.commands.executeCommand<string>('sprout.useHooksInAgent', 'claude', { yes: true, program: PROGRAM });
    assert.equal(written, settingsFile);
    const json = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    assert.equal(json.hooks.Stop?.[0]?.hooks[0]?.command, './lint.sh', 'the user\'s own hook is kept');
    const stop = json.hooks.Stop?.[1]?.hooks[0];
    assert.equal(stop?.command, `${PROGRAM} hooks run --agent claude Stop --cwd ${workspaceFolder} --trust-workspace --builtin-servers '' --hook-servers gate`);
    assert.deepEqual(Object.keys(json.hooks).sort(), ['PostToolUse', 'SessionEnd', 'Stop'], 'the events _Stop needs');
    const before = readFileSync(settingsFile, 'utf8');
    await vscode.commands.executeCommand('sprout.useHooksInAgent', 'claude', { yes: true, program: PROGRAM });
    assert.equal(readFileSync(settingsFile, 'utf8'), before, 'nothing is written twice');
  });

  it('answers for the servers as configured when a configuration change drops the hub while they start', async () => {
    const sprout = await api();
    const before = readFileSync(settingsFile, 'utf8');
    await sprout.host.invalidateServers();
    // A late .vscode/mcp.json or settings event does this on a busy machine: the hub the command started is dropped and closed.
    let dropped = false;
    const stop = sprout.host.onServers((state) => {
      if (!state.started || dropped) return;
      dropped = true;
      void sprout.host.invalidateServers();
    });
    try {
      const written = await vscode.commands.executeCommand<string | undefined>('sprout.useHooksInAgent', 'claude', { yes: true, program: PROGRAM });
      assert.ok(dropped, 'the hub was dropped while the command listed its servers');
      assert.equal(written, settingsFile, 'the gate server\'s hooks are found on the next hub');
    } finally {
      stop();
    }
    assert.equal(readFileSync(settingsFile, 'utf8'), before, 'nothing is written twice');
  });

  it('refuses a hook server the CLI cannot start (defined in settings only), and writes nothing', async () => {
    const sprout = await api();
    const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as Record<string, unknown>;
    await config().update('mcp.servers', { inSettings: base }, target);
    await config().update('hooks.servers', ['gate', 'inSettings'], target);
    await until(() => {
      const allowlist = sprout.settings().agent.hooks.allowlist;
      return allowlist.kind === 'names' && allowlist.names.includes('inSettings');
    }, 'the allowlist to be read');
    await sprout.host.invalidateServers();
    const before = readFileSync(settingsFile, 'utf8');
    const written = await vscode.commands.executeCommand<string | undefined>('sprout.useHooksInAgent', 'gemini', { yes: true, program: PROGRAM });
    assert.equal(written, undefined);
    assert.equal(existsSync(join(workspaceFolder, '.gemini', 'settings.json')), false);
    assert.equal(readFileSync(settingsFile, 'utf8'), before);
  });
});
