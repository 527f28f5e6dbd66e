// Where the editor install, the `npm run start` profile and the sample workspace live: the user's
// cache folder (XDG_CACHE_HOME or ~/.cache), never the checkout, with SPROUT_EDITOR_CACHE and
// SPROUT_EDITOR_PROFILE as overrides (the shared install other checkouts point at keeps working).
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { editorCacheDir, sproutCacheDir } from '../../../scripts/ensureCodeServer';
import { nextSteps, profileDir, sampleWorkspaceDir } from '../../../scripts/firstRun';

describe('editor paths', () => {
  it('default to ~/.cache/sprout-agent, or $XDG_CACHE_HOME/sprout-agent', () => {
    assert.equal(sproutCacheDir({}), join(homedir(), '.cache', 'sprout-agent'));
    assert.equal(sproutCacheDir({ XDG_CACHE_HOME: '/var/cache/me' }), '/var/cache/me/sprout-agent');
    assert.equal(sproutCacheDir({ XDG_CACHE_HOME: ' ' }), join(homedir(), '.cache', 'sprout-agent'), 'a blank value counts as unset');
    assert.equal(editorCacheDir({ XDG_CACHE_HOME: '/c' }), '/c/sprout-agent/editor');
    assert.equal(profileDir({ XDG_CACHE_HOME: '/c' }), '/c/sprout-agent/code-server-profile');
    assert.equal(sampleWorkspaceDir({ XDG_CACHE_HOME: '/c' }), '/c/sprout-agent/sample-workspace');
  });

  it('SPROUT_EDITOR_CACHE and SPROUT_EDITOR_PROFILE override them', () => {
    assert.equal(editorCacheDir({ SPROUT_EDITOR_CACHE: '/srv/shared/editor', XDG_CACHE_HOME: '/c' }), '/srv/shared/editor');
    assert.equal(profileDir({ SPROUT_EDITOR_PROFILE: '/p', XDG_CACHE_HOME: '/c' }), '/p');
  });

  it('the next steps name the URL, trust, the Sprout icon and how to connect a model', () => {
    const text = nextSteps({ url: 'http://127.0.0.1:8080/?folder=x', folder: '/tmp/ws', isSample: false, profile: '/tmp/p' });
    for (const part of ['http://127.0.0.1:8080/?folder=x', 'Yes, I trust the authors', 'Sprout icon', 'Sprout: Set API Key', 'sprout.model.baseUrl', 'Ctrl+C']) {
      assert.ok(text.includes(part), part);
    }
    assert.ok(!text.includes('failing test'), 'the sample-only step is left out for a folder of your own');
  });
});
