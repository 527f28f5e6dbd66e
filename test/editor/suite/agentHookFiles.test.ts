// Another agent's hook file gating the chat in the real editor: the workspace's .claude/settings.json
// (a Stop hook that blocks once then allows, a PreToolUse hook that denies `rm -rf`) runs only after
// the consent dialog shows its commands, through the same caller and gate as MCP hooks (no
// sprout.hooks.servers entry needed); the denial and the objection name the file and the command, the
// Hooks view lists the file with a row per hook; an edited file asks again, and declining runs nothing.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HookFileConsentRequest } from '../../../src/extension/hooks/agentHookFiles';
import type { HookNode } from '../../../src/extension/hooks/hooksTreeProvider';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi, toolCards, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.timeoutMs'];
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const claude = join(workspaceFolder, '.claude');
const marker = join(claude, 'hooks', 'stopped-once');

const STOP = `cat > /dev/null
if [ -f .claude/hooks/stopped-once ]; then exit 0; fi
touch .claude/hooks/stopped-once
echo "stop.sh: run the tests first" >&2
exit 2
`;
const GUARD = `input=$(cat)
case "$input" in *"rm -rf"*) echo "guard.sh: destructive command" >&2; exit 2;; esac
exit 0
`;

function writeSettings(extra = ''): void {
  const hooks = {
    Stop: [{ hooks: [{ type: 'command', command: 'sh .claude/hooks/stop.sh' }] }],
    PreToolUse: [{ matcher: '.*', hooks: [{ type: 'command', command: `sh .claude/hooks/guard.sh${extra}` }] }],
  };
  writeFileSync(join(claude, 'settings.json'), JSON.stringify({ hooks }, null, 2));
}

describe('another agent\'s hook file in the chat', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  const asked: HookFileConsentRequest[] = [];
  let answer = true;

  before(async () => {
    const sprout = await sproutApi();
    sprout.consent.prompt = async () => true;
    sprout.hookFiles.prompt = async (request) => (asked.push(request), answer);
    mkdirSync(join(claude, 'hooks'), { recursive: true });
    writeFileSync(join(claude, 'hooks', 'stop.sh'), STOP);
    writeFileSync(join(claude, 'hooks', 'guard.sh'), GUARD);
    writeSettings();
    fake = await startFakeOpenAi();
    const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
    const look = { name: 'look', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, behaviour: { kind: 'text', text: 'looked' } };
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    // Each hook is a shell started per call: on a busy machine that can take longer than the default
    // 2.5 s hook timeout, and a timed-out hook is advisory (the call goes on), which is not what this tests.
    await config().update('hooks.timeoutMs', 120_000, target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', { work: { ...base, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify({ extraTools: [look], hooks: {} }) } } }, target);
    await until(() => sprout.settings().baseUrl === fake.url && 'work' in sprout.settings().mcpServers, 'the fake model and the work server to be read');
    await sprout.host.invalidateServers();
  });

  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    rmSync(claude, { recursive: true, force: true });
    await fake.close();
  });

  it('asks with the commands, then denies, objects once naming the file and command, and shows the file\'s rows', async () => {
    const sprout = await sproutApi();
    await sprout.controller.newChat();
    fake.enqueue(
      fakeReply.toolCalls([
        { id: 'bad', name: 'work__look', arguments: { text: 'rm -rf /' } },
        { id: 'good', name: 'work__look', arguments: { text: 'ls' } },
      ]),
      fakeReply.text('done'),
      fakeReply.text('tests run, done'),
    );
    await sprout.controller.send('clean up');
    assert.deepEqual(asked, [{ file: '.claude/settings.json', agent: 'Claude Code', commands: ['Stop: sh .claude/hooks/stop.sh', 'PreToolUse (.*): sh .claude/hooks/guard.sh'] }]);
    const chat = await sprout.controller.current();
    const [bad, good] = toolCards(chat.view.entries);
    assert.equal(bad?.status, 'denied');
    assert.deepEqual(bad?.blocked, { server: 'claude-settings', text: '.claude/settings.json PreToolUse `sh .claude/hooks/guard.sh`: guard.sh: destructive command' });
    assert.deepEqual([good?.status, good?.result], ['ok', 'looked']);
    const objections = chat.view.entries.filter((e) => e.kind === 'objection');
    assert.deepEqual(objections.map((o) => [o.server, o.text]), [['claude-settings', '.claude/settings.json Stop `sh .claude/hooks/stop.sh`: stop.sh: run the tests first']]);
    assert.equal(fake.chatRequests().length, 3, 'the run went on after the objection, then the hook let it stop');
    assert.equal(fake.pending(), 0);

    const file = sprout.tree.getChildren(sprout.tree.getChildren().find((n) => n.kind === 'files')).find((n) => n.kind === 'server');
    assert.ok(file, 'the Hooks view lists the file');
    assert.equal(sprout.tree.getTreeItem(file).label, '.claude/settings.json');
    const rows = sprout.tree.getChildren(file).map((n: HookNode) => sprout.tree.getTreeItem(n));
    const row = (label: string): string => String(rows.find((r) => r.label === label)?.description);
    assert.match(row('Tool check'), /^2 calls, p50 \d+ ms, p95 \d+ ms$/);
    assert.match(row('Completion check'), /^2 calls, p50 \d+ ms, p95 \d+ ms$/);
  });

  it('asks again once the file is edited, and runs nothing when declined', async () => {
    const sprout = await sproutApi();
    rmSync(marker, { force: true });
    answer = false;
    await sprout.host.ensureServers();
    writeSettings(' --strict');
    await until(() => !sprout.host.started, 'the edited file to drop the running hooks');
    await sprout.controller.newChat();
    fake.enqueue(fakeReply.toolCalls([{ id: 'bad', name: 'work__look', arguments: { text: 'rm -rf /' } }]), fakeReply.text('done'));
    await sprout.controller.send('again');
    assert.equal(asked.length, 2, 'the edited file was asked about again');
    assert.deepEqual(asked[1]?.commands, ['Stop: sh .claude/hooks/stop.sh', 'PreToolUse (.*): sh .claude/hooks/guard.sh --strict']);
    const chat = await sprout.controller.current();
    assert.equal(toolCards(chat.view.entries)[0]?.status, 'ok', 'no hook denied the call');
    assert.equal(chat.view.entries.filter((e) => e.kind === 'objection').length, 0);
    assert.ok(!existsSync(marker), 'the Stop hook never ran');
    assert.ok(!sprout.tree.getChildren().some((n) => n.kind === 'files'), 'no file runs');
    assert.ok(sprout.hooks.notices.some((n) => n.startsWith('.claude/settings.json does not run: you did not allow')), sprout.hooks.notices.join('\n'));
  });

  it('a save that changes nothing keeps the servers running; a change to the file starts them afresh', async () => {
    const sprout = await sproutApi();
    await sprout.host.ensureServers();
    const before = sprout.hookFiles.fingerprint();
    // The text it already has: a watcher reports a change (perhaps twice), nothing changed.
    writeSettings(' --strict');
    assert.equal(sprout.hookFiles.fingerprint(), before);
    await sprout.host.configurationChanged();
    assert.equal(sprout.host.started, true, 'an unchanged hook file does not drop the running servers');
    writeSettings(' --strict --twice');
    assert.notEqual(sprout.hookFiles.fingerprint(), before);
    await sprout.host.configurationChanged();
    assert.equal(sprout.host.started, false, 'a changed hook file starts the servers and hooks afresh');
  });
});
