// Tools whatever their names, and more tools than a request may carry, end to end: real MCP child
// processes listing names OpenAI refuses (`files.read`, `a/b`, 100 characters, two long server names
// that read alike), the fake OpenAI server refusing what the real API refuses (the name pattern, 64
// characters, 128 tools), and a scripted model that picks tools by their descriptions, as a model
// does, and calls them by the names the request gave it. Public reports of the refusals:
// https://github.com/CherryHQ/cherry-studio/pull/2895 (dots), https://github.com/danishjsheikh/swagger-mcp/issues/13
// (slashes), https://github.com/zed-industries/zed/issues/32946 ("array too long" with many servers).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { fakeReply, type FakeRequestRecord, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import type { FakeToolSpec } from '../../fakes/hookServer';
import { openRig, type ChatBody, type Rig } from './loopHarness';

const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const LONG_TOOL = `report_${'x'.repeat(86)}.summary`;
const LONG_SERVER_A = `${'observability-'.repeat(4)}alpha`;
const LONG_SERVER_B = `${'observability-'.repeat(4)}beta`;

const tool = (name: string, description: string): FakeToolSpec => ({ name, description, inputSchema: { type: 'object', properties: { n: { type: 'number' } } }, behaviour: { kind: 'text', text: `${name} answered` } });

/** The real name of each tool and the description the scripted model finds it by. */
const WANTED: Array<{ server: string; bare: string; description: string }> = [
  { server: 'files', bare: 'files.read', description: 'Reads a file (dotted)' },
  { server: 'files', bare: 'a/b', description: 'Walks a to b (slashed)' },
  { server: 'files', bare: LONG_TOOL, description: 'Summarises the report (long)' },
  { server: LONG_SERVER_A, bare: 'query.run', description: 'Runs a query on alpha' },
  { server: LONG_SERVER_B, bare: 'query.run', description: 'Runs a query on beta' },
];

function serversOf(): Array<{ name: string; config: { extraTools: FakeToolSpec[] } }> {
  const byServer = new Map<string, FakeToolSpec[]>();
  for (const w of WANTED) byServer.set(w.server, [...(byServer.get(w.server) ?? []), tool(w.bare, w.description)]);
  return [...byServer].map(([name, extraTools]) => ({ name, config: { extraTools } }));
}

function toolsOf(request: FakeRequestRecord): Array<{ name: string; description: string }> {
  return ((request.body as { tools?: Array<{ function: { name: string; description?: string } }> }).tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description ?? '' }));
}

/** Round 0 calls every wanted tool (found by its description) with its own argument; any later round answers. */
function callEveryTool(request: FakeRequestRecord, index: number): FakeResponse {
  if (index > 0) return fakeReply.text('done');
  const offered = toolsOf(request);
  return fakeReply.toolCalls(
    WANTED.map((w, i) => {
      const found = offered.find((t) => t.description === w.description);
      assert.ok(found, `the request offers "${w.description}": ${offered.map((t) => t.name).join(', ')}`);
      return { name: found.name, arguments: { n: i } };
    }),
  );
}

const realName = (w: (typeof WANTED)[number]): string => `${w.server}__${w.bare}`;

