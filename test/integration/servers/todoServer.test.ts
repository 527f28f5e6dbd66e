import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from './serverProcess';

const hookMeta = { 'sprout/hook': { event: '_Stop', sessionId: 's1', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false } };

describe('todo server (child process over stdio)', () => {
  let base: string;
  const servers: ServerProcess[] = [];
  const start = async (stateDir: string): Promise<ServerProcess> => {
    const server = await startServer('todo', ['--root', base, '--state-dir', stateDir]);
    servers.push(server);
    return server;
  };

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sprout-todo-'));
  });
  after(async () => {
    for (const server of servers) await server.close().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  });

  it('lists the todo tool and its hooks, hooks taking an empty object', async () => {
    const server = await start(join(base, 'list'));
    const { tools } = await server.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['_PostCompact', '_SessionStart', '_Stop', 'todo']);
    const stop = tools.find((t) => t.name === '_Stop');
    assert.deepEqual(stop?.inputSchema.properties ?? {}, {});
  });

  it('_SessionStart re-injects the open list only when the session is resumed', async () => {
    const server = await start(join(base, 'resume'));
    const start_ = (source: unknown) => server.call('_SessionStart', {}, { 'sprout/hook': { event: '_SessionStart', sessionId: 's1', source } });
    assert.equal((await start_('resume')).text, '', 'nothing to re-inject yet');
    await server.call('todo', { items: [{ text: 'ship it', done: false }, { text: 'plan', done: true }] });
    assert.equal((await start_('new')).text, '', 'a new session has no list to pick up');
    assert.equal((await start_(42)).text, '', 'a malformed source is ignored');
    assert.equal((await start_('resume')).text, '# Todo List (resumed session)\n\n1. [ ] ship it  <- next\n2. [x] plan');
    await server.call('todo', { items: [{ text: 'ship it', done: true }] });
    assert.equal((await start_('resume')).text, '', 'nothing open, nothing to say');
  });

  it('objects on _Stop while items are open and not once they are done', async () => {
    const server = await start(join(base, 'gate'));
    assert.equal((await server.call('_Stop', {}, hookMeta)).text, '', 'an empty list does not object');
    const set = await server.call('todo', { items: [{ text: 'write code', done: true }, { text: 'write tests', done: false }] });
    assert.equal(set.isError, false, set.text);
    assert.match(set.text, /2\. \[ \] write tests {2}<- next/);
    const objection = await server.call('_Stop', {}, hookMeta);
    assert.match(objection.text, /^You have open todo items\. Keep working\.\n\n1\. \[x\] write code\n2\. \[ \] write tests/);
    const compact = await server.call('_PostCompact', {});
    assert.match(compact.text, /^# Todo List\n\n1\. \[x\] write code/);
    await server.call('todo', { items: [{ text: 'write code', done: true }, { text: 'write tests', done: true }] });
    assert.equal((await server.call('_Stop', {}, hookMeta)).text, '');
    await server.call('todo', { items: [] });
    assert.equal((await server.call('_PostCompact', {})).text, '');
  });

  it('refuses an invalid list with clear errors and keeps the old one', async () => {
    const server = await start(join(base, 'invalid'));
    await server.call('todo', { items: [{ text: 'keep me', done: false }] });
    const bad = await server.call('todo', { items: [{ text: 'a', done: false }, { text: 'a', done: false }, { text: 'hidden\u202Etxt', done: false }] });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /not changed/);
    assert.match(bad.text, /item 2 duplicates item 1/);
    assert.match(bad.text, /item 3 contains a control, bidi or zero-width character/);
    assert.match((await server.call('_Stop', {})).text, /keep me/);
    const malformed = await server.call('todo', { items: [{ text: 'no done flag' }] });
    assert.equal(malformed.isError, true);
  });

  it('warns when open items vanish without being done', async () => {
    const server = await start(join(base, 'vanish'));
    await server.call('todo', { items: [{ text: 'step one', done: false }, { text: 'step two', done: false }] });
    const dropped = await server.call('todo', { items: [{ text: 'step one', done: true }] });
    assert.equal(dropped.isError, false);
    assert.match(dropped.text, /Warning: 1 open item was removed without being done: "step two"/);
  });

  it('keeps a list per session named in _meta; a malformed session names none, and an older version\'s shared list holds no session', async () => {
    const stateDir = join(base, 'sessions');
    mkdirSync(stateDir, { recursive: true });
    // todo.json as a version before per-session lists left it: the last list of whichever chat wrote.
    writeFileSync(join(stateDir, 'todo.json'), JSON.stringify({ version: 1, items: [{ text: 'old shared step', done: false }] }));
    const server = await start(stateDir);
    const session = (sessionId: unknown) => ({ 'sprout/session': { sessionId } });
    const stop = async (sessionId: string) => (await server.call('_Stop', {}, { 'sprout/hook': { event: '_Stop', sessionId } })).text;
    assert.equal(await stop('s1'), '', 'the older shared list is no session\'s');
    assert.match((await server.call('_Stop', {})).text, /old shared step/, 'a hook naming no session still reads it');
    const mine = await server.call('todo', { items: [{ text: 'mine', done: false }] }, session('../../s1'));
    assert.doesNotMatch(mine.text, /Warning/, 'a session starts with its own empty list');
    assert.match(await stop('../../s1'), /1\. \[ \] mine/);
    assert.equal(await stop('s2'), '');
    const malformed = await server.call('todo', { items: [{ text: 'shared now', done: false }] }, session(42));
    assert.match(malformed.text, /Warning: 1 open item was removed without being done: "old shared step"/, 'a malformed session is no session: the shared list');
    assert.match(await stop('s2'), /shared now/, 'a session with no list of its own is held to the list a client naming none wrote');
    assert.deepEqual(readdirSync(join(stateDir, 'sessions')).length, 1);
    assert.deepEqual(readdirSync(stateDir).sort(), ['sessions', 'todo.json']);
  });

  it('keeps the list across a kill and restart of the server', async () => {
    const stateDir = join(base, 'survive');
    const first = await start(stateDir);
    await first.call('todo', { items: [{ text: 'survive the kill', done: false }] });
    process.kill(first.pid, 'SIGKILL');
    await first.close().catch(() => undefined);
    const second = await start(stateDir);
    assert.notEqual(second.pid, first.pid);
    assert.match((await second.call('_Stop', {}, hookMeta)).text, /Keep working\.\n\n1\. \[ \] survive the kill/);
    const other = await start(join(base, 'another-session'));
    assert.equal((await other.call('_Stop', {})).text, '', 'another chat session has its own list');
  });
});
