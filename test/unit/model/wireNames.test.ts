/**
 * Tool names on the wire (src/model/wireNames.ts). The names are those MCP servers really list and
 * providers really refuse: dotted names (https://github.com/CherryHQ/cherry-studio/pull/2895), slashes
 * (https://github.com/danishjsheikh/swagger-mcp/issues/13), spaces
 * (https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1345), Gemini's letter-first
 * rule (https://github.com/home-assistant/core/pull/122349).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptsName, MAX_WIRE_NAME_LENGTH, WireNames, wireNameOf } from '../../../src/model/wireNames';
import { toStreamingParams } from '../../../src/model/wire';
import { shapeReply } from '../../../src/model/replyShaping';
import type { ChatMessage } from '../../../src/agent/messages';

const OPENAI = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

describe('wireNameOf', () => {
  it('sends a name the endpoint accepts as it is', () => {
    assert.equal(wireNameOf('files__read_file', 'openai'), 'files__read_file');
    assert.equal(wireNameOf('tests___Stop', 'openai'), 'tests___Stop');
  });

  it('turns dots, slashes, spaces and unicode into a readable name with a hash', () => {
    const cases: Array<[string, RegExp]> = [
      ['files__files.read', /^files__files_read_[0-9a-f]{8}$/],
      ['api__a/b', /^api__a_b_[0-9a-f]{8}$/],
      ['docker__Dockerfile problems scanner', /^docker__Dockerfile_problems_scanner_[0-9a-f]{8}$/],
      ['cafe__café.crème', /^cafe__cafe_creme_[0-9a-f]{8}$/],
      ['jp__日本語', /^jp__tool_[0-9a-f]{8}$/],
    ];
    for (const [name, shape] of cases) {
      const alias = wireNameOf(name, 'openai');
      assert.match(alias, shape, name);
      assert.match(alias, OPENAI, name);
    }
  });

  it('keeps a 128-character name within 64, the tool part before the server part', () => {
    const tool = `t${'x'.repeat(127)}`;
    const alias = wireNameOf(`server__${tool}`, 'openai');
    assert.equal(alias.length, MAX_WIRE_NAME_LENGTH);
    assert.match(alias, OPENAI);
    assert.match(alias, /^server__tx+_[0-9a-f]{8}$/);
    const longServer = `${'s'.repeat(100)}__read`;
    const shortened = wireNameOf(longServer, 'openai');
    assert.match(shortened, OPENAI);
    assert.ok(shortened.includes('__read_'), `the tool's name survives: ${shortened}`);
  });

  it('is a pure function of the name: the same in any process, any order', () => {
    assert.equal(wireNameOf('files__files.read', 'openai'), wireNameOf('files__files.read', 'openai'));
    assert.notEqual(wireNameOf('files__files.read', 'openai'), wireNameOf('files__files/read', 'openai'), 'names that read alike differ by their hash');
  });

  it('starts with a letter or `_` under Gemini\'s rule', () => {
    assert.equal(acceptsName('1password__get', 'letter_first'), false);
    const alias = wireNameOf('1password__get', 'letter_first');
    assert.match(alias, GEMINI);
    assert.match(alias, OPENAI);
    assert.equal(wireNameOf('1password__get', 'openai'), '1password__get', 'OpenAI takes it as it is');
  });
});

describe('WireNames', () => {
  it('keeps apart names from two servers that read alike', () => {
    const names = new WireNames('openai');
    const long = 'a-very-long-server-name-for-the-team-that-owns-it';
    const real = [`${long}-alpha__query.run`, `${long}-beta__query.run`, 'x__a.b', 'x__a/b', 'x__a_b'];
    names.claim(real);
    const aliases = real.map((name) => names.wire(name));
    assert.equal(new Set(aliases).size, real.length, aliases.join(', '));
    for (const [i, alias] of aliases.entries()) {
      assert.match(alias, OPENAI);
      assert.equal(names.real(alias), real[i]);
    }
    assert.equal(names.wire('x__a_b'), 'x__a_b', 'the valid one keeps its own spelling');
  });

  it('gives a later name a salted alias when its alias is taken, and never renames the first', () => {
    const names = new WireNames('openai');
    const dotted = 'srv__files.read';
    const taken = wireNameOf(dotted, 'openai');
    names.claim([dotted]);
    // A server added mid-chat lists a tool spelled exactly like the alias.
    names.claim([taken]);
    assert.equal(names.wire(dotted), taken, 'the first claim keeps its alias');
    assert.notEqual(names.wire(taken), taken);
    assert.match(names.wire(taken), OPENAI);
    assert.equal(names.real(names.wire(taken)), taken);
    assert.equal(names.real(taken), dotted);
  });

  it('never renames an alias when a server is added mid-chat', () => {
    const first = ['files__files.read', 'files__files.write', 'git__status'];
    const names = new WireNames('openai');
    names.claim(first);
    const before = first.map((name) => names.wire(name));
    names.claim(['web__fetch/url', 'files2__files.read', ...Array.from({ length: 200 }, (_, i) => `many__tool.${i}`)]);
    assert.deepEqual(first.map((name) => names.wire(name)), before);
    // A replay in a fresh table, with the new server's tools arriving first, names them the same.
    const replay = new WireNames('openai');
    replay.claim(['web__fetch/url', ...first]);
    assert.deepEqual(first.map((name) => replay.wire(name)), before);
  });

  it('a valid name arriving with an alias-like one keeps its spelling whatever the order', () => {
    const dotted = 'srv__files.read';
    const lookalike = wireNameOf(dotted, 'openai');
    const names = new WireNames('openai');
    names.claim([dotted, lookalike]);
    assert.equal(names.wire(lookalike), lookalike);
    assert.notEqual(names.wire(dotted), lookalike);
  });
});

describe('the request and the reply', () => {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'read it' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'files__files.read', arguments: '{"path":"a"}' }] },
    { role: 'tool', toolCallId: 'c1', content: 'text' },
  ];
  const tools = [
    { name: 'files__files.read', description: 'read', parameters: { type: 'object' } },
    { name: 'files__a/b', description: 'ab', parameters: { type: 'object' } },
  ];

  it('sends aliases in the tools and in the history, the same alias for the same tool', () => {
    const names = new WireNames('openai');
    const params = toStreamingParams({ model: 'm', messages, tools }, undefined, { names });
    const toolNames = (params.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : ''));
    for (const name of toolNames) assert.match(name, OPENAI);
    const call = params.messages[1] as { tool_calls: Array<{ function: { name: string } }> };
    assert.equal(call.tool_calls[0]?.function.name, toolNames[0]);
    assert.equal(names.real(toolNames[1] ?? ''), 'files__a/b');
  });

  it('turns a reply\'s alias back into the real name, also behind a `functions.` prefix', () => {
    const names = new WireNames('openai');
    names.claim(tools.map((t) => t.name));
    const alias = names.wire('files__a/b');
    const reply = shapeReply(
      { content: null, reasoning: null, reasoningField: undefined, finishReason: 'tool_calls', usage: null, calls: [{ id: 'x', name: alias, arguments: '{}' }, { id: 'y', name: `functions.${alias}`, arguments: '{}' }] },
      { toolNames: tools.map((t) => names.wire(t.name)), realName: (wire) => names.real(wire), isTaken: () => false, promptChars: () => 0 },
    );
    assert.deepEqual(reply.toolCalls.map((c) => c.name), ['files__a/b', 'files__a/b']);
  });
});