describe('tool names the provider would refuse', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-wirenames-'));
  const transcript = join(dir, 'transcript.jsonl');
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let firstAliases: Map<string, string> = new Map();

  it('every tool reaches the model as a valid alias, each call reaches the right server with its arguments, and users see real names', async () => {
    rig = await openRig({ servers: serversOf(), sessionId: 'wire-names', transcript });
    rig.fake.setResponder(callEveryTool);
    const outcome = await rig.runtime.session.run('use every tool');
    assert.equal(outcome.reason, 'end_turn');
    const offered = toolsOf(rig.fake.chatRequests()[0] as FakeRequestRecord);
    for (const t of offered) assert.match(t.name, WIRE_NAME);
    const aliases = WANTED.map((w) => offered.find((t) => t.description === w.description)?.name ?? '');
    assert.equal(new Set(aliases).size, WANTED.length, `two servers that read alike are kept apart: ${aliases.join(', ')}`);
    firstAliases = new Map(WANTED.map((w, i) => [realName(w), aliases[i] ?? '']));

    for (const [i, w] of WANTED.entries()) {
      const calls = rig.calls(w.server, w.bare);
      assert.equal(calls.length, 1, `${realName(w)} ran once`);
      assert.deepEqual(calls[0]?.arguments, { n: i }, `${realName(w)} got its own arguments`);
    }
    const started = rig.of('tool_started').map((e) => e.name);
    assert.deepEqual(started, WANTED.map(realName), 'events carry the real names');
    const results = rig.messages(1).filter((m) => m.role === 'tool').map((m) => m.content);
    assert.deepEqual(results, WANTED.map((w) => `${w.bare} answered`));
    // The history sent back names the calls by the same aliases the tools had.
    const sentBack = rig.messages(1).find((m) => m.role === 'assistant')?.tool_calls?.map((c) => c.function.name);
    assert.deepEqual(sentBack, aliases);

    await rig.close();
    rig = undefined;
    const recorded = readFileSync(transcript, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { event: AgentEvent }).event);
    const calledInTranscript = recorded.flatMap((e) => (e.type === 'message' && e.message.role === 'assistant' ? (e.message.toolCalls ?? []).map((c) => c.name) : []));
    assert.deepEqual(calledInTranscript, WANTED.map(realName), 'the transcript keeps the real names');
    for (const alias of aliases) assert.ok(!readFileSync(transcript, 'utf8').includes(alias), `no alias in the transcript: ${alias}`);
  });

  it('a session resumed from the transcript, in a new process, sends the same aliases', async () => {
    assert.equal(firstAliases.size, WANTED.length, 'the first test ran');
    // A server added since: its tools must not rename the others.
    const servers = [...serversOf(), { name: 'later', config: { extraTools: [tool('x.y', 'Added later')] } }];
    rig = await openRig({ servers, sessionId: 'wire-names', transcript, responses: [fakeReply.text('resumed')] });
    const outcome = await rig.runtime.session.run('again');
    assert.equal(outcome.reason, 'end_turn');
    const body = rig.chatBodies()[0] as ChatBody;
    const history = body.messages.find((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0)?.tool_calls?.map((c) => c.function.name);
    assert.deepEqual(history, [...firstAliases.values()], 'the replayed history carries the first run\'s aliases');
    const offered = toolsOf(rig.fake.chatRequests()[0] as FakeRequestRecord);
    for (const w of WANTED) assert.equal(offered.find((t) => t.description === w.description)?.name, firstAliases.get(realName(w)));
  });
});

