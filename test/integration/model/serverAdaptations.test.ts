/**
 * Rejections whose reason can be read, end to end (docs/model-servers.md): the fake turns on one real
 * server's rule (a strict validator in that server's own words and shape), and a whole turn (tool
 * round, `_Stop` objecting once, the model acting on it) must go through. On a URL that names no
 * provider the client learns the shape from the one rejection, says so once (`model_adapted` with
 * the provider's words), sends the request again in that shape and never repeats the rejection; with
 * the compatibility value forced, the shape goes up front and nothing is rejected.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Compatibility } from '../../../src/model/dialect';
import { fakeReply, type FakeOpenAiOptions, type FakeReplyResponse } from '../../fakes/fakeOpenAiServer';
import type { McpServerConfig } from '../../../src/mcp/config';
import type { Rig, WireMessage } from '../loop/loopHarness';
import { checkTurn, expectRejections, openTurn, TWO_ECHOES, type TurnOptions } from './serverHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

interface Case {
  name: string;
  fake: Omit<FakeOpenAiOptions, 'responses'>;
  forced: Compatibility;
  rejected: RegExp;
  /** What the requests after the lesson (or all of them, forced) look like. */
  shape: (rig: Rig) => void;
  turn?: Partial<TurnOptions>;
}

const toolOnlyTurns = (messages: WireMessage[]) => messages.filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0 && !m.content);
const lastMessages = (rig: Rig) => rig.messages(rig.fake.chatRequests().length - 1);
const INSTRUCTIONS = 'You are a test agent.';

const cases: Case[] = [
  {
    name: 'a chat template without a system role (Gemma on vLLM): the instructions open the first user message',
    fake: { rules: ['no-system-role'] },
    forced: 'gemma',
    rejected: /System role not supported/,
    shape: (rig) => {
      const first = rig.chatBodies().at(-1)?.messages[0];
      assert.equal(first?.role, 'user');
      assert.match(String(first?.content), new RegExp(`^${INSTRUCTIONS}`));
      assert.ok(rig.chatBodies().at(-1)?.messages.every((m) => m.role !== 'system'));
    },
  },
  {
    name: 'Ollama refuses null content on a tool-only turn: "" goes instead',
    fake: { rules: ['ollama-no-null-content'] },
    forced: 'ollama',
    rejected: /invalid message content type: <nil>/,
    shape: (rig) => assert.ok(toolOnlyTurns(lastMessages(rig)).every((m) => m.content === '') && toolOnlyTurns(lastMessages(rig)).length > 0),
  },
  {
    name: 'LM Studio refuses null content: "" goes instead',
    fake: { rules: ['lmstudio-no-null-content'] },
    forced: 'lmstudio',
    rejected: /'content' field must be a string or an array of objects/,
    shape: (rig) => assert.ok(toolOnlyTurns(lastMessages(rig)).every((m) => m.content === '')),
  },
  {
    name: 'an Azure API Management gateway takes the key only in api-key',
    fake: { rules: ['apim-api-key'], apiKey: 'test-key' },
    forced: 'azure',
    rejected: /missing subscription key/,
    shape: (rig) => {
      const last = rig.fake.chatRequests().at(-1);
      assert.equal(last?.headers['api-key'], 'test-key');
      assert.equal(last?.headers.authorization, undefined, 'the key goes in one header only');
    },
  },
  {
    name: 'Cerebras refuses reasoning fields a relay-like reply taught: the history goes without them',
    fake: { rules: ['cerebras-no-reasoning-fields'] },
    forced: 'openai',
    rejected: /reasoning: property 'messages\.\d+\.assistant\.reasoning' is unsupported/,
    shape: (rig) => assert.ok(lastMessages(rig).every((m) => !('reasoning' in m) && !('reasoning_content' in m))),
    turn: { toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { reasoning: 'Echo both.', reasoningAs: 'reasoning' })] },
  },
];

