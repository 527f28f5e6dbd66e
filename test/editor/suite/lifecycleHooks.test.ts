// The lifecycle hooks in the real extension host, with a scripted fake model and FakeHookServer child
// processes: a `_PreToolUse` denial on its tool card, `_UserPromptSubmit` text as a card naming its
// server, the Hooks view's row for every hook a server exposes (calls, p50/p95), and a chat's session
// ending (`_SessionEnd` "new_chat") when another chat replaces it, then starting again as "resume".
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SproutApi } from '../../../src/extension/extension';
import type { HookNode } from '../../../src/extension/hooks/hooksTreeProvider';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { HookServerConfig } from '../../fakes/hookServer/hookServerConfig';
import { readHookServerLog } from '../../fakes/hookServer/hookServerState';
import { sproutApi, toolCards, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.servers'];

/** The runner's FakeHookServer command with this test's own server config. */
function hookServer(server: HookServerConfig): unknown {
  const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
  return { ...base, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify(server) } };
}

/** Configures `servers`, all allowlisted, and waits until the extension has read them (the allowlist is written last, and read anew). */
async function useServers(sprout: SproutApi, servers: Record<string, HookServerConfig>): Promise<void> {
  const names = Object.keys(servers);
  const allowlist = sprout.settings().agent.hooks.allowlist;
  await config().update('mcp.servers', Object.fromEntries(names.map((name) => [name, hookServer(servers[name] ?? {})])), target);
  await config().update('hooks.servers', names, target);
  const read = (): boolean => {
    const now = sprout.settings().agent.hooks.allowlist;
    return now.kind === 'names' && now.names.join() === names.join() && now !== allowlist;
  };
  await until(read, 'the new servers to be read').catch((error: unknown) => {
    throw new Error(`${String(error)}; the allowlist reads ${JSON.stringify(sprout.settings().agent.hooks.allowlist)}, errors: ${sprout.settings().errors.map((e) => e.message).join('; ')}`);
  });
  await sprout.host.invalidateServers();
}

const hookCalls = (log: string, hook: string) => readHookServerLog(log).filter((e) => e.type === 'call' && e.tool === hook);
const hookField = (entry: { meta?: unknown } | undefined, key: string): unknown => (entry?.meta as Record<string, Record<string, unknown>> | undefined)?.['sprout/hook']?.[key];

describe('lifecycle hooks in the chat and the Hooks view', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  let dir: string;

  before(async () => {
    const sprout = await sproutApi();
    sprout.consent.prompt = async () => true;
    fake = await startFakeOpenAi();
    dir = mkdtempSync(join(tmpdir(), 'sprout-editor-hooks-'));
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await until(() => sprout.settings().baseUrl === fake.url, 'the fake model URL');
  });

  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows a denial on its tool card, an injection as a card naming the server, and a Hooks view row per hook', async () => {
    const sprout = await sproutApi();
    await useServers(sprout, {
      guard: {
        extraTools: [{ name: 'look', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, behaviour: { kind: 'text', text: 'looked' } }],
        hooks: {
          _PreToolUse: { kind: 'ifMeta', key: 'arguments', value: { text: 'rm -rf /' }, then: { kind: 'text', text: 'guard: destructive command' } },
          _UserPromptSubmit: { kind: 'text', text: 'guard context: prefer small diffs' },
          _Stop: { kind: 'empty' },
          _SessionEnd: { kind: 'empty' },
        },
      },
    });
    await sprout.controller.newChat();
    fake.enqueue(
      fakeReply.toolCalls([
        { id: 'bad', name: 'guard__look', arguments: { text: 'rm -rf /' } },
        { id: 'good', name: 'guard__look', arguments: { text: 'ls' } },
      ]),
      fakeReply.text('done'),
    );
    await sprout.controller.send('clean up');
    const chat = await sprout.controller.current();
    const [bad, good] = toolCards(chat.view.entries);
    assert.deepEqual([bad?.status, bad?.blocked], ['denied', { server: 'guard', text: 'guard: destructive command' }]);
    assert.deepEqual([good?.status, good?.result, good?.blocked], ['ok', 'looked', undefined]);
    const injection = chat.view.entries.find((e) => e.kind === 'injection');
    assert.deepEqual(injection && { ...injection, id: '' }, { kind: 'injection', id: '', hook: '_UserPromptSubmit', server: 'guard', text: 'guard context: prefer small diffs' });

    const roots = sprout.tree.getChildren();
    const server = sprout.tree.getChildren(roots.find((n) => n.kind === 'servers')).find((n) => n.kind === 'server' && n.server.name === 'guard');
    assert.ok(server);
    assert.equal(sprout.tree.getTreeItem(server).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const rows = sprout.tree.getChildren(server).map((n: HookNode) => sprout.tree.getTreeItem(n));
    assert.deepEqual(rows.map((r) => r.label), ['Tool check', 'Prompt check', 'Completion check', 'Session end hook'], 'every hook the server lists, in its order, in plain words');
    assert.deepEqual(
      rows.map((r) => String(r.tooltip).match(/\((_\w+)\) of guard/)?.[1]),
      ['_PreToolUse', '_UserPromptSubmit', '_Stop', '_SessionEnd'],
      'the raw hook name in the tooltip',
    );
    const row = (label: string): string => String(rows.find((r) => r.label === label)?.description);
    assert.match(row('Tool check'), /^2 calls, p50 \d+ ms, p95 \d+ ms$/);
    assert.match(row('Prompt check'), /^1 call, p50 \d+ ms, p95 \d+ ms$/);
    assert.match(row('Completion check'), /^1 call, p50 \d+ ms, p95 \d+ ms$/);
    assert.equal(row('Session end hook'), '0 calls');
    assert.match(String(sprout.tree.getTreeItem(server).description), /^ok · 4 hooks$/, 'the server row stays short: its hooks have rows of their own');
  });

  it('New Chat ends the replaced session with _SessionEnd "new_chat"; reopening it starts with _SessionStart "resume"', async () => {
    const sprout = await sproutApi();
    const log = join(dir, 'life.log');
    await useServers(sprout, { life: { logFile: log, hooks: { _SessionStart: { kind: 'empty' }, _SessionEnd: { kind: 'empty' } } } });
    await sprout.controller.newChat();
    fake.enqueue(fakeReply.text('first'), fakeReply.text('second'));
    await sprout.controller.send('one');
    const first = await sprout.controller.current();
    assert.deepEqual(hookCalls(log, '_SessionStart').map((c) => [hookField(c, 'sessionId'), hookField(c, 'source')]), [[first.id, 'new']]);

    await sprout.controller.newChat();
    await until(() => hookCalls(log, '_SessionEnd').length === 1, '_SessionEnd of the replaced chat');
    assert.deepEqual(hookCalls(log, '_SessionEnd').map((c) => [hookField(c, 'sessionId'), hookField(c, 'reason')]), [[first.id, 'new_chat']]);

    await sprout.controller.openChat(first.id);
    await sprout.controller.send('two');
    assert.deepEqual(hookCalls(log, '_SessionStart').map((c) => [hookField(c, 'sessionId'), hookField(c, 'source')]), [[first.id, 'new'], [first.id, 'resume']]);
    assert.equal(hookCalls(log, '_SessionEnd').length, 1, 'the chat opened in between ran no prompt, so it owes no _SessionEnd');
  });
});
