// The Language Model source against the real vscode.lm API: the ScriptedLmProvider fixture extension
// registers chat models with registerLanguageModelChatProvider, and Sprout's LanguageModelClient drives
// them, alone and under the real agent loop with a real MCP hook server (a child process). Proves:
// tools offered without hooks, tool results returned as result parts, the _Stop objection pair
// delivered as a call/result pair, errors turned into what-to-do messages, cancel reaching the
// provider, and compaction started by the model's maxInputTokens and its own token counts.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { AgentSession } from '../../../src/agent/session';
import { DEFAULT_SETTINGS, type AgentSettings } from '../../../src/agent/settings';
import type { AgentEvent } from '../../../src/agent/events';
import { ModelError, type AdaptationNote } from '../../../src/agent/ports';
import { processAdaptationMemory } from '../../../src/model/adaptationMemory';
import { McpHub } from '../../../src/mcp/mcpHub';
import { nodeClock } from '../../../src/platform/nodeClock';
import { LanguageModelClient } from '../../../src/extension/modelSources/languageModelClient';
import { LanguageModels } from '../../../src/extension/modelSources/languageModels';
import { hookServerConfig, objectTimes, type HookServerConfig } from '../../fakes/hookServer/hookServerConfig';
import { readHookServerLog } from '../../fakes/hookServer/hookServerState';
import { SCRIPTED_LM_EXTENSION_ID, type ScriptedLmProviderApi, type RecordedLmRequest } from '../lmProvider/scriptedLmTypes';
import { until } from '../sproutHarness';
import { waitFor } from '../../waitFor';

