// Rewind to here and Back to last green in the real extension host, with a scripted fake model, the
// bundled workspace server writing a file and a FakeHookServer `_Stop` that passes only the first
// prompt. Rewind to here on message 3 puts the file back to what it held before it and the chat
// reopens without message 3; the next request carries no cut message. A file edited outside Sprout
// since is overwritten only when the modal says yes; Back to last green then goes to the end of the
// green turn (message 1), files and the bundled todo list included, and a reopened chat shows the
// rewound conversation. Sprout: Back to Last Green runs any time and says when there is no green state.
// The todo list checked is the chat's own (the todo server keeps one per session).
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SproutApi } from '../../../src/extension/extension';
import { todoFile } from '../../../src/servers/todo/todoStore';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import type { HookServerConfig } from '../../fakes/hookServer/hookServerConfig';
import { approveUntilDone, sproutApi, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const keys = ['model.baseUrl', 'model.name', 'mcp.builtinServers', 'mcp.servers', 'hooks.servers', 'hooks.stopMaxRejections'];
const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const file = join(workspaceFolder, 'rates.ts');
const V = (n: number) => `export const rate = ${n};\n`;
const writeCall = (n: number) => ({ name: 'workspace__write_file', arguments: { path: 'rates.ts', content: V(n) } });
const write = (n: number) => fakeReply.toolCalls([writeCall(n)]);
/** A write and the bundled todo list in one reply: one item, open or done. */
const writeAndList = (n: number, done: boolean) => fakeReply.toolCalls([writeCall(n), { name: 'todo__todo', arguments: { items: [{ text: 'Raise the rate', done }] } }]);
/** The bundled todo server's list of chat `sessionId` as it keeps it (src/servers/todo/todoStore.ts). */
const todoList = (sprout: SproutApi, sessionId: string): unknown => {
  try {
    return (JSON.parse(readFileSync(todoFile(join(sprout.host.serversStateDir, 'todo'), { sessionId }), 'utf8')) as { items: unknown }).items;
  } catch {
    return undefined;
  }
};
const notes = (sprout: SproutApi) => async () => (await sprout.controller.current()).view.entries.flatMap((e) => (e.kind === 'hookEvent' ? [e.text] : []));

/** The runner's FakeHookServer command with this test's own server config. */
function hookServer(server: HookServerConfig): unknown {
  const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
  return { ...base, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify(server) } };
}

const userTexts = (sprout: SproutApi) => async () => (await sprout.controller.current()).view.entries.flatMap((e) => (e.kind === 'user' ? [e.text] : []));

/** Sends `text` and approves each write until the turn's outcome is in. */
async function turn(sprout: SproutApi, text: string): Promise<void> {
  const chat = await sprout.controller.current();
  const outcomes = () => chat.view.entries.filter((e) => e.kind === 'outcome').length;
  const before = outcomes();
  const sent = sprout.controller.send(text);
  await approveUntilDone(sprout, chat, () => outcomes() > before, `the turn "${text}" to end`);
  await sent;
}

