import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgentSession } from '../../../src/agent/session';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import type { AgentEvent } from '../../../src/agent/events';
import type { AgentSettings } from '../../../src/agent/settings';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { McpServerConfig } from '../../../src/mcp/config';
import { nodeClock } from '../../../src/platform/nodeClock';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import { type FakeOpenAi, type FakeResponse, fakeReply, startFakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { scaledMs } from '../../loadScale';
import { REPO_ROOT } from './serverProcess';

// The agent core with the real OpenAI client against the fake Chat Completions server (real HTTP,
// streaming) and the real `todo` and `tests` servers (child processes through McpHub): open todo
// items and a red suite keep the agent working; once the items are done and the suite is green, the
// turn ends.
function serverConfig(name: 'todo' | 'tests', root: string, stateDir: string, extra: string[] = []): McpServerConfig {
  const entry = resolve(REPO_ROOT, 'src', 'servers', name, 'main.ts');
  return {
    name,
    transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', entry, '--root', root, '--state-dir', join(stateDir, name), ...extra], env: {}, cwd: REPO_ROOT },
  };
}

describe('agent core + todo and tests hook servers', () => {
  let base: string;
  let root: string;
  let hub: McpHub;
  let fake: FakeOpenAi;

  before(async () => {
    fake = await startFakeOpenAi();
    base = mkdtempSync(join(tmpdir(), 'sprout-e2e-'));
    root = join(base, 'project');
    mkdirSync(root);
    writeFileSync(join(root, 'math.js'), 'exports.add = (a, b) => a - b;\n');
    writeFileSync(
      join(root, 'math.test.js'),
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./math');\ntest('adds', () => assert.equal(add(2, 2), 4, 'two plus two'));\n",
    );
    // A generous budget: this test is about the gate's effect, the budget is tested in testsServer.test.ts.
    hub = new McpHub([serverConfig('todo', root, join(base, 'state')), serverConfig('tests', root, join(base, 'state'), ['--command', 'node --test', '--hook-budget-ms', '15000'])]);
  });
  after(async () => {
    await hub?.close();
    await fake?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('keeps the agent working while todo items are open and tests fail, and stops once done and green', async () => {
    const script: Array<() => FakeResponse> = [
      () => fakeReply.toolCalls([{ name: 'todo__todo', arguments: { items: [{ text: 'fix add', done: false }] } }]),
      () => fakeReply.text('All done.'),
      () => {
        // The model "fixes" the code before it marks the item done: the tests server sees a new fingerprint.
        writeFileSync(join(root, 'math.js'), 'exports.add = (a, b) => a + b;\n');
        return fakeReply.toolCalls([{ name: 'todo__todo', arguments: { items: [{ text: 'fix add', done: true }] } }]);
      },
      () => fakeReply.text('Fixed add; tests pass.'),
    ];
    fake.setResponder((_request, index) => script[index]?.());
    const model = new OpenAiModelClient({ baseUrl: fake.url, retryBaseDelayMs: 10, maxRetries: 1 });
    // The startup wait and the hook timeout are hang guards here, scaled by load: on a busy machine the
    // servers or the test run behind the tests server's _Stop outlast the product's bounds, and the gate
    // then (rightly) lets the turn end early.
    const settings: AgentSettings = {
      ...DEFAULT_SETTINGS,
      model: 'fake-model',
      firstPromptServerWaitMs: scaledMs(60_000),
      hooks: { ...DEFAULT_SETTINGS.hooks, allowlist: { kind: 'names', names: ['todo', 'tests'] }, timeoutMs: scaledMs(20_000) },
    };
    const session = await AgentSession.open({ sessionId: 'e2e', settings, model, tools: hub, clock: nodeClock });
    const events: AgentEvent[] = [];
    session.subscribe((event) => events.push(event));
    const outcome = await session.run('Fix the add function.');

    assert.equal(outcome.reason, 'end_turn', JSON.stringify(outcome));
    assert.equal(outcome.unresolved, undefined);
    const requests = fake.chatRequests();
    assert.equal(requests.length, script.length, 'the model was called until the gate let it finish');
    assert.ok(requests.every((r) => r.valid), `every request was valid: ${JSON.stringify(requests.filter((r) => !r.valid).map((r) => r.error))}`);
    const objections = events.filter((e): e is Extract<AgentEvent, { type: 'hook_objected' }> => e.type === 'hook_objected');
    assert.deepEqual(objections.map((o) => o.server).sort(), ['tests', 'todo']);
    assert.match(objections.find((o) => o.server === 'todo')?.text ?? '', /You have open todo items\. Keep working\.\n\n1\. \[ \] fix add/);
    const tests = objections.find((o) => o.server === 'tests');
    assert.match(tests?.text ?? '', /tests fail.*adds.*two plus two/s);
    // The server's structured result travels with the objection, for hosts to list the failures.
    assert.deepEqual(
      tests?.failures?.map((f) => ({ name: f.name, file: f.file, line: f.line })),
      [{ name: 'adds', file: 'math.test.js', line: 4 }],
    );
    assert.match(tests?.failures?.[0]?.message ?? '', /two plus two\nexpected: 4\nactual: 0/);
    const verdicts = events.flatMap((e) => (e.type === 'hook_finished' && e.server === 'tests' && e.hook === '_Stop' ? [e.evidence?.status] : []));
    assert.deepEqual([verdicts[0], verdicts.at(-1)], ['failed', 'passed'], 'every _Stop answer carries its verdict, green ones too');
    type WireBody = { messages: Array<{ role: string; content?: string | null }>; tools?: Array<{ function: { name: string } }> };
    const bodies = requests.map((r) => r.body as WireBody);
    const afterObjection = bodies[2]?.messages.map((m) => (m.role === 'tool' ? (m.content ?? '') : '')).join('\n') ?? '';
    assert.match(afterObjection, /"hook":"_Stop","server":"todo"/, 'the model saw the objection');
    assert.ok(bodies.every((b) => (b.tools ?? []).length > 0 && !(b.tools ?? []).some((t) => t.function.name.includes('___'))), 'hooks are never offered to the model');
  });
});
