// Checkpoints: the workspace server's writes are recorded (before and after, by call id) around a real
// file write, survive a new store over the same file (a window reload), and a turn's net change per
// file is the content before its first write and after its last. The chat index titles chats by their
// first prompt, also when rebuilt, and a chat opened but never used is not a past chat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore, editedOutside, netChanges, unrecordedCalls } from '../../../src/runtime/checkpointStore';
import { CheckpointToolHost } from '../../../src/runtime/checkpointToolHost';
import { ChatIndex } from '../../../src/extension/chat/chatIndex';
import { withAttachments } from '../../../src/agent/promptAttachments';
import { InMemoryToolHost } from '../../fakes/InMemoryToolHost';

function workspace(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-checkpoints-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a write_file call of the workspace server is recorded before and after; others are not', async () => {
  const ws = workspace();
  try {
    writeFileSync(join(ws.dir, 'a.txt'), 'old\n');
    const inner = new InMemoryToolHost([
      {
        name: 'workspace',
        tools: {
          write_file: (args) => (writeFileSync(join(ws.dir, String(args['path'])), String(args['content'])), 'written'),
          read_file: () => 'text',
        },
      },
      { name: 'other', tools: { write_file: (args) => (writeFileSync(join(ws.dir, 'b.txt'), String(args['content'])), 'written') } },
    ]);
    const storeFile = join(ws.dir, 'chat.changes.json');
    const store = new CheckpointStore(storeFile);
    const host = new CheckpointToolHost(inner, store, { workspaceServer: () => 'workspace', workspaceFolder: ws.dir });
    const signal = new AbortController().signal;
    await host.callTool('workspace', 'write_file', { path: 'a.txt', content: 'new\n' }, { signal, callId: 'c1' });
    await host.callTool('workspace', 'write_file', { path: 'created.txt', content: 'hello\n' }, { signal, callId: 'c2' });
    await host.callTool('workspace', 'read_file', { path: 'a.txt' }, { signal, callId: 'c3' });
    await host.callTool('other', 'write_file', { content: 'x' }, { signal, callId: 'c4' });
    await host.callTool('workspace', 'write_file', { path: '../outside.txt', content: 'x' }, { signal, callId: 'c5' }).catch(() => undefined);
    assert.deepEqual(
      store.of(['c1', 'c2', 'c3', 'c4', 'c5']).map((r) => [r.callId, r.path, r.before, r.after]),
      [
        ['c1', 'a.txt', 'old\n', 'new\n'],
        ['c2', 'created.txt', null, 'hello\n'],
      ],
    );
    const reloaded = new CheckpointStore(storeFile);
    assert.equal(reloaded.get('c1')?.before, 'old\n', 'the checkpoints survive a reload');
    reloaded.markUndone(['c1']);
    assert.equal(new CheckpointStore(storeFile).get('c1')?.undone, true);
    assert.match(readFileSync(storeFile, 'utf8'), /"callId":"c2"/);
  } finally {
    ws.remove();
  }
});

test("a turn's net change per file runs from before its first write to after its last", () => {
  const base = { path: 'a', absolute: '/w/a', tooLarge: false, undone: false };
  const net = netChanges([
    { ...base, callId: '1', before: 'v0', after: 'v1' },
    { ...base, callId: '2', path: 'b', absolute: '/w/b', before: null, after: 'b1' },
    { ...base, callId: '3', before: 'v1', after: 'v2' },
  ]);
  assert.deepEqual(net.map((c) => [c.path, c.before, c.after]), [
    ['a', 'v0', 'v2'],
    ['b', null, 'b1'],
  ]);
});

test('attachments reach the model after the prompt, each fenced so its content cannot close the fence', () => {
  assert.equal(withAttachments('hi', []), 'hi');
  const text = withAttachments('explain', [{ label: 'src/a.ts:1-2', content: 'a ``` b\n' }]);
  assert.equal(text, 'explain\n\nAttached: src/a.ts:1-2\n````\na ``` b\n````');
});

