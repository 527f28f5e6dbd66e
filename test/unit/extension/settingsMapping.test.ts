import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapSettings, type SettingKey } from '../../../src/extension/settings/settingsMapping';

const from = (values: Partial<Record<SettingKey, unknown>>) => mapSettings((key) => values[key]);

test('every setting reaches the core settings', () => {
  const s = from({
    'sprout.model.name': ' gpt-test ',
    'sprout.model.baseUrl': 'http://127.0.0.1:9999/v1',
    'sprout.model.contextWindowTokens': 32000,
    'sprout.model.compatibility': 'mistral',
    'sprout.agent.maxRounds': 7,
    'sprout.hooks.servers': ['tests', ' ', 'lint'],
    'sprout.hooks.timeoutMs': 900,
    'sprout.hooks.stopMaxRejections': 0,
    'sprout.hooks.stopBudgetScope': 'prompt',
    'sprout.hooks.repeatedEndTurnStops': false,
    'sprout.hooks.preToolUseMaxDenials': 0,
    'sprout.mcp.servers': { x: { command: 'node' } },
    'sprout.mcp.builtinServers': { tests: true },
    'sprout.tools.autoApprove': ['workspace__write_file'],
  });
  assert.deepEqual(s.errors, []);
  assert.equal(s.agent.model, 'gpt-test');
  assert.equal(s.baseUrl, 'http://127.0.0.1:9999/v1');
  assert.equal(s.agent.contextWindowTokens, 32000);
  assert.equal(s.compatibility, 'mistral');
  assert.equal(s.agent.maxRounds, 7);
  assert.deepEqual(s.agent.hooks, {
    allowlist: { kind: 'names', names: ['tests', 'lint'] },
    timeoutMs: 900,
    stopMaxRejections: 0,
    stopBudgetScope: 'prompt',
    repeatedEndTurnStops: false,
    preToolUseMaxDenials: 0,
  });
  assert.deepEqual(s.mcpServers, { x: { command: 'node' } });
  assert.deepEqual(s.builtinServers, { workspace: true, todo: true, tests: true });
  assert.deepEqual(s.autoApprove, ['workspace__write_file']);
});

test('a sole "*" allows every server', () => {
  assert.deepEqual(from({ 'sprout.hooks.servers': ['*'] }).agent.hooks.allowlist, { kind: 'all' });
});

test('"*" mixed with names is an error naming the setting, and hooks stay off', () => {
  const s = from({ 'sprout.hooks.servers': ['*', 'tests'] });
  assert.equal(s.errors.length, 1);
  assert.equal(s.errors[0]?.setting, 'sprout.hooks.servers');
  assert.match(s.errors[0]?.message ?? '', /cannot be mixed/);
  assert.deepEqual(s.agent.hooks.allowlist, { kind: 'names', names: [] });
});

test('bad values become errors and fall back to defaults', () => {
  const s = from({
    'sprout.hooks.timeoutMs': 0,
    'sprout.hooks.stopBudgetScope': 'forever',
    'sprout.model.baseUrl': 'ftp://x',
    'sprout.mcp.builtinServers': { bogus: true },
    'sprout.tools.autoApprove': 'all',
    'sprout.model.compatibility': 'claude',
  });
  assert.deepEqual(s.errors.map((e) => e.setting).sort(), [
    'sprout.hooks.stopBudgetScope',
    'sprout.hooks.timeoutMs',
    'sprout.mcp.builtinServers',
    'sprout.model.baseUrl',
    'sprout.model.compatibility',
    'sprout.tools.autoApprove',
  ]);
  assert.equal(s.agent.hooks.timeoutMs, 2500);
  assert.equal(s.agent.hooks.stopBudgetScope, 'session');
  assert.equal(s.baseUrl, 'https://api.openai.com/v1');
  assert.equal(s.compatibility, 'auto');
  assert.match(s.errors.find((e) => e.setting === 'sprout.model.compatibility')?.message ?? '', /expected one of auto, openai, azure, mistral, deepseek, gemini, ollama, lmstudio, gemma, generic, got "claude"/);
});

test('sprout.model.provider is auto, openai or vscode; anything else is an error and auto stands', () => {
  assert.equal(from({}).provider, 'auto');
  assert.equal(from({ 'sprout.model.provider': 'vscode' }).provider, 'vscode');
  const bad = from({ 'sprout.model.provider': 'copilot' });
  assert.equal(bad.provider, 'auto');
  assert.equal(bad.errors[0]?.setting, 'sprout.model.provider');
  assert.match(bad.errors[0]?.message ?? '', /expected "auto", "openai", "vscode", got "copilot"/);
});

test('whether the base URL was configured comes from the probe, not from its value', () => {
  assert.equal(from({ 'sprout.model.baseUrl': 'https://api.openai.com/v1' }).baseUrlConfigured, false);
  assert.equal(mapSettings(() => undefined, (key) => key === 'sprout.model.baseUrl').baseUrlConfigured, true);
});

test('sprout.agentHooks.formats: every format by default, an unknown one reported and left out', () => {
  assert.deepEqual(from({}).agentHookFormats, ['claude', 'codex', 'gemini', 'copilot', 'cursor']);
  assert.deepEqual(from({ 'sprout.agentHooks.formats': [] }).agentHookFormats, []);
  const s = from({ 'sprout.agentHooks.formats': ['claude', 'vim', 'claude'] });
  assert.deepEqual(s.agentHookFormats, ['claude']);
  assert.deepEqual(s.errors.map((e) => [e.setting, e.message]), [['sprout.agentHooks.formats', 'sprout.agentHooks.formats: unknown agent format "vim"; use "claude", "codex", "gemini", "copilot", "cursor".']]);
});

test('sprout.instructions.sources: every format by default, an unknown one reported and left out', () => {
  assert.deepEqual(from({}).instructionSources, ['agents', 'claude', 'gemini', 'copilot', 'cursor', 'cline', 'user']);
  assert.deepEqual(from({ 'sprout.instructions.sources': ['agents'] }).instructionSources, ['agents']);
  assert.deepEqual(from({ 'sprout.instructions.sources': [] }).instructionSources, []);
  const s = from({ 'sprout.instructions.sources': ['agents', 'vim'] });
  assert.deepEqual(s.instructionSources, ['agents']);
  assert.match(s.errors[0]?.message ?? '', /^sprout\.instructions\.sources: unknown instruction source "vim"; use a comma list of agents, claude/);
});
