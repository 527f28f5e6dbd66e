// Which model source serves the chats (`sprout.model.provider`, default `auto`) and what the setup
// card offers: the endpoint once the user configured one, VS Code's models when nothing is configured
// and VS Code has one, and the card's buttons for each case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LmModelInfo } from '../../../src/extension/modelSources/lmMapping';
import { modelInUse, resolveModelSource, setupAdvice, type SetupFacts } from '../../../src/extension/modelSources/modelSource';

const gpt: LmModelInfo = { ref: 'copilot/gpt-4o', id: 'gpt-4o', vendor: 'copilot', family: 'gpt-4o', name: 'GPT-4o', version: '1', maxInputTokens: 64_000 };
const none: SetupFacts = { provider: 'auto', baseUrlConfigured: false, hasApiKey: false, vscodeModels: [], model: '', baseUrl: 'https://api.openai.com/v1' };

test('auto: an endpoint once a base URL or a key is configured, else a VS Code model if there is one, else the endpoint', () => {
  assert.equal(resolveModelSource({ ...none, vscodeModels: [gpt] }), 'vscode');
  assert.equal(resolveModelSource({ ...none, vscodeModels: [gpt], baseUrlConfigured: true }), 'openai');
  assert.equal(resolveModelSource({ ...none, vscodeModels: [gpt], hasApiKey: true }), 'openai');
  assert.equal(resolveModelSource(none), 'openai');
  assert.equal(resolveModelSource({ ...none, vscodeModels: undefined }), 'openai', 'before the first listing');
});

test('an explicit provider stands whatever is configured or offered', () => {
  assert.equal(resolveModelSource({ ...none, provider: 'vscode' }), 'vscode');
  assert.equal(resolveModelSource({ ...none, provider: 'openai', vscodeModels: [gpt] }), 'openai');
});

test('nothing configured and no VS Code model: the card asks for a key or a local endpoint, as before', () => {
  assert.deepEqual(setupAdvice(none), {
    reason: 'Sprout needs an API key for api.openai.com, or the URL of a local OpenAI-compatible server.',
    needsKey: true,
    needsModel: true,
    vscodeModels: false,
  });
});

test('nothing configured and a VS Code model: the card offers it first, and the key and endpoint too', () => {
  const advice = setupAdvice({ ...none, vscodeModels: [gpt] });
  assert.equal(advice?.vscodeModels, true);
  assert.equal(advice?.needsModel, true);
  assert.equal(advice?.needsKey, true);
  assert.match(advice?.reason ?? '', /one already in VS Code/);
});

test('a VS Code model picked: no card; an endpoint model name left over is not taken for one', () => {
  assert.equal(setupAdvice({ ...none, vscodeModels: [gpt], model: 'copilot/gpt-4o' }), null);
  assert.equal(setupAdvice({ ...none, provider: 'vscode', vscodeModels: [], model: 'copilot/gpt-4o' }), null, 'a model that went away fails when tried, naming the picker');
  assert.equal(setupAdvice({ ...none, vscodeModels: [gpt], model: 'gpt-4o-mini' })?.needsModel, true);
});

test('the endpoint configured: the card only for what is missing, still offering VS Code models', () => {
  assert.equal(setupAdvice({ ...none, hasApiKey: true, model: 'gpt-4o-mini' }), null);
  assert.equal(setupAdvice({ ...none, baseUrlConfigured: true, baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3' }), null);
  const noModel = setupAdvice({ ...none, hasApiKey: true, vscodeModels: [gpt] });
  assert.deepEqual(noModel, { reason: 'Pick the model Sprout should use.', needsKey: false, needsModel: true, vscodeModels: true });
  const explicitNoKey = setupAdvice({ ...none, provider: 'openai', model: 'gpt-4o-mini', vscodeModels: [gpt] });
  assert.equal(explicitNoKey?.needsKey, true);
  assert.equal(explicitNoKey?.vscodeModels, true);
});

test('the model in use, as the composer shows it: a VS Code model by its name, vendor and family; an endpoint model with its host', () => {
  const listed = [gpt];
  assert.equal(modelInUse({ source: 'openai', name: '', baseUrl: 'https://api.openai.com/v1', vscodeModels: listed }), null, 'none chosen: the setup card asks');
  assert.deepEqual(modelInUse({ source: 'openai', name: 'qwen3:8b', baseUrl: 'http://localhost:11434/v1', vscodeModels: listed }), {
    label: 'qwen3:8b',
    source: 'openai',
    detail: 'qwen3:8b at localhost:11434',
  });
  assert.equal(modelInUse({ source: 'openai', name: 'm', baseUrl: 'not a url', vscodeModels: [] })?.detail, 'm at not a url');
  assert.deepEqual(modelInUse({ source: 'vscode', name: 'copilot/gpt-4o', baseUrl: '', vscodeModels: listed }), {
    label: 'GPT-4o',
    source: 'vscode',
    detail: 'GPT-4o (copilot, gpt-4o), a model in VS Code',
  });
  assert.equal(modelInUse({ source: 'vscode', name: 'copilot/gone', baseUrl: '', vscodeModels: listed })?.detail, 'copilot/gone, a model in VS Code (not offered right now)');
  assert.equal(modelInUse({ source: 'vscode', name: 'copilot/gpt-4o', baseUrl: '', vscodeModels: undefined })?.label, 'copilot/gpt-4o', 'before the first listing: the reference');
});
