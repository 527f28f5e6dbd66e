// The manifest's contributed defaults are the public contract; the code's defaults must match them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_DEFAULTS, SETTING_KEYS, mapSettings } from '../../../src/extension/settings/settingsMapping';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default: unknown; description?: string; markdownDescription?: string }> } };
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
};
const props = pkg.contributes.configuration.properties;

test('every code default equals the package.json default, and no setting is left out', () => {
  assert.deepEqual(Object.keys(props).sort(), [...SETTING_KEYS].sort());
  for (const key of SETTING_KEYS) {
    assert.deepEqual(props[key]?.default, SETTING_DEFAULTS[key], key);
    assert.ok((props[key]?.description ?? props[key]?.markdownDescription ?? '').length > 20, `${key} has a description`);
  }
});

test('the package.json defaults map to the core DEFAULT_SETTINGS without errors', () => {
  const mapped = mapSettings((key) => props[key]?.default);
  assert.deepEqual(mapped.errors, []);
  assert.deepEqual(mapped.agent, DEFAULT_SETTINGS);
});

test('settings that can start processes or redirect the key are restricted in untrusted workspaces', () => {
  const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  for (const key of ['sprout.hooks.servers', 'sprout.mcp.servers', 'sprout.tools.autoApprove', 'sprout.model.baseUrl', 'sprout.model.provider']) assert.ok(restricted.includes(key), key);
});
