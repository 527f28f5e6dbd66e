// A chat and a `sprout` task streaming at once through the window's one model client, in the real
// extension host: the endpoint reuses its tool-call ids (`call_0` every round, as local servers do),
// and the fake holds the chat's second round until the task's first request has arrived (an event,
// not a delay), which is when a client that kept one history for everyone would check the chat's new
// ids against the task's history. Neither history may get a duplicate id: the fake rejects any
// request that carries one, as the real API does, and the turns end normally.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi, type FakeRequestRecord, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { runSproutTask, sproutApi, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const workspace = vscode.ConfigurationTarget.Workspace;
const user = vscode.ConfigurationTarget.Global;
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const tasksFile = join(workspaceFolder, '.vscode', 'tasks.json');

type Body = { messages: Array<{ role: string; content?: unknown }> };
const firstPrompt = (r: FakeRequestRecord): string => String((r.body as Body).messages.find((m) => m.role === 'user')?.content ?? '');
const round = (r: FakeRequestRecord): number => (r.body as Body).messages.filter((m) => m.role === 'assistant').length + 1;
const echo = (text: string): FakeResponse => fakeReply.toolCalls([{ id: 'call_0', name: 'tools__echo', arguments: { text } }]);

/** The chat's second round waits for the task's first request. */
async function interleavingFake(): Promise<{ fake: FakeOpenAi; chatHeld: Promise<void> }> {
  let taskArrived!: () => void;
  const taskHere = new Promise<void>((resolve) => (taskArrived = resolve));
  let held!: () => void;
  const chatHeld = new Promise<void>((resolve) => (held = resolve));
  const fake = await startFakeOpenAi();
  fake.setResponder(async (record) => {
    if (firstPrompt(record).includes('task:')) {
      taskArrived();
      return round(record) === 1 ? echo('task') : fakeReply.text('Task done.');
    }
    if (round(record) === 1) return echo('chat one');
    if (round(record) === 2) {
      held();
      await taskHere;
      return echo('chat two');
    }
    return fakeReply.text('Chat done.');
  });
  return { fake, chatHeld };
}

describe('a chat and a sprout task at once', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi | undefined;

  before(async () => {
    assert.ok(workspaceFolder && process.env['SPROUT_TEST_HOOK_SERVER']);
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(tasksFile, JSON.stringify({ version: '2.0.0', tasks: [{ label: 'sprout alongside', type: 'sprout', prompt: 'task: echo once' }] }));
  });

  after(async () => {
    for (const key of ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.servers']) await config().update(key, undefined, workspace);
    await config().update('tools.autoApprove', undefined, user);
    rmSync(tasksFile, { force: true });
    await fake?.close();
  });

  it('never puts a duplicate tool-call id into either history', async () => {
    const sprout = await sproutApi();
    sprout.consent.prompt = async () => true;
    const setup = await interleavingFake();
    fake = setup.fake;
    await config().update('model.baseUrl', fake.url, workspace);
    await config().update('model.name', 'fake-model', workspace);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, workspace);
    await config().update('mcp.servers', { tools: JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as unknown }, workspace);
    await config().update('hooks.servers', [], workspace);
    // A user setting: the echo tool runs without a question in the chat and in the task.
    await config().update('tools.autoApprove', ['tools__echo'], user);
    await until(() => sprout.settings().baseUrl === fake?.url && sprout.settings().autoApprove.includes('tools__echo'), 'the settings');
    await sprout.host.invalidateServers();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const chatRun = sprout.controller.send('chat: echo twice');
    await setup.chatHeld;
    const [, exitCode] = await Promise.all([chatRun, runSproutTask('sprout alongside', 90_000)]);
    assert.equal(exitCode, 0, 'the task ended normally');
    const rejected = fake.requests.filter((r) => !r.valid).map((r) => r.error);
    assert.deepEqual(rejected, [], 'no request carried a duplicate tool-call id');
    assert.ok(chat.view.entries.some((e) => e.kind === 'assistant' && e.text.includes('Chat done.')), 'the chat ended with its answer');
    assert.equal(fake.chatRequests().length, 5, 'chat: three rounds, task: two');
  });
});