const LARGE = 'sprout-test/scripted';
const SMALL = 'sprout-test/scripted-small';
const TEXT_ONLY = 'sprout-test/scripted-text-only';
/** A real 1x1 PNG. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

function hookHub(config: HookServerConfig): McpHub {
  const base = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? 'null') as { command: string; args: string[]; env: Record<string, string> } | null;
  assert.ok(base, 'the runner passes SPROUT_TEST_HOOK_SERVER');
  const transport = { type: 'stdio' as const, command: base.command, args: base.args, env: { ...base.env, HOOK_SERVER_CONFIG: JSON.stringify(config) } };
  return new McpHub([{ name: 'hooky', transport }], { clientName: 'sprout-editor-test' });
}

function settings(model: string, extra: Partial<AgentSettings> = {}): AgentSettings {
  return { ...DEFAULT_SETTINGS, model, hooks: { ...DEFAULT_SETTINGS.hooks, allowlist: { kind: 'names', names: ['hooky'] } }, ...extra };
}

function lastUserParts(request: RecordedLmRequest | undefined): RecordedLmRequest['messages'][number]['parts'] {
  return [...(request?.messages ?? [])].reverse().find((m) => m.role === 'user')?.parts ?? [];
}

describe('VS Code language models (real vscode.lm, scripted provider)', function () {
  this.timeout(60_000);
  let provider: ScriptedLmProviderApi;
  let models: LanguageModels;
  let client: LanguageModelClient;
  let hub: McpHub | undefined;
  let session: AgentSession | undefined;
  let logDir = '';

  before(async () => {
    const fixture = vscode.extensions.getExtension<ScriptedLmProviderApi>(SCRIPTED_LM_EXTENSION_ID);
    assert.ok(fixture, `the runner loads ${SCRIPTED_LM_EXTENSION_ID}`);
    provider = await fixture.activate();
    models = new LanguageModels();
    client = new LanguageModelClient({ models });
    logDir = mkdtempSync(join(tmpdir(), 'sprout-lm-'));
  });
  beforeEach(() => provider.reset());
  afterEach(async () => {
    session?.dispose();
    session = undefined;
    await hub?.close();
    hub = undefined;
  });
  after(() => {
    models.dispose();
    rmSync(logDir, { recursive: true, force: true });
  });

  async function open(model: string, hubConfig: HookServerConfig, extra: Partial<AgentSettings> = {}): Promise<{ session: AgentSession; events: AgentEvent[] }> {
    hub = hookHub(hubConfig);
    session = await AgentSession.open({ sessionId: `lm-${Date.now()}`, settings: settings(model, extra), model: client, tools: hub, clock: nodeClock });
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));
    return { session, events };
  }

  it("lists the provider's models with vendor, family and maxInputTokens", async () => {
    const listed = await models.list();
    const large = listed.find((m) => m.ref === LARGE);
    assert.deepEqual(large, { ref: LARGE, id: 'scripted', vendor: 'sprout-test', family: 'scripted', name: 'Scripted Model', version: '1', maxInputTokens: 100_000 });
    assert.equal(listed.find((m) => m.ref === SMALL)?.maxInputTokens, 3_000);
  });

  it("streams text parts into onTextDelta and counts usage with the model's tokenizer", async () => {
    provider.script([{ kind: 'text', text: 'Hello from the scripted model.', chunks: 3 }]);
    const deltas: string[] = [];
    const request = { model: LARGE, messages: [{ role: 'system' as const, content: 'be brief' }, { role: 'user' as const, content: 'say hello' }], tools: [] };
    const reply = await client.complete(request, { signal: new AbortController().signal, onTextDelta: (d) => deltas.push(d) });
    assert.equal(deltas.length, 3);
    assert.equal(deltas.join(''), 'Hello from the scripted model.');
    assert.equal(reply.content, 'Hello from the scripted model.');
    assert.equal(reply.finishReason, 'stop');
    // The fixture counts four characters a token: 'be brief' 2, 'say hello' 3; the reply 30 characters.
    assert.deepEqual(reply.usage, { promptTokens: 2 + 3, completionTokens: 8, totalTokens: 13 });
    assert.ok(provider.tokenCounts >= 3, `counted through the provider (${provider.tokenCounts})`);
    assert.deepEqual(provider.requests[0]?.messages, [{ role: 'user', parts: [{ kind: 'text', value: 'be brief' }, { kind: 'text', value: 'say hello' }] }]);
    assert.deepEqual(provider.requests[0]?.tools, [], 'a call without tools offers none');
  });

  it('under the agent loop: tools offered without hooks, results returned, the _Stop objection delivered as a pair', async () => {
    const { session, events } = await open(LARGE, hookServerConfig({ hooks: { _Stop: objectTimes('Run the tests first.', 1) } }));
    provider.script([
      { kind: 'toolCalls', calls: [{ name: 'hooky__echo', input: { text: 'ping' }, callId: 'call-echo' }] },
      { kind: 'text', text: 'All done.' },
      { kind: 'text', text: 'Ran the tests: they pass.' },
    ]);
    const outcome = await session.run('Echo ping, then finish.', new AbortController().signal);
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    assert.equal(provider.requests.length, 3);
    for (const request of provider.requests) {
      assert.ok(request.tools.includes('hooky__echo'), `tools: ${request.tools.join(', ')}`);
      assert.ok(!request.tools.some((name) => name.includes('___')), `no hook offered: ${request.tools.join(', ')}`);
    }
    const [first, second, third] = provider.requests;
    assert.deepEqual(first?.messages.map((m) => m.role), ['user'], 'system prompt and prompt travel as one user message');
    assert.deepEqual(second?.messages.at(-2)?.parts, [{ kind: 'toolCall', callId: 'call-echo', name: 'hooky__echo', input: { text: 'ping' } }]);
    const result = lastUserParts(second)[0];
    assert.equal(result?.kind, 'toolResult');
    assert.ok(result?.kind === 'toolResult' && result.callId === 'call-echo' && result.text.includes('ping'), JSON.stringify(result));
    const objectionCall = third?.messages.at(-2)?.parts;
    assert.equal(objectionCall?.[0]?.kind === 'text' && objectionCall[0].value, 'All done.');
    const hookCall = objectionCall?.[1];
    assert.ok(hookCall?.kind === 'toolCall' && hookCall.name === 'hooky___Stop', JSON.stringify(objectionCall));
    assert.deepEqual(hookCall.input, {});
    assert.deepEqual(lastUserParts(third), [{ kind: 'toolResult', callId: hookCall.callId, text: '{"hook":"_Stop","server":"hooky","text":"Run the tests first."}' }]);
    const objected = events.find((e) => e.type === 'hook_objected');
    assert.ok(objected?.type === 'hook_objected' && objected.server === 'hooky', `events: ${[...new Set(events.map((e) => e.type))].join(', ')}`);
  });

  it('a provider error ends the prompt with what to do, and no hook is asked', async () => {
    const logFile = join(logDir, 'error.jsonl');
    const { session } = await open(LARGE, hookServerConfig({ logFile, hooks: { _Stop: objectTimes('never asked') } }));
    provider.script([{ kind: 'error', code: 'NoPermissions', message: 'consent was not given' }]);
    const outcome = await session.run('hello', new AbortController().signal);
    assert.equal(outcome.reason, 'error');
    assert.match(outcome.message ?? '', /VS Code did not allow Sprout to use "Scripted Model" \(sprout-test\)/);
    assert.match(outcome.message ?? '', /Manage Language Model Access/);
    assert.equal(readHookServerLog(logFile).filter((e) => e.type === 'call').length, 0, '_Stop never runs on an error');
  });

  it('each LanguageModelError code from the provider arrives as its ModelError kind', async () => {
    const cases = [
      { code: 'NoPermissions', kind: 'auth' },
      { code: 'Blocked', kind: 'rate_limit' },
      { code: 'NotFound', kind: 'config' },
      { code: 'plain', kind: 'rate_limit', message: 'You have exceeded your monthly quota' },
      { code: 'plain', kind: 'server', message: 'the backend fell over' },
    ] as const;
    for (const c of cases) {
      provider.script([{ kind: 'error', code: c.code, message: 'message' in c ? c.message : `scripted ${c.code}` }]);
      const request = { model: LARGE, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
      await assert.rejects(client.complete(request, { signal: new AbortController().signal }), (e: unknown) => {
        assert.ok(e instanceof ModelError, String(e));
        assert.equal(e.kind, c.kind, `${c.code}: ${e.message}`);
        assert.match(e.message, /"Scripted Model" \(sprout-test\)/);
        return true;
      });
    }
  });

  it('a model VS Code no longer offers is a configuration error naming the picker', async () => {
    provider.offerOnly(['scripted']);
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'sprout-test', id: 'scripted-small' })).length === 0, 'VS Code to stop offering the small model');
    const request = { model: SMALL, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    await assert.rejects(client.complete(request, { signal: new AbortController().signal }), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.equal(e.kind, 'config');
      assert.match(e.message, /VS Code offers no language model sprout-test\/scripted-small.*Sprout: Select Model/);
      return true;
    });
    await assert.rejects(client.complete({ ...request, model: 'gpt-4o' }, { signal: new AbortController().signal }), /expected vendor\/id/);
  });

  it("cancel: the prompt's signal cancels the request's token, the provider sees it, the history stays valid", async () => {
    const { session } = await open(LARGE, hookServerConfig());
    provider.script([{ kind: 'hang', text: 'Working on it' }, { kind: 'text', text: 'Second prompt answered.' }]);
    const abort = new AbortController();
    const deltas: string[] = [];
    session.subscribe((e) => e.type === 'text_delta' && deltas.push(e.delta));
    const running = session.run('Take your time.', abort.signal);
    await until(() => deltas.join('') === 'Working on it', 'the first text of the hanging reply');
    abort.abort();
    const outcome = await running;
    assert.equal(outcome.reason, 'cancelled');
    await until(() => provider.requests[0]?.cancelled === true, 'the provider to see the cancellation');
    const next = await session.run('Again, quickly.', new AbortController().signal);
    assert.equal(next.reason, 'end_turn', next.message);
    assert.equal(provider.requests.length, 2);
  });

  it("a prompt's image reaches the model as a LanguageModelDataPart, a tool's after the tool results", async () => {
    const shot = { mimeType: 'image/png', data: TINY_PNG, name: 'shot.png', width: 1, height: 1 };
    const request = {
      model: LARGE,
      messages: [
        { role: 'user' as const, content: 'what is this?', images: [shot] },
        { role: 'assistant' as const, content: null, toolCalls: [{ id: 'c1', name: 'b__snap', arguments: '{}' }] },
        { role: 'tool' as const, toolCallId: 'c1', content: 'snapped', images: [{ ...shot, name: 'image 1 from b__snap' }] },
      ],
      tools: [],
    };
    await client.complete(request, { signal: new AbortController().signal });
    const bytes = Buffer.from(TINY_PNG, 'base64').length;
    assert.deepEqual(provider.requests[0]?.messages[0]?.parts, [{ kind: 'text', value: 'what is this?' }, { kind: 'data', mimeType: 'image/png', bytes }]);
    assert.deepEqual(lastUserParts(provider.requests[0]), [
      { kind: 'toolResult', callId: 'c1', text: 'snapped\n[The image follows after the tool results.]' },
      { kind: 'text', value: '[image: image 1 from b__snap, 1x1] returned by a tool above:' },
      { kind: 'data', mimeType: 'image/png', bytes },
    ]);
  });

  it('a model without vision refuses the image (Copilot\'s words): learned, said once, sent again with a note, and remembered', async () => {
    const memory = processAdaptationMemory();
    const learning = new LanguageModelClient({ models, memory });
    const adapted: AdaptationNote[] = [];
    const conversation = { id: 'lm-images' };
    const ask = (text: string) =>
      learning.complete(
        { model: TEXT_ONLY, messages: [{ role: 'user' as const, content: text, images: [{ mimeType: 'image/png', data: TINY_PNG, name: 'shot.png' }] }], tools: [] },
        { signal: new AbortController().signal, conversation, onAdapted: (note) => adapted.push(note) },
      );
    const reply = await ask('what is this?');
    assert.match(reply.content ?? '', /Scripted reply to: what is this\?\n\n\[image not sent: shot\.png \(this model does not take images\)\]/);
    assert.equal(provider.requests.length, 2, 'refused once, then answered');
    assert.deepEqual(adapted.map((a) => [a.endpoint, a.model, a.learnedFrom, a.change]), [['VS Code', TEXT_ONLY, 'rejection', 'sending images as a note in the text (this model does not take images)']]);
    assert.match(adapted[0]?.said ?? '', /not supported for vision/);
    await ask('and this?');
    assert.equal(provider.requests.length, 3, 'no refusal the second time');
    assert.equal(adapted.length, 1, 'said once');
    assert.deepEqual(memory.recall('vscode', TEXT_ONLY), ['no-images']);
  });

  it("compaction starts from the model's maxInputTokens and its own token count", async () => {
    const model = await models.resolve(SMALL);
    // The window is the model's input limit; the small model's tokenizer counts two characters a
    // token, so only its count (not the core's four-characters guess) shows the request is too full.
    const { session, events } = await open(SMALL, hookServerConfig(), { contextWindowTokens: model.maxInputTokens });
    const prompt = `Read this and echo ok.\n${'lorem ipsum '.repeat(420)}`;
    provider.script([
      { kind: 'toolCalls', calls: [{ name: 'hooky__echo', input: { text: 'ok' } }] },
      { kind: 'text', text: 'Original task: read and echo. Done: echoed ok. Next: answer.' },
      { kind: 'text', text: 'Answered after the handoff.' },
    ]);
    const outcome = await session.run(prompt, new AbortController().signal);
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    const compaction = events.find((e) => e.type === 'compaction');
    assert.ok(compaction && compaction.type === 'compaction', `events: ${events.map((e) => e.type).join(', ')}`);
    assert.equal(compaction.trigger, 'auto');
    assert.equal(compaction.fallback, false);
    const summary = provider.requests[1];
    assert.deepEqual(summary?.tools, [], 'the summary call offers no tools');
    assert.match(JSON.stringify(summary?.messages), /Summarise the conversation/);
    const usage = events.find((e) => e.type === 'usage');
    assert.ok(usage && usage.type === 'usage' && usage.usage.promptTokens > 0.8 * model.maxInputTokens, JSON.stringify(usage));
    assert.equal(provider.requests.length, 3);
  });
});
