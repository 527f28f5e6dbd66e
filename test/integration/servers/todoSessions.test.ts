import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgentSession } from '../../../src/agent/session';
import { DEFAULT_SETTINGS, type AgentSettings } from '../../../src/agent/settings';
import type { AgentEvent } from '../../../src/agent/events';
import { hookMeta } from '../../../src/agent/hookCaller';
import type { PromptOptions } from '../../../src/agent/promptAttachments';
import { rewindPlan } from '../../../src/agent/rewind';
import { McpHub } from '../../../src/mcp/mcpHub';
import { nodeClock } from '../../../src/platform/nodeClock';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import { writePlan } from '../../../src/runtime/planApproval';
import { rewindTodoList } from '../../../src/runtime/todoRewind';
import { type FakeOpenAi, type FakeResponse, fakeReply, startFakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { scaledMs } from '../../loadScale';
import { REPO_ROOT } from './serverProcess';

// Two chat sessions of the agent core on ONE real `todo` server (a child process through McpHub, its
// state in one folder, as the editor's chats share it), the real OpenAI client against the strict fake
// model server: each session keeps its own list (the agent tells the server the session in
// `_meta["sprout/session"]`, the hooks in `_meta["sprout/hook"]`), a rewind and a plan approval write
// only their session's list, a subagent keeps a list of its own, and a client that names no session
// still gets the shared `todo.json`.
describe('one todo server, a list per session', () => {
  let base: string;
  let state: string;
  let hub: McpHub;
  let fake: FakeOpenAi;
  const signal = new AbortController().signal;

  before(async () => {
    fake = await startFakeOpenAi();
    base = mkdtempSync(join(tmpdir(), 'sprout-todo-sessions-'));
    state = join(base, 'servers');
    const entry = resolve(REPO_ROOT, 'src', 'servers', 'todo', 'main.ts');
    hub = new McpHub([{ name: 'todo', transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', entry, '--root', base, '--state-dir', join(state, 'todo')], env: {}, cwd: REPO_ROOT } }]);
  });
  after(async () => {
    await hub?.close();
    await fake?.close();
    rmSync(base, { recursive: true, force: true });
  });

  // The startup wait and the hook timeout are hang guards, scaled by load. A budget of one objection: the
  // model answers it once, then the turn ends with the objection standing.
  const settings: AgentSettings = {
    ...DEFAULT_SETTINGS,
    model: 'fake-model',
    firstPromptServerWaitMs: scaledMs(60_000),
    hooks: { ...DEFAULT_SETTINGS.hooks, allowlist: { kind: 'names', names: ['todo'] }, timeoutMs: scaledMs(20_000), stopMaxRejections: 1 },
  };
  const open = async (sessionId: string): Promise<{ session: AgentSession; events: AgentEvent[] }> => {
    const model = new OpenAiModelClient({ baseUrl: fake.url, retryBaseDelayMs: 10, maxRetries: 1 });
    const session = await AgentSession.open({ sessionId, settings, model, tools: hub, clock: nodeClock });
    const events: AgentEvent[] = [];
    session.subscribe((event) => events.push(event));
    return { session, events };
  };
  /** Runs a prompt with `replies` first, then the model just answers; the todo `_Stop` texts of the run. */
  const run = async (chat: { session: AgentSession; events: AgentEvent[] }, prompt: string, replies: FakeResponse[], options: PromptOptions = {}): Promise<string[]> => {
    const first = fake.chatRequests().length;
    const from = chat.events.length;
    fake.setResponder((_request, index) => replies[index - first] ?? fakeReply.text('Stopping here.'));
    await chat.session.run(prompt, signal, options);
    return chat.events.slice(from).flatMap((e) => (e.type === 'hook_finished' && e.server === 'todo' && e.hook === '_Stop' ? [e.text] : []));
  };
  const todo = (items: Array<[string, boolean]>): FakeResponse => fakeReply.toolCalls([{ name: 'todo__todo', arguments: { items: items.map(([text, done]) => ({ text, done })) } }]);
  /** What the todo server's `_Stop` says to session `sessionId` (the hook's own `_meta`). */
  const stopOf = async (sessionId: string, extra: Record<string, unknown> = {}): Promise<string> =>
    (await hub.callTool('todo', '_Stop', {}, { signal, meta: hookMeta('_Stop', { sessionId, ...extra }) })).text;

  it('keeps two sessions\' lists apart, through a rewind, a plan approval and a subagent; a call naming no session uses the shared file', async () => {
    const a = await open('chat-a');
    const b = await open('chat-b');

    const aStops = await run(a, 'plan A', [todo([['A: write the parser', false]]), fakeReply.text('A paused.')]);
    assert.match(aStops[0] ?? '', /You have open todo items\. Keep working\.\n\n1\. \[ \] A: write the parser/);

    assert.deepEqual(await run(b, 'just answer', [fakeReply.text('B has nothing to do.')]), [''], 'A\'s open item does not make B\'s _Stop object');

    const bStops = await run(b, 'plan B', [todo([['B: fix the docs', false], ['B: read the issue', true]]), fakeReply.text('B paused.')]);
    const bWrite = b.events.find((e) => e.type === 'tool_finished' && e.name === 'todo__todo');
    assert.ok(bWrite?.type === 'tool_finished' && !bWrite.isError && !/Warning/.test(bWrite.text), `B's first list replaced nothing of A's: ${JSON.stringify(bWrite)}`);
    assert.match(bStops[0] ?? '', /1\. \[ \] B: fix the docs/);
    assert.doesNotMatch(bStops[0] ?? '', /A: write the parser/);
    assert.match(await stopOf('chat-a'), /1\. \[ \] A: write the parser/, 'B\'s todo call did not change A\'s list');

    // A rewind of B to before its message 2 (its list was empty then) leaves A's list alone.
    const plan = rewindPlan(b.events, 2);
    assert.ok(typeof plan !== 'string', String(plan));
    assert.deepEqual(rewindTodoList(state, 'chat-b', b.events, plan.keep), []);
    assert.equal(await stopOf('chat-b'), '', 'B\'s list is back to empty');
    assert.match(await stopOf('chat-a'), /1\. \[ \] A: write the parser/, 'the rewind of B left A\'s list');

    // A plan approved in B writes B's list only.
    const approved = await writePlan('chat-b', ['Add the flag', 'Document it'], hub, signal);
    assert.ok(approved.ok, JSON.stringify(approved));
    assert.match(await stopOf('chat-b'), /1\. \[ \] Add the flag {2}<- next\n2\. \[ \] Document it/);
    assert.doesNotMatch(await stopOf('chat-a'), /Add the flag/, 'the approval in B did not touch A\'s list');
    assert.match(await stopOf('chat-a'), /A: write the parser/);

    // A's subagent replaces "its" whole list: its own, never A's plan.
    const delegate = fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'general', task: 'Plan the tests.' } }]);
    const withSub = await run(a, 'delegate it', [delegate, todo([['Sub: list the cases', false]]), fakeReply.text('Sub done.'), fakeReply.text('A paused again.')], { agents: [] });
    assert.ok(a.events.some((e) => e.type === 'subagent_event' && e.event.type === 'tool_finished' && e.event.name === 'todo__todo' && !e.event.isError), 'the subagent wrote a list');
    assert.match(withSub[0] ?? '', /1\. \[ \] A: write the parser/);
    assert.doesNotMatch(withSub[0] ?? '', /Sub: list the cases/);
    assert.match(await stopOf('chat-a', { agent: { id: 'sub-1', name: 'general' } }), /Sub: list the cases/, 'the subagent\'s list is its own');

    // A client that names no session (an older Sprout, a bare MCP client) keeps the shared todo.json.
    const bare = await hub.callTool('todo', 'todo', { items: [{ text: 'Shared step', done: false }] }, { signal });
    assert.equal(bare.isError, false, bare.text);
    assert.match((await hub.callTool('todo', '_Stop', {}, { signal })).text, /Shared step/);
    assert.deepEqual(JSON.parse(readFileSync(join(state, 'todo', 'todo.json'), 'utf8')).items, [{ text: 'Shared step', done: false }]);
    assert.doesNotMatch(await stopOf('chat-a'), /Shared step/, 'a session with a list of its own keeps it');
    // The hook bridge asks the hooks with the other agent's session while that agent's own calls name none.
    assert.match(await stopOf('claude-session'), /Shared step/, 'a session with no list of its own is held to the shared one');

    // The files are named by a hash of the session, never by the untrusted id itself.
    const files = readdirSync(join(state, 'todo', 'sessions'));
    assert.equal(files.length, 3, files.join(', '));
    assert.ok(files.every((f) => /^[0-9a-f]{64}\.json$/.test(f)), files.join(', '));
    assert.ok(!existsSync(join(state, 'todo', 'chat-a')));
    const requests = fake.chatRequests();
    assert.ok(requests.every((r) => r.valid), `every request was valid: ${JSON.stringify(requests.filter((r) => !r.valid).map((r) => r.error))}`);
    await a.session.dispose();
    await b.session.dispose();
  });
});
