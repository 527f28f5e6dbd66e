/**
 * The dialect layer's rules: which family a base URL gets, the setting's values, the rules each
 * forced value applies up front, and how an endpoint's lessons are kept per endpoint and model:
 * each rejection teaches its transformation once, a lesson is remembered and recalled by the next
 * session, never reaches another model or endpoint, and is never undone back and forth.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../../src/agent/settings';
import { processAdaptationMemory } from '../../../src/model/adaptationMemory';
import { detectDialect, dialectRules, parseCompatibility, type Compatibility } from '../../../src/model/dialect';
import { EndpointDialect } from '../../../src/model/endpointDialect';

const LOCAL = 'http://127.0.0.1:8000/v1';
const dialect = (compatibility: Compatibility = 'auto', url = LOCAL, memory = processAdaptationMemory()) => new EndpointDialect(compatibility, new URL(url), memory, url);

test('auto picks the family by host, Ollama and LM Studio by their ports, anything else is generic', () => {
  const cases: Array<[string, string]> = [
    ['https://api.openai.com/v1', 'openai'],
    ['https://my-res.openai.azure.com/openai/deployments/gpt?api-version=2024-02-01', 'azure'],
    ['https://x.cognitiveservices.azure.com/openai', 'azure'],
    ['https://gateway.azure-api.net/openai/deployments/gpt', 'azure'],
    ['https://api.mistral.ai/v1', 'mistral'],
    ['https://codestral.mistral.ai/v1', 'mistral'],
    ['https://api.deepseek.com', 'deepseek'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'gemini'],
    ['https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/openapi', 'gemini'],
    ['http://127.0.0.1:11434/v1', 'ollama'],
    ['http://localhost:1234/v1', 'lmstudio'],
    ['https://openrouter.ai/api/v1', 'generic'],
    ['https://api.groq.com/openai/v1', 'generic'],
  ];
  for (const [url, family] of cases) assert.equal(detectDialect(new URL(url)), family, url);
  assert.equal(dialect('mistral').rules('m').name, 'mistral', 'the setting wins over the host');
});

test('the setting takes the listed values (any case) and names itself and the values on a bad one', () => {
  assert.equal(parseCompatibility(' DeepSeek '), 'deepseek');
  assert.equal(parseCompatibility('Gemma'), 'gemma');
  assert.throws(
    () => parseCompatibility('claude', 'SPROUT_AGENT_MODEL_COMPAT'),
    (e: unknown) => e instanceof ConfigError && e.setting === 'SPROUT_AGENT_MODEL_COMPAT' && /auto, openai, azure, mistral, deepseek, gemini, ollama, lmstudio, gemma, generic/.test(e.message),
  );
});

test('a forced value applies its family\'s transformations up front', () => {
  const openai = dialectRules('openai');
  assert.deepEqual([openai.streamUsage, openai.idPolicy, openai.echoReasoning, openai.echoProviderData, openai.instructions, openai.toolTurnContent, openai.toolSchemas], [true, 'openai', undefined, false, 'system', 'null', 'full']);
  assert.deepEqual([dialectRules('mistral').streamUsage, dialectRules('mistral').idPolicy], [false, 'mistral']);
  assert.equal(dialectRules('deepseek').echoReasoning, 'reasoning_content');
  assert.deepEqual([dialectRules('gemini').echoProviderData, dialectRules('gemini').toolSchemas, dialectRules('gemini').toolTurnContent], [true, 'reduced', 'null']);
  assert.equal(dialectRules('ollama').toolTurnContent, 'empty');
  assert.equal(dialectRules('lmstudio').toolTurnContent, 'empty');
  assert.equal(dialectRules('gemma').instructions, 'first_user');
  assert.equal(dialectRules('generic').learnFromReplies, true);
  assert.equal(openai.learnFromReplies, false);
});

const MISTRAL_422 =
  '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true}]},"type":"invalid_request_error","param":null,"code":null}';

test('each rejection teaches its transformation once; one that names none, or one already followed, teaches nothing', () => {
  const d = dialect();
  assert.equal(d.adaptTo('m', { status: 500, text: 'stream_options' }), undefined, 'only a 400 or 422 is about stream_options');
  assert.equal(d.adaptTo('m', { status: 422, text: MISTRAL_422 }), 'no-stream-options');
  assert.equal(d.rules('m').streamUsage, false);
  assert.equal(d.adaptTo('m', { status: 422, text: MISTRAL_422 }), undefined, 'not learned twice');
  assert.equal(d.adaptTo('m', { status: 400, text: 'Tool call id was sprout_hook__Stop_x_1 but must be a-z, A-Z, 0-9, with a length of 9.' }), 'mistral-tool-call-ids');
  assert.equal(d.adaptTo('m', { status: 400, text: 'Missing `reasoning_content` field in the assistant message at message index 2.' }), 'send-reasoning-content');
  assert.equal(d.adaptTo('m', { status: 400, text: 'Function call is missing a thought_signature in functionCall parts.' }), 'send-thought-signatures');
  assert.equal(d.adaptTo('m', { status: 500, text: 'System role not supported' }), 'instructions-as-user', 'SGLang answers a template error with 500');
  assert.equal(d.adaptTo('m', { status: 400, text: "Invalid 'messages[1].content'" }), undefined);
  assert.deepEqual(
    [d.rules('m').idPolicy, d.rules('m').echoReasoning, d.rules('m').echoProviderData, d.rules('m').instructions],
    ['mistral', 'reasoning_content', true, 'first_user'],
  );
});

test('what an endpoint taught is remembered for that endpoint and model only, and recalled by the next session', () => {
  const memory = processAdaptationMemory();
  const first = dialect('auto', LOCAL, memory);
  assert.equal(first.adaptTo('gemma-2', { status: 400, text: 'System role not supported' }), 'instructions-as-user');
  assert.equal(first.rules('llama-3').instructions, 'system', 'another model at the same endpoint is not affected');
  const next = dialect('auto', LOCAL, memory);
  assert.equal(next.rules('gemma-2').instructions, 'first_user', 'the next session starts with the lesson');
  assert.deepEqual(next.recalled('gemma-2'), ['instructions-as-user']);
  assert.equal(dialect('auto', 'http://127.0.0.1:9000/v1', memory).rules('gemma-2').instructions, 'system', 'another endpoint is not affected');
  assert.deepEqual(next.recalled('llama-3'), []);
});

test('an endpoint that refuses the provider fields turns them off, and neither a reply nor a rejection turns them back on', () => {
  const deepseek = dialect('deepseek');
  const refused = '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","messages",2,"assistant","reasoning_content"],"msg":"Extra inputs are not permitted"}]}}';
  assert.equal(deepseek.adaptTo('m', { status: 422, text: refused }), 'no-reasoning-field');
  assert.equal(deepseek.rules('m').echoReasoning, undefined);
  assert.equal(deepseek.adaptTo('m', { status: 400, text: 'Missing `reasoning_content` field in the assistant message at message index 2.' }), undefined, 'no back and forth');
  const cerebras = dialect('generic');
  cerebras.noteReply('m', { reasoningField: 'reasoning', hadToolCalls: true, hadProviderData: false });
  assert.equal(cerebras.rules('m').echoReasoning, 'reasoning');
  const said = "messages.2.assistant.reasoning: property 'messages.2.assistant.reasoning' is unsupported";
  assert.equal(cerebras.adaptTo('m', { status: 400, code: 'wrong_api_format', text: said }), 'no-reasoning-field');
  assert.deepEqual(cerebras.noteReply('m', { reasoningField: 'reasoning', hadToolCalls: true, hadProviderData: false }), [], 'a reply does not teach it again');
  const azure = dialect('auto', 'https://r.openai.azure.com/openai/deployments/d?api-version=2023-05-15');
  assert.equal(azure.adaptTo('m', { status: 400, text: 'Unrecognized request argument supplied: stream_options' }), 'no-stream-options');
});

test('"" and null for a tool-only turn: whichever the endpoint asks for, learned once, never flipped back', () => {
  const ollama = dialect('auto', 'http://127.0.0.1:11434/v1');
  assert.equal(ollama.rules('m').toolTurnContent, 'empty', 'Ollama gets "" up front');
  assert.equal(ollama.adaptTo('m', { status: 400, text: 'Unable to submit request because it has an empty text parameter.' }), 'tool-turn-null');
  assert.equal(ollama.rules('m').toolTurnContent, 'null');
  assert.equal(ollama.adaptTo('m', { status: 400, text: 'invalid message content type: <nil>' }), undefined, 'not flipped back');
  const generic = dialect();
  assert.equal(generic.adaptTo('m', { status: 400, text: "Invalid 'content': 'content' field must be a string or an array of objects." }), 'tool-turn-empty-string');
});

test('an unknown server teaches by its replies: provider fields that came with tool calls are sent back from then on', () => {
  const generic = dialect();
  const before = generic.rules('m');
  assert.deepEqual(generic.noteReply('m', { reasoningField: 'reasoning', hadToolCalls: false, hadProviderData: true }), []);
  assert.equal(generic.rules('m'), before, 'without tool calls nothing is learned');
  assert.deepEqual(generic.noteReply('m', { reasoningField: 'reasoning', hadToolCalls: true, hadProviderData: true }), ['send-reasoning', 'send-thought-signatures']);
  assert.deepEqual([generic.rules('m').echoReasoning, generic.rules('m').echoProviderData], ['reasoning', true]);
  assert.notEqual(generic.rules('m'), before, 'a new rules object, so the wire cache is dropped');
  const openai = dialect('openai');
  openai.noteReply('m', { reasoningField: 'reasoning_content', hadToolCalls: true, hadProviderData: true });
  assert.deepEqual([openai.rules('m').echoReasoning, openai.rules('m').echoProviderData], [undefined, false], 'a forced family only learns from rejections');
});