describe('more tools than one request may carry', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** Round 0 searches, round 1 calls what the search loaded (found by its description in the request), round 2 answers. */
  function searchThenCall(query: string, description: string, args: Record<string, unknown>): (request: FakeRequestRecord, index: number) => FakeResponse {
    return (request, index) => {
      const offered = toolsOf(request);
      if (index === 0) {
        const search = offered.find((t) => t.description.startsWith('Finds tools by what they do'));
        assert.ok(search, `the search tool is offered: ${offered.map((t) => t.name).join(', ')}`);
        assert.ok(!offered.some((t) => t.description === description), 'the wanted tool is not offered before the search');
        return fakeReply.toolCalls([{ name: search.name, arguments: { query } }]);
      }
      if (index === 1) {
        const found = offered.find((t) => t.description === description);
        assert.ok(found, `the tool the search found joins the next round: ${offered.map((t) => t.name).join(', ')}`);
        return fakeReply.toolCalls([{ name: found.name, arguments: args }]);
      }
      return fakeReply.text('done');
    };
  }

  it('a server with 10,000 tools goes behind the tool search with its name said; the other servers stay whole and usable', async () => {
    rig = await openRig({
      servers: [
        { name: 'small', config: { extraTools: [tool('ping', 'Pings')] } },
        { name: 'huge', config: { echo: false, manyTools: 10_000 } },
      ],
    });
    rig.fake.setResponder((request, index) => {
      if (index > 0) return fakeReply.text('done');
      const ping = toolsOf(request).find((t) => t.description === 'Pings');
      return ping ? fakeReply.toolCalls([{ name: ping.name, arguments: { n: 7 } }]) : fakeReply.text('no ping offered');
    });
    const outcome = await rig.runtime.session.run('ping');
    assert.equal(outcome.reason, 'end_turn');
    const first = rig.fake.chatRequests()[0] as FakeRequestRecord;
    assert.equal(toolsOf(first).length, 3, 'the small server whole (echo, ping) and the search');
    assert.deepEqual(rig.calls('small', 'ping').map((c) => c.arguments), [{ n: 7 }]);
    const limited = rig.of('tools_limited');
    assert.equal(limited.length, 1, 'said once');
    assert.deepEqual(limited[0]?.servers, [{ server: 'huge', listed: 10_000, offered: 0 }]);
  });

  it('300 tools over 6 servers: a task needing one of them finds it with the search, calls it, and it stays loaded', async () => {
    const servers = Array.from({ length: 6 }, (_, i) => ({
      name: `srv${i}`,
      config: { echo: false, manyTools: 50, ...(i === 4 ? { extraTools: [tool('deploy.preview', 'Deploys a preview of the site')] } : {}) },
    }));
    rig = await openRig({ servers });
    rig.fake.setResponder(searchThenCall('deploy a preview', 'Deploys a preview of the site', { n: 3 }));
    const outcome = await rig.runtime.session.run('deploy a preview');
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    assert.deepEqual(rig.calls('srv4', 'deploy.preview').map((c) => c.arguments), [{ n: 3 }]);
    const loaded = rig.of('tools_loaded');
    assert.equal(loaded[0]?.names[0], 'srv4__deploy.preview', 'the best match comes first, under its real name');
    const sizes = rig.fake.chatRequests().map((r) => toolsOf(r).length);
    assert.ok(sizes.every((n) => n <= 1 + 8), `only the search and what it loaded are sent: ${sizes.join(', ')}`);
    // The next prompt still has it.
    rig.fake.setResponder(() => fakeReply.text('again'));
    await rig.runtime.session.run('and again');
    const last = rig.fake.chatRequests().at(-1) as FakeRequestRecord;
    assert.ok(toolsOf(last).some((t) => t.description === 'Deploys a preview of the site'), 'a loaded tool stays for the conversation');
  });
});

describe('a provider that still refuses the number of tools', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('ends the prompt with an error that names the servers, their counts and how to narrow them', async () => {
    // A gateway with a lower limit than OpenAI's answers in OpenAI's words and shape.
    const message = "Invalid 'tools': array too long. Expected an array with maximum length 8, but got an array with length 13 instead.";
    rig = await openRig({
      servers: [
        { name: 'wide', config: { echo: false, manyTools: 12 } },
        { name: 'tiny', config: {} },
      ],
      responses: [fakeReply.error(400, message, { body: { error: { message, type: 'invalid_request_error', param: 'tools', code: 'array_above_max_length' } } })],
    });
    const outcome = await rig.runtime.session.run('go');
    assert.equal(outcome.reason, 'error');
    assert.match(outcome.message ?? '', /refused the request's 13 tools/);
    assert.match(outcome.message ?? '', /MCP servers wide \(12\), tiny \(1\)/);
    assert.match(outcome.message ?? '', /Sprout: Pick Tools.*--tools/);
    assert.equal(rig.fake.chatRequests().length, 1, 'not retried: the same request would be refused again');
  });
});

describe('Gemini\'s stricter name rule', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('a server whose name starts with a digit reaches Gemini through an alias that starts with a letter or `_`, and its call comes back real', async () => {
    rig = await openRig({
      servers: [{ name: '1password', config: { echo: false, extraTools: [tool('get', 'Gets a secret item')] } }],
      fake: { provider: 'gemini', rules: ['gemini-function-names'] },
      model: { compatibility: 'gemini' },
    });
    rig.fake.setResponder((request, index) => {
      if (index > 0) return fakeReply.text('done');
      const get = toolsOf(request).find((t) => t.description === 'Gets a secret item');
      return get ? fakeReply.toolCalls([{ name: get.name, arguments: { n: 1 } }]) : fakeReply.text('not offered');
    });
    const outcome = await rig.runtime.session.run('get it');
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    assert.deepEqual(rig.calls('1password', 'get').map((c) => c.arguments), [{ n: 1 }]);
    assert.deepEqual(rig.of('tool_started').map((e) => e.name), ['1password__get']);
    assert.ok(rig.fake.chatRequests().every((r) => r.valid), 'Gemini accepted every request');
  });
});
