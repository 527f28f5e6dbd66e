// The model picker's entries: VS Code's models grouped with vendor and family, the endpoint's models
// grouped under its URL, a way to type a name (with the reason when the endpoint lists nothing), the
// model in use marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LmModelInfo } from '../../../src/extension/modelSources/lmMapping';
import { modelPickerEntries, TYPE_NAME_LABEL, VSCODE_HEADING } from '../../../src/extension/modelSources/modelChoices';

const models: LmModelInfo[] = [
  { ref: 'copilot/gpt-4o', id: 'gpt-4o', vendor: 'copilot', family: 'gpt-4o', name: 'GPT-4o', version: '1', maxInputTokens: 64_000 },
  { ref: 'ollama/llama3', id: 'llama3', vendor: 'ollama', family: 'llama', name: 'Llama 3', version: '3', maxInputTokens: 8_192 },
];

test('both sources, each under its heading, with vendor, family and input limit', () => {
  const entries = modelPickerEntries({
    vscodeModels: models,
    endpoint: { baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama3', 'qwen'] },
    current: { source: 'vscode', name: 'ollama/llama3' },
  });
  assert.deepEqual(
    entries.map((e) => (e.separator ? `# ${e.label}` : e.label)),
    [`# ${VSCODE_HEADING}`, 'GPT-4o', 'Llama 3', '# OpenAI-compatible endpoint · http://127.0.0.1:11434/v1', 'llama3', 'qwen', TYPE_NAME_LABEL],
  );
  assert.equal(entries[1]?.description, 'copilot · gpt-4o');
  assert.equal(entries[1]?.detail, 'copilot/gpt-4o · 64,000 input tokens');
  assert.equal(entries[2]?.description, 'ollama · llama · in use');
  assert.equal(entries[4]?.description, undefined, 'the same id at the endpoint is another model');
  assert.deepEqual(entries[2]?.choice, { source: 'vscode', ref: 'ollama/llama3' });
  assert.deepEqual(entries[5]?.choice, { source: 'openai', name: 'qwen' });
});

test('an endpoint that cannot list its models offers typing a name, saying why', () => {
  const entries = modelPickerEntries({ vscodeModels: [], endpoint: { baseUrl: 'https://api.openai.com/v1', error: 'the API key was rejected (HTTP 401)' }, current: { source: 'openai', name: '' } });
  assert.deepEqual(entries.map((e) => e.label), ['OpenAI-compatible endpoint · https://api.openai.com/v1', TYPE_NAME_LABEL]);
  assert.match(entries[1]?.detail ?? '', /Could not list the endpoint's models: the API key was rejected/);
  assert.deepEqual(entries[1]?.choice, { source: 'openai', typeName: true });
});

test('only VS Code models when the endpoint is left out (the setup card asked for them)', () => {
  const entries = modelPickerEntries({ vscodeModels: models, current: { source: 'openai', name: 'gpt-4o' } });
  assert.equal(entries.filter((e) => e.separator).length, 1);
  assert.ok(entries.every((e) => e.separator || e.choice?.source === 'vscode'));
  assert.ok(!entries.some((e) => e.description?.includes('in use')), 'an endpoint model of the same id is not this one');
});
