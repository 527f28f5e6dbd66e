/**
 * The dialect layer's rules: which dialect a base URL gets, the setting's values, which rejection
 * teaches which rule (and never twice), and what an unknown server's replies teach.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../../src/agent/settings';
import { detectDialect, EndpointDialect, parseCompatibility } from '../../../src/model/dialect';

test('auto picks the dialect by host, Ollama by its port, anything else is generic', () => {
  const cases: Array<[string, string]> = [
    ['https://api.openai.com/v1', 'openai'],
    ['https://my-res.openai.azure.com/openai/deployments/gpt?api-version=2024-02-01', 'azure'],
    ['https://x.cognitiveservices.azure.com/openai', 'azure'],
    ['https://api.mistral.ai/v1', 'mistral'],
    ['https://codestral.mistral.ai/v1', 'mistral'],
    ['https://api.deepseek.com', 'deepseek'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'gemini'],
    ['https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/openapi', 'gemini'],
    ['http://127.0.0.1:11434/v1', 'ollama'],
    ['http://localhost:1234/v1', 'generic'],
    ['https://openrouter.ai/api/v1', 'generic'],
    ['https://api.groq.com/openai/v1', 'generic'],
  ];
  for (const [url, dialect] of cases) assert.equal(detectDialect(new URL(url)), dialect, url);
  assert.equal(new EndpointDialect('mistral', new URL('http://127.0.0.1:8000/v1')).rules.name, 'mistral', 'the setting wins over the host');
});

test('the setting takes the listed values (any case) and names itself and the values on a bad one', () => {
  assert.equal(parseCompatibility(' DeepSeek '), 'deepseek');
  assert.throws(() => parseCompatibility('claude', 'SPROUT_AGENT_MODEL_COMPAT'), (e: unknown) => e instanceof ConfigError && e.setting === 'SPROUT_AGENT_MODEL_COMPAT' && /auto, openai, azure, mistral, deepseek, gemini, ollama, generic/.test(e.message));
});

test('the default rules of each dialect', () => {
  const at = (c: 'openai' | 'mistral' | 'deepseek' | 'gemini' | 'generic') => new EndpointDialect(c, new URL('http://h/v1')).rules;
  assert.deepEqual([at('openai').streamUsage, at('openai').idPolicy, at('openai').echoReasoning, at('openai').echoProviderData], [true, 'openai', undefined, false]);
  assert.deepEqual([at('mistral').streamUsage, at('mistral').idPolicy], [false, 'mistral']);
  assert.equal(at('deepseek').echoReasoning, 'reasoning_content');
  assert.equal(at('gemini').echoProviderData, true);
  assert.equal(at('generic').learnFromReplies, true);
  assert.equal(at('openai').learnFromReplies, false);
});

const MISTRAL_422 =
  '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true}]},"type":"invalid_request_error","param":null,"code":null}';

test('each rejection teaches its rule once; a rejection that names no rule, or one already followed, teaches nothing', () => {
  const dialect = new EndpointDialect('auto', new URL('http://127.0.0.1:8000/v1'));
  assert.equal(dialect.adaptTo({ status: 500, text: 'stream_options' }), undefined, 'only a 400 or 422 is about the request');
  assert.match(dialect.adaptTo({ status: 422, text: MISTRAL_422 }) ?? '', /stream_options/);
  assert.equal(dialect.rules.streamUsage, false);
  assert.equal(dialect.adaptTo({ status: 422, text: MISTRAL_422 }), undefined, 'not learned twice');
  assert.match(dialect.adaptTo({ status: 400, text: 'Tool call id was sprout_hook__Stop_x_1 but must be a-z, A-Z, 0-9, with a length of 9.' }) ?? '', /Mistral/);
  assert.equal(dialect.rules.idPolicy, 'mistral');
  assert.match(dialect.adaptTo({ status: 400, text: 'Missing `reasoning_content` field in the assistant message at message index 2.' }) ?? '', /DeepSeek/);
  assert.equal(dialect.rules.echoReasoning, 'reasoning_content');
  assert.match(dialect.adaptTo({ status: 400, text: 'Function call is missing a thought_signature in functionCall parts.' }) ?? '', /Gemini/);
  assert.equal(dialect.rules.echoProviderData, true);
  assert.equal(dialect.adaptTo({ status: 400, text: "Invalid 'messages[1].content'" }), undefined);
});

test('an endpoint that refuses the provider fields turns them off again; Azure\'s stream_options 400 is recognised', () => {
  const deepseek = new EndpointDialect('deepseek', new URL('http://h/v1'));
  const refused = '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","messages",2,"assistant","reasoning_content"],"msg":"Extra inputs are not permitted"}]}}';
  assert.ok(deepseek.adaptTo({ status: 422, text: refused }));
  assert.equal(deepseek.rules.echoReasoning, undefined);
  const gemini = new EndpointDialect('gemini', new URL('http://h/v1'));
  assert.ok(gemini.adaptTo({ status: 400, text: 'Unknown field extra_content in tool_calls: not permitted' }));
  assert.equal(gemini.rules.echoProviderData, false);
  const azure = new EndpointDialect('auto', new URL('https://r.openai.azure.com/openai/deployments/d?api-version=2023-05-15'));
  assert.ok(azure.adaptTo({ status: 400, text: 'Unrecognized request argument supplied: stream_options' }));
  assert.equal(azure.rules.streamUsage, false);
});

test('an unknown server teaches by its replies: provider fields that came with tool calls are sent back from then on', () => {
  const generic = new EndpointDialect('auto', new URL('http://127.0.0.1:8000/v1'));
  const before = generic.rules;
  generic.noteReply({ reasoningField: 'reasoning', hadToolCalls: false, hadProviderData: true });
  assert.equal(generic.rules, before, 'without tool calls nothing is learned');
  generic.noteReply({ reasoningField: 'reasoning', hadToolCalls: true, hadProviderData: true });
  assert.deepEqual([generic.rules.echoReasoning, generic.rules.echoProviderData], ['reasoning', true]);
  assert.notEqual(generic.rules, before, 'a new rules object, so the wire cache is dropped');
  const openai = new EndpointDialect('openai', new URL('http://127.0.0.1:8000/v1'));
  openai.noteReply({ reasoningField: 'reasoning_content', hadToolCalls: true, hadProviderData: true });
  assert.deepEqual([openai.rules.echoReasoning, openai.rules.echoProviderData], [undefined, false], 'a forced dialect only learns from rejections');
});
