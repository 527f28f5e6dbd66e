// `--session FILE --rewind N`, driven as a user would: `node dist/cli.js` with the bundled workspace
// server against the fake OpenAI server, which records every request. The rewind puts back the files the
// workspace server wrote since message N (a file it created is removed), lists the run_command call it
// cannot undo, and the next request (this run's prompt, and a later run's) carries none of the cut
// messages. A file edited outside Sprout since is not overwritten without --force (exit 2, named, nothing
// changed); a wrong message number or no --session exit 2 saying why.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

interface WireRequest {
  messages: Array<{ role: string; content: unknown }>;
}

const cli = cliFixture('sprout-cli-rewind-');

const env = (fakeUrl: string): Record<string, string> => ({ ...baseEnv(fakeUrl), SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', XDG_STATE_HOME: join(cli.dir, 'state') });
const write = (path: string, content: string) => fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path, content } }]);
/** The user and assistant texts of a request, in order (tool results and calls left out). */
const texts = (index: number): unknown[] =>
  (cli.fake?.chatRequests()[index]?.body as WireRequest).messages.filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content !== '').map((m) => m.content);

function workspace(name: string, files: Record<string, string>): string {
  const ws = join(cli.dir, name);
  mkdirSync(ws, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(ws, file), content);
  return ws;
}

