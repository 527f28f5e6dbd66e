// docs/hooks.md is the product's hook contract, so it must not drift from the code: every hook has a
// section whose `_meta` fields are exactly the ones a run sends (as `hooks check` builds them, which
// the loop and CLI tests compare with real calls), and every hook setting is documented with its default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOOK_NAMES } from '../../../src/agent/events';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import { DEFAULT_SAMPLE_CALL, sampleFields } from '../../../src/cli/hooksCheckReport';
import { SETTING_DEFAULTS } from '../../../src/extension/settings/settingsMapping';

const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'hooks.md'), 'utf8');

test('every hook has a section listing exactly the _meta fields a run sends', () => {
  for (const hook of HOOK_NAMES) {
    const section = new RegExp(`### \`${hook}\`\\n\\n\`_meta\` fields: ([^\\n]+)`).exec(doc);
    assert.ok(section, `docs/hooks.md has a section for ${hook}`);
    const listed = (section[1] ?? '').split(', ').map((f) => f.replace(/`/g, ''));
    assert.deepEqual(listed, Object.keys(sampleFields(hook, DEFAULT_SAMPLE_CALL, DEFAULT_SETTINGS.hooks)), hook);
  }
});

test('every hook setting appears with its default', () => {
  for (const [key, value] of Object.entries(SETTING_DEFAULTS).filter(([k]) => k.startsWith('sprout.hooks.') && k !== 'sprout.hooks.servers')) {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${key}\``));
    assert.ok(row, `${key} is in the settings table`);
    assert.equal(row.split('|')[3]?.trim().replace(/`/g, ''), String(value), `${key} default`);
  }
});