describe('Rewind to here and Back to last green', function () {
  this.timeout(180_000);
  let fake: FakeOpenAi | undefined;

  before(async () => {
    const sprout = await sproutApi();
    sprout.consent.prompt = async () => true;
    writeFileSync(file, V(0));
    fake = await startFakeOpenAi({
      models: ['fake-model'],
      responses: [
        writeAndList(1, false), fakeReply.text('one'),
        writeAndList(2, true), fakeReply.text('two'), fakeReply.text('two, again'),
        write(3), fakeReply.text('three'),
        fakeReply.text('three, better'),
      ],
    });
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: true, todo: true, tests: false }, target);
    await config().update('hooks.stopMaxRejections', 1, target);
    // The check passes the first prompt only: turn 1 is green, the later ones end with it objecting.
    const checks: HookServerConfig = { hooks: { _Stop: { kind: 'ifMeta', key: 'prompt', value: 'first', then: { kind: 'empty' }, else: { kind: 'object', text: 'tests fail' } } } };
    await config().update('mcp.servers', { checks: hookServer(checks) }, target);
    await config().update('hooks.servers', ['checks'], target);
    await until(() => sprout.settings().baseUrl === fake?.url && sprout.settings().agent.hooks.allowlist.kind === 'names', 'the settings to be read');
    await sprout.host.invalidateServers();
  });

  after(async () => {
    const sprout = await sproutApi();
    sprout.controller.confirmRewind = async () => false;
    for (const key of keys) await config().update(key, undefined, target);
    rmSync(file, { force: true });
    await fake?.close();
  });

  it('rewinds to before a message (files too), asks before overwriting an edit, and goes back to the last green turn', async () => {
    const sprout = await sproutApi();
    await vscode.commands.executeCommand('sprout.newChat');
    // The command works any time: with no turn yet there is no green state, and the chat says so.
    assert.equal(await vscode.commands.executeCommand('sprout.backToLastGreen'), false);
    assert.match((await notes(sprout)()).join('\n'), /there is no green state to go back to/);
    for (const text of ['first', 'second', 'third']) await turn(sprout, text);
    const chatId = (await sprout.controller.current()).id;
    assert.deepEqual(todoList(sprout, chatId), [{ text: 'Raise the rate', done: true }], 'message 2 ticked the item off');
    assert.equal(readFileSync(file, 'utf8'), V(3));
    const ends = (await sprout.controller.current()).view.entries.flatMap((e) => (e.kind === 'outcome' ? [e] : []));
    assert.deepEqual(ends.map((e) => [e.checks?.map((c) => c.server) ?? [], e.unresolved !== undefined]), [[['checks'], false], [[], true], [[], true]], 'turn 1 green, 2 and 3 objected');
    assert.deepEqual(ends.map((e) => e.verdict), ['passed', 'objected', 'objected'], "each turn's verdict, drawn on its end");
    const texts = userTexts(sprout);
    assert.deepEqual(await texts(), ['first', 'second', 'third']);

    await sprout.handle({ type: 'rewind', prompt: 3 });
    assert.equal(readFileSync(file, 'utf8'), V(2), 'the file holds what it held before message 3');
    assert.deepEqual(await texts(), ['first', 'second'], 'the reopened chat ends before message 3');
    assert.deepEqual(todoList(sprout, chatId), [{ text: 'Raise the rate', done: true }], 'message 3 did not touch the list: left as it is');
    const sentBefore = fake?.chatRequests().length ?? 0;
    await turn(sprout, 'third, better');
    const request = fake?.chatRequests()[sentBefore]?.body as { messages: Array<{ role: string; content: unknown }> };
    const said = request.messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => m.content);
    assert.ok(!said.includes('third') && !said.includes('three'), `the request after the rewind has no cut message: ${JSON.stringify(said)}`);
    assert.ok(said.includes('second') && said.at(-1) === 'third, better');

    // Edited outside Sprout since the agent wrote it: the modal is asked, and "no" changes nothing.
    // The user's edit, made in the editor and saved (the restore opened the file), so the editor and the disk agree.
    const doc = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.positionAt(doc.getText().length), '// mine\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    const asked: string[][] = [];
    sprout.controller.confirmRewind = async (_plan, edited) => (asked.push([...edited]), false);
    await sprout.handle({ type: 'backToGreen' });
    assert.deepEqual(asked, [['rates.ts']]);
    assert.equal(readFileSync(file, 'utf8'), `${V(2)}// mine\n`, "the user's edit is kept");
    assert.deepEqual(await texts(), ['first', 'second', 'third, better']);

    sprout.controller.confirmRewind = async () => true;
    // From the command (the palette, the chat's title menu), not only from an objected turn's card.
    assert.equal(await vscode.commands.executeCommand('sprout.backToLastGreen'), true);
    await until(() => readFileSync(file, 'utf8') === V(1), 'the file to hold what the green turn left');
    assert.deepEqual(await texts(), ['first'], 'back to the end of message 1, the newest green turn');
    assert.deepEqual(todoList(sprout, chatId), [{ text: 'Raise the rate', done: false }], 'the todo list as message 1 left it: the item open again');
    assert.equal(await vscode.commands.executeCommand('sprout.backToLastGreen'), false);
    assert.match((await notes(sprout)()).join('\n'), /is at its last green state already/);

    // Durable: the chat opened again from its transcript is the rewound one.
    const id = (await sprout.controller.current()).id;
    await vscode.commands.executeCommand('sprout.newChat');
    await sprout.controller.openChat(id);
    assert.deepEqual(await texts(), ['first']);
  });
});