test('the chat index titles chats by their first prompt, rebuilt or not, and skips chats never used', () => {
  const ws = workspace();
  try {
    const index = new ChatIndex(ws.dir);
    // A chat opened before any prompt writes only session_started; the index was never written.
    writeFileSync(index.transcriptPath('empty'), `${JSON.stringify({ at: 1, event: { type: 'session_started', sessionId: 'empty', resumed: false } })}\n`);
    writeFileSync(index.transcriptPath('used'), [{ type: 'session_started' }, { type: 'prompt_started', text: 'Fix the cart totals\nplease' }].map((event) => JSON.stringify({ at: 1, event })).join('\n'));
    const rebuilt = new ChatIndex(ws.dir);
    assert.deepEqual(rebuilt.list().map((c) => [c.id, c.title]), [['used', 'Fix the cart totals']]);
    rebuilt.touch('empty', 'First real prompt', 5);
    rebuilt.touch('empty', 'Second prompt', 6);
    assert.equal(rebuilt.get('empty')?.title, 'First real prompt');
    writeFileSync(join(ws.dir, 'index.json'), JSON.stringify([{ id: 'old', title: 'Recovered chat', updatedAt: 1 }]));
    const legacy = new ChatIndex(ws.dir);
    legacy.touch('old', 'Its first prompt', 2);
    assert.equal(legacy.get('old')?.title, 'Its first prompt', 'an old placeholder title gives way to the first prompt');
    legacy.rename('old', 'Renamed');
    legacy.remove('used');
    assert.deepEqual(new ChatIndex(ws.dir).list().map((c) => c.title), ['Renamed']);
  } finally {
    ws.remove();
  }
});

test('a rewind asks before overwriting a file edited outside Sprout: at the end, or between two of the calls; a restored file is no edit', () => {
  const rec = (callId: string, before: string | null, after: string | null, path = 'a.txt') => ({ callId, path, absolute: `/w/${path}`, before, after, tooLarge: false, undone: false });
  const calls = [rec('c1', 'v0', 'v1'), rec('c2', 'v1', 'v2'), rec('c3', null, 'new', 'b.txt')];
  const disk = (files: Record<string, string | null>) => (absolute: string) => files[absolute] ?? null;
  assert.deepEqual(editedOutside(calls, disk({ '/w/a.txt': 'v2', '/w/b.txt': 'new' })), [], 'the disk holds what the agent wrote');
  assert.deepEqual(editedOutside(calls, disk({ '/w/a.txt': 'v0' })), [], 'already put back (b.txt gone): nothing of the user to lose');
  assert.deepEqual(editedOutside(calls, disk({ '/w/a.txt': 'v2 and mine', '/w/b.txt': 'new' })), ['a.txt']);
  // The user changed the file between the turns: the agent's next write found "v1 and mine", not "v1".
  assert.deepEqual(editedOutside([rec('c1', 'v0', 'v1'), rec('c2', 'v1 and mine', 'v2')], disk({ '/w/a.txt': 'v2' })), ['a.txt']);
});

test('the calls a rewind cannot undo: run_command and other servers, each once with a count; recorded writes, reads and quiet servers are not listed', () => {
  const calls = [
    { callId: 'w', name: 'workspace__write_file' },
    { callId: 'r', name: 'workspace__read_file' },
    { callId: 'x1', name: 'workspace__run_command' },
    { callId: 'x2', name: 'workspace__run_command' },
    { callId: 't', name: 'todo__todo' },
    { callId: 'g', name: 'github__create_file' },
    { callId: 's', name: 'sprout__tool_search' },
  ];
  assert.deepEqual(unrecordedCalls(calls, new Set(['w']), 'workspace', new Set(['todo'])), ['workspace__run_command (2 calls)', 'github__create_file']);
});

test('dropping the records of rewound calls keeps the others, also in a new store over the file', () => {
  const ws = workspace();
  try {
    const file = join(ws.dir, 'changes.json');
    const store = new CheckpointStore(file);
    for (const callId of ['c1', 'c2', 'c3']) store.add({ callId, path: 'a.txt', absolute: join(ws.dir, 'a.txt'), before: 'x', after: callId });
    store.drop(['c2', 'c3']);
    assert.deepEqual(new CheckpointStore(file).of(['c1', 'c2', 'c3']).map((r) => r.callId), ['c1']);
  } finally {
    ws.remove();
  }
});