describe('--rewind', () => {
  it('puts back the files written since message N, lists run_command, and the next requests carry no cut message', async () => {
    const ws = workspace('ws', { 'notes.txt': 'v0\n' });
    const session = join(cli.dir, 'rewind.jsonl');
    const fake = await cli.startFake({
      responses: [
        write('notes.txt', 'v1\n'),
        fakeReply.text('wrote v1'),
        fakeReply.toolCalls([
          { name: 'workspace__write_file', arguments: { path: 'notes.txt', content: 'v2\n' } },
          { name: 'workspace__write_file', arguments: { path: 'extra.txt', content: 'new\n' } },
          { name: 'workspace__run_command', arguments: { command: 'echo ran' } },
        ]),
        fakeReply.text('wrote v2'),
        fakeReply.text('a better second answer'),
        fakeReply.text('third answer'),
      ],
    });
    const args = ['--cwd', ws, '--session', session];
    assert.equal((await runCli([...args, 'first prompt'], { env: env(fake.url) })).code, 0);
    const second = await runCli([...args, 'second prompt'], { env: env(fake.url) });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'v2\n');
    assert.ok(existsSync(join(ws, 'extra.txt')));

    const rewound = await runCli([...args, '--rewind', '2', 'second prompt, better'], { env: env(fake.url) });
    assert.equal(rewound.code, 0, rewound.stderr);
    assert.match(rewound.stderr, /rewound to before message 2; put back notes\.txt, extra\.txt/);
    assert.match(rewound.stderr, /not put back \(Sprout cannot know what these changed; check them yourself\): workspace__run_command/);
    assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'v1\n', 'the file holds what it held before message 2');
    assert.ok(!existsSync(join(ws, 'extra.txt')), 'the file message 2 created is gone');
    const requests = fake.chatRequests().length;
    assert.deepEqual(texts(requests - 1), ['first prompt', 'wrote v1', 'second prompt, better'], 'the request after the rewind has no later message');

    // Durable: a later run resumes the rewound conversation, not the cut one.
    const third = await runCli([...args, '--json', 'third prompt'], { env: env(fake.url) });
    assert.equal(third.code, 0, third.stderr);
    assert.deepEqual(texts(fake.chatRequests().length - 1), ['first prompt', 'wrote v1', 'second prompt, better', 'a better second answer', 'third prompt']);
    assert.ok(parseEvents(third.stdout).every((e) => e.type !== 'rewound'), 'the marker is folded on load, never replayed');
    assert.ok(readFileSync(session, 'utf8').includes('"second prompt"'), 'the cut messages stay in the file: nothing the user wrote is lost');
    assertAllRequestsValid(fake.requests);
  });

  it('refuses to overwrite a file edited outside Sprout since, naming it; --force rewinds, and without a prompt prints the message', async () => {
    const ws = workspace('edited', { 'app.txt': 'original\n' });
    const session = join(cli.dir, 'edited.jsonl');
    const fake = await cli.startFake({ responses: [write('app.txt', 'by the agent\n'), fakeReply.text('done')] });
    const args = ['--cwd', ws, '--session', session];
    assert.equal((await runCli([...args, 'change the app'], { env: env(fake.url) })).code, 0);
    writeFileSync(join(ws, 'app.txt'), 'by the agent\nand by the user\n');
    const transcript = readFileSync(session, 'utf8');

    const refused = await runCli([...args, '--rewind', '1'], { env: env(fake.url) });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--rewind 1: app\.txt changed after the agent wrote it .*Nothing was changed\. .*--force/);
    assert.equal(readFileSync(join(ws, 'app.txt'), 'utf8'), 'by the agent\nand by the user\n', "the user's edit is kept");
    assert.equal(readFileSync(session, 'utf8'), transcript, 'the transcript is unchanged');

    const forced = await runCli([...args, '--rewind', '1', '--force'], { env: env(fake.url) });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stdout, 'change the app\n', 'the message text, to edit and send again');
    assert.equal(readFileSync(join(ws, 'app.txt'), 'utf8'), 'original\n');
    assert.equal(fake.chatRequests().length, 2, 'a rewind alone sends nothing');
  });

  it('puts the todo list back as it stood before message N: the todo _Stop then holds the agent to it again', async () => {
    const ws = workspace('todo', {});
    const session = join(cli.dir, 'todo.jsonl');
    const list = (done: boolean) => fakeReply.toolCalls([{ name: 'todo__todo', arguments: { items: [{ text: 'Add a field', done }, { text: 'Test it', done }] } }]);
    const fake = await cli.startFake({ responses: [list(false), fakeReply.text('listed'), list(true), fakeReply.text('all done'), fakeReply.text('Done.'), list(true), fakeReply.text('Both done.')] });
    const args = ['--cwd', ws, '--session', session];
    const todoEnv = (extra: Record<string, string> = {}) => ({ ...env(fake?.url ?? ''), SPROUT_AGENT_BUILTIN_SERVERS: 'workspace,todo', ...extra });
    assert.equal((await runCli([...args, 'make a list'], { env: todoEnv() })).code, 0);
    assert.equal((await runCli([...args, 'do it all'], { env: todoEnv() })).code, 0);

    const rewound = await runCli([...args, '--rewind', '2'], { env: todoEnv() });
    assert.equal(rewound.code, 0, rewound.stderr);
    assert.match(rewound.stderr, /The todo list is back as it was then \(2 items, 2 open\)/);
    // The list of message 1's end: the todo _Stop objects to ending with both items open, as it did then.
    const next = await runCli([...args, '--json', 'finish up'], { env: todoEnv({ MCP_HOOK_SERVERS: 'todo' }) });
    assert.equal(next.code, 0, next.stderr);
    const objection = parseEvents(next.stdout).find((e) => e.type === 'hook_objected');
    assert.ok(objection?.type === 'hook_objected', next.stdout);
    assert.match(objection.text, /open todo items[\s\S]*Add a field[\s\S]*Test it/);

    // Rewinding to message 1 (before any list): the list is empty again.
    const first = await runCli([...args, '--rewind', '1'], { env: todoEnv() });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /The todo list is empty again, as it was then\./);
    assertAllRequestsValid(fake.requests);
  });

  it('a message the session does not have, a bad number, or no --session exit 2 saying why', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('only answer')] });
    const ws = workspace('bad', {});
    const session = join(cli.dir, 'bad.jsonl');
    assert.equal((await runCli(['--cwd', ws, '--session', session, 'only prompt'], { env: env(fake.url) })).code, 0);
    const missing = await runCli(['--cwd', ws, '--session', session, '--rewind', '3'], { env: env(fake.url) });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--rewind 3: there is no user message 3: this conversation has 1 \(1 to 1\)/);
    const bad = await runCli(['--cwd', ws, '--session', session, '--rewind', 'last'], { env: env(fake.url) });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--rewind "last" is not a message number/);
    const noSession = await runCli(['--cwd', ws, '--rewind', '1'], { env: env(fake.url) });
    assert.equal(noSession.code, 2);
    assert.match(noSession.stderr, /--rewind needs --session FILE/);
    assert.equal(fake.chatRequests().length, 1);
  });
});