async function learns(c: Case): Promise<Rig> {
  const r = await openTurn({ fake: c.fake, ...c.turn });
  checkTurn(r, await r.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
  const adapted = r.of('model_adapted');
  assert.equal(adapted.length, c.name.startsWith('Cerebras') ? 2 : 1, JSON.stringify(adapted));
  const said = adapted.find((e) => e.learnedFrom === 'rejection');
  assert.match(said?.said ?? '', c.rejected, "the note quotes the provider's words");
  assert.equal(r.of('retry').length, 0, 'a changed shape is not a blind retry');
  expectRejections(r, [c.rejected]);
  return r;
}

describe('a rejection whose reason can be read: learned once, and up front when forced', () => {
  for (const c of cases) {
    it(`auto: ${c.name}`, async () => {
      rig = await learns(c);
      c.shape(rig);
      // The next prompt of the session starts in the learned shape: nothing is rejected again.
      rig.fake.enqueue(fakeReply.toolCalls([{ name: 'tools__echo', arguments: { text: 'again' } }]), fakeReply.text('ok'));
      const before = rig.fake.requests.length;
      assert.equal((await rig.runtime.session.run('once more')).reason, 'end_turn');
      assert.ok(rig.fake.requests.slice(before).every((r) => r.valid));
      c.shape(rig);
    });
    it(`forced ${c.forced}: ${c.name}`, async () => {
      rig = await openTurn({ fake: c.fake, model: { compatibility: c.forced }, ...c.turn });
      checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
      c.shape(rig);
      assert.deepEqual(rig.of('model_adapted'), [], 'nothing to learn');
    });
  }

  it('the reverse: an endpoint that refuses "" (Gemini) behind a setting that sends it (ollama) teaches null; auto and gemini send null at once', async () => {
    const gemini = { rules: ['gemini-no-empty-content' as const] };
    rig = await openTurn({ fake: gemini, model: { compatibility: 'ollama' } });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
    expectRejections(rig, [/Unable to submit request because it has an empty text parameter/]);
    assert.ok(toolOnlyTurns(lastMessages(rig)).every((m) => m.content === null));
    for (const compatibility of ['auto', 'gemini'] as const) {
      await rig.close();
      rig = await openTurn({ fake: gemini, model: { compatibility } });
      checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
      assert.deepEqual(rig.of('model_adapted'), [], compatibility);
    }
  });

  it('Kimi thinking mode: its "reasoning_content is missing" teaches the rule behind a setting that said openai; usage inside the choice is read', async () => {
    const thinking: Partial<FakeReplyResponse> = { reasoning: 'Now answer.' };
    rig = await openTurn({ fake: { provider: 'kimi' }, model: { compatibility: 'openai' }, toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { reasoning: 'Echo both.' })], textQuirks: thinking });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
    expectRejections(rig, [/thinking is enabled but reasoning_content is missing in assistant tool call message at index 2/]);
    assert.ok(rig.of('usage').every((e) => e.usage.estimated === undefined), 'the usage in the choice was read, not estimated');
    await rig.close();
    rig = await openTurn({ fake: { provider: 'kimi' }, toolRounds: [fakeReply.toolCalls(TWO_ECHOES, { reasoning: 'Echo both.' })], textQuirks: thinking });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
    assert.deepEqual(rig.of('model_adapted').map((e) => e.learnedFrom), ['reply'], 'on auto the reply teaches it, nothing is rejected');
  });
});

/** The reference MCP server from npm: its tools' schemas are what zod writes ($schema, default, format). */
const EVERYTHING: McpServerConfig = {
  name: 'everything',
  transport: { type: 'stdio', command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'], env: {} },
};

describe("a real server's tool schemas against Gemini's schema rules", () => {
  const offered = (rig: Rig) => rig.chatBodies().at(-1)?.tools?.filter((t) => t.function.name.startsWith('everything__')) ?? [];

  it('auto: the Unknown name "$schema" rejection teaches reduced schemas; every tool is still offered', async () => {
    rig = await openTurn({ fake: { rules: ['gemini-schema'] }, extraServers: [EVERYTHING] });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'], requests: 5 });
    expectRejections(rig, [/Invalid JSON payload received\. Unknown name "\$schema" at 'tools\[0\]\.function_declarations\[\d+\]\.parameters': Cannot find field/]);
    assert.ok(offered(rig).length >= 5, 'the server\'s tools are offered');
    assert.doesNotMatch(JSON.stringify(rig.chatBodies().at(-1)?.tools), /\$schema|"default"|"format"/);
    assert.deepEqual(rig.of('model_adapted').map((e) => e.change), [expect('reduced')]);
  });

  it('forced gemini: reduced schemas up front, nothing rejected', async () => {
    rig = await openTurn({ fake: { rules: ['gemini-schema'] }, extraServers: [EVERYTHING], model: { compatibility: 'gemini' } });
    checkTurn(rig, await rig.runtime.session.run('echo twice'), { echoes: ['first', 'second'] });
    assert.ok(offered(rig).length >= 5);
  });
});

function expect(word: string): string {
  return `sending tool parameter schemas ${word} to plain types, properties and enums (no $schema, $ref, additionalProperties, format, ...)`;
}
