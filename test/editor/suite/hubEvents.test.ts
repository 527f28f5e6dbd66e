// A chat is usually opened before the window's MCP hub exists (the hub starts with the first prompt).
// These tests open the chat first, as a user does, and check that what the hub does on its own reaches
// that chat's event stream (a server failing to start, a crashed server restarting, a tool list that
// changed), and that tool annotations are read again from the new servers after a configuration change,
// so a tool that stopped being read-only is asked about even mid-round. A scripted fake model drives the calls.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../../src/agent/events';
import type { SproutApi } from '../../../src/extension/extension';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { HookServerConfig } from '../../fakes/hookServer/hookServerConfig';
import { sproutApi as api, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.servers'];
/** `tools.autoApprove` is a user setting (a workspace cannot approve tools), so it is written there. */
const userTarget = vscode.ConfigurationTarget.Global;

/** The runner's FakeHookServer command with this test's own server config. */
function probeServer(probe: HookServerConfig): unknown {
  const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
  return { ...base, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify(probe) } };
}

/**
 * Writes the servers and waits until the extension has read them: `tools.autoApprove` is written last
 * and read in the same change handler that drops the old hub, so once it shows, that handler has run.
 */
async function useServers(sprout: SproutApi, servers: Record<string, unknown>, autoApprove: string[]): Promise<void> {
  await config().update('mcp.servers', servers, target);
  await config().update('tools.autoApprove', autoApprove, userTarget);
  await until(() => sprout.settings().autoApprove.join() === autoApprove.join(), 'the new servers to be read');
  await sprout.host.invalidateServers();
}

describe('hub events and tool annotations in a chat opened before the hub', function () {
  this.timeout(90_000);
  let fake: FakeOpenAi;

  before(async () => {
    const sprout = await api();
    sprout.consent.prompt = async () => true;
    fake = await startFakeOpenAi();
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('hooks.servers', [], target);
    await until(() => sprout.settings().baseUrl === fake.url, 'the fake model URL');
  });

  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    await config().update('tools.autoApprove', undefined, userTarget);
    await fake.close();
  });

  it("delivers the hub's own events (server_error, server_restarted, tools_changed) to the chat", async () => {
    const sprout = await api();
    const probe: HookServerConfig = { listChangedAfterCall: true, extraTools: [{ name: 'crash', behaviour: { kind: 'crash' } }] };
    await useServers(sprout, { probe: probeServer(probe), broken: { command: '/nonexistent/sprout-missing-server', args: [] } }, ['probe__crash', 'probe__echo']);
    await sprout.controller.newChat();
    assert.equal(sprout.host.started, false, 'the chat is open and the hub does not exist yet');
    const chat = await sprout.controller.current();
    const seen: AgentEvent[] = [];
    const stop = chat.session.subscribe((event) => seen.push(event));
    fake.enqueue(
      fakeReply.toolCalls([{ name: 'probe__crash', arguments: {} }]),
      fakeReply.toolCalls([{ name: 'probe__echo', arguments: { text: 'after the restart' } }]),
      fakeReply.text('done'),
    );
    try {
      await sprout.controller.send('crash the probe, then echo');
      // tools/list_changed is answered with a fresh listing before the event, so it may land just after the outcome.
      await until(() => seen.some((e) => e.type === 'tools_changed'), 'tools_changed from the probe');
    } finally {
      stop();
    }
    const types = seen.map((e) => e.type);
    assert.ok(types.includes('outcome'), `the prompt ended: ${types.join(', ')}`);
    const errors = seen.filter((e): e is Extract<AgentEvent, { type: 'server_error' }> => e.type === 'server_error');
    assert.ok(errors.some((e) => e.server === 'broken' && /failed to start/.test(e.message)), `server_error for "broken": ${types.join(', ')}`);
    assert.ok(errors.some((e) => e.server === 'probe' && /stopped unexpectedly/.test(e.message)), `server_error for the crash: ${types.join(', ')}`);
    assert.ok(seen.some((e) => e.type === 'server_restarted' && e.server === 'probe'), `server_restarted: ${types.join(', ')}`);
    const notes = chat.view.entries.filter((e) => e.kind === 'hookEvent').map((e) => e.text);
    assert.ok(notes.some((t) => t.startsWith('The server broken failed:')), `the chat shows the start failure: ${notes.join(' | ')}`);
    assert.ok(notes.some((t) => t.startsWith('The server probe restarted')), `the chat shows the restart: ${notes.join(' | ')}`);
  });

  it('asks about a call to the new servers by their own annotations, not those cached before the change', async () => {
    const sprout = await api();
    const tools = (writeIsReadOnly: boolean): HookServerConfig => ({
      extraTools: [
        { name: 'other', behaviour: { kind: 'text', text: 'other ok' } },
        { name: 'write', annotations: { readOnlyHint: writeIsReadOnly }, behaviour: { kind: 'text', text: 'written' } },
      ],
    });
    await useServers(sprout, { probe: probeServer(tools(true)) }, ['phase-read-only']);
    await sprout.controller.newChat();
    // Every parallel slot waits on a question about `other`, so `write` is authorized only after the change below.
    const slots = sprout.settings().agent.maxParallelTools;
    const calls = [...Array.from({ length: slots }, () => ({ name: 'probe__other', arguments: {} })), { name: 'probe__write', arguments: {} }];
    fake.enqueue(fakeReply.toolCalls(calls), fakeReply.text('done'));
    let done = false;
    const sending = sprout.controller.send('call other, then write').finally(() => (done = true));
    await until(() => sprout.questions.approvals.waiting === slots, 'a question for each call of other');
    // The configuration changes while the round waits: `write` on the new server is not read-only.
    await useServers(sprout, { probe: probeServer(tools(false)) }, ['phase-writable']);
    sprout.questions.approvals.denyAll();
    await until(() => done || sprout.questions.approvals.waiting > 0, 'the question about write, or the end of the prompt');
    const asked = sprout.questions.approvals.waiting > 0;
    sprout.questions.approvals.denyAll();
    await sending;
    const chat = await sprout.controller.current();
    const write = chat.view.entries.find((e) => e.kind === 'tool' && e.name === 'probe__write');
    assert.ok(asked, `write is no longer read-only, so its call is asked about (it ended ${write?.kind === 'tool' ? write.status : 'unseen'})`);
    assert.ok(write?.kind === 'tool' && write.status === 'denied');
  });
});
