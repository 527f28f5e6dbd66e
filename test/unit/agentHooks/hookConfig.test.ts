// Installing the bridge's entries into an agent's config file: merged beside the user's own hooks
// (never removing one), idempotent, replacing Sprout's earlier entries, taken back out by uninstall,
// and a file Sprout cannot read exactly is an error rather than overwritten.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentFormat } from '../../../src/agentHooks/agentFormats';
import { HookConfigError, isBridgeCommand, planInstall, planUninstall, readHookEntries } from '../../../src/agentHooks/hookConfig';

const claude = agentFormat('claude');
const cmd = (event: string) => `/usr/bin/node /opt/sprout/dist/cli.js hooks run --agent claude ${event} --hook-servers todo`;
const userOwn = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: './scripts/lint.sh', timeout: 30 }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
  },
};

describe('hook config files', () => {
  it('install merges beside the user\'s hooks and keeps everything else, with the file\'s indentation', () => {
    const text = JSON.stringify(userOwn, null, 4);
    const plan = planInstall(claude, text, 'settings.json', [{ event: 'Stop', command: cmd('Stop'), timeoutMs: 60_000 }]);
    assert.equal(plan.changed, true);
    assert.match(plan.text, /\n {4}"permissions"/);
    const json = JSON.parse(plan.text);
    assert.deepEqual(json.permissions, userOwn.permissions);
    assert.deepEqual(json.hooks.PreToolUse, userOwn.hooks.PreToolUse);
    assert.deepEqual(json.hooks.Stop, [...userOwn.hooks.Stop, { hooks: [{ type: 'command', command: cmd('Stop'), timeout: 60 }] }]);
    assert.deepEqual(plan.added, [`Stop: ${cmd('Stop')}`]);
  });

  it('install is idempotent, and replaces Sprout\'s own earlier entries', () => {
    const first = planInstall(claude, undefined, 'settings.json', [{ event: 'Stop', command: cmd('Stop'), timeoutMs: 60_000 }]);
    const again = planInstall(claude, first.text, 'settings.json', [{ event: 'Stop', command: cmd('Stop'), timeoutMs: 60_000 }]);
    assert.equal(again.changed, false);
    assert.equal(again.text, first.text);
    const moved = planInstall(claude, first.text, 'settings.json', [{ event: 'Stop', command: cmd('Stop').replace('/opt/sprout', '/srv/sprout'), timeoutMs: 60_000 }]);
    assert.equal(moved.changed, true);
    assert.equal(readHookEntries(claude, moved.text, 'settings.json').length, 1, 'the old entry was replaced, not kept beside the new one');
  });

  it('uninstall takes out only Sprout\'s entries and drops what it leaves empty', () => {
    const installed = planInstall(claude, JSON.stringify(userOwn), 'settings.json', [
      { event: 'Stop', command: cmd('Stop'), timeoutMs: 60_000 },
      { event: 'SessionEnd', command: cmd('SessionEnd'), timeoutMs: 60_000 },
    ]).text;
    const plan = planUninstall(claude, installed, 'settings.json');
    assert.deepEqual(JSON.parse(plan.text), userOwn);
    assert.equal(plan.removed.length, 2);
    assert.equal(planUninstall(claude, plan.text, 'settings.json').changed, false);
  });

  it('flat layouts (Copilot, Cursor) get the file fields their agent requires', () => {
    const copilot = planInstall(agentFormat('copilot'), undefined, 'sprout-agent.json', [{ event: 'agentStop', command: cmd('agentStop'), timeoutMs: 60_000 }]);
    assert.deepEqual(JSON.parse(copilot.text), { version: 1, hooks: { agentStop: [{ type: 'command', bash: cmd('agentStop'), timeoutSec: 60 }] } });
    const gemini = planInstall(agentFormat('gemini'), '{}', 'settings.json', [{ event: 'AfterAgent', command: cmd('AfterAgent'), timeoutMs: 60_000 }]);
    assert.deepEqual(JSON.parse(gemini.text).hooks.AfterAgent, [{ hooks: [{ type: 'command', command: cmd('AfterAgent'), timeout: 60_000 }] }], 'Gemini times in milliseconds');
  });

  it('reads every command hook of a file, with matchers and timeouts in milliseconds', () => {
    assert.deepEqual(readHookEntries(claude, JSON.stringify(userOwn), 'settings.json'), [
      { event: 'Stop', command: './scripts/lint.sh', timeoutMs: 30_000 },
      { event: 'PreToolUse', command: 'guard.sh', matcher: 'Bash' },
    ]);
  });

  it('a file that is not plain JSON is an error that names it, never overwritten', () => {
    assert.throws(() => planInstall(claude, '{ // comment\n}', '/w/.claude/settings.json', []), (e: unknown) => e instanceof HookConfigError && /\/w\/\.claude\/settings\.json is not valid JSON/.test(e.message));
    assert.throws(() => planInstall(claude, '{"hooks": []}', 'f.json', []), /"hooks" is not an object/);
  });

  it('recognises the commands it wrote, and only those', () => {
    assert.equal(isBridgeCommand(cmd('Stop')), true);
    assert.equal(isBridgeCommand("'/opt/my node/node' '/x/dist/cli.js' hooks run --agent gemini AfterAgent"), true);
    assert.equal(isBridgeCommand('sprout-agent hooks run --agent codex Stop'), true);
    assert.equal(isBridgeCommand('./scripts/lint.sh hooks run --agent'), false);
  });
});
