import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minimalEnv } from '../../../src/mcp/minimalEnv';

describe('minimalEnv', () => {
  const parent = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    TMPDIR: '/tmp',
    OPENAI_API_KEY: 'sk-secret',
    AWS_SECRET_ACCESS_KEY: 'aws',
    GITHUB_TOKEN: 'gh',
    NODE_OPTIONS: '--require evil',
    BASH_FUNC_x: '() { evil; }',
  };

  it('passes only the allowlist, plus configured env', () => {
    assert.deepEqual(minimalEnv(parent, { MY_SETTING: '1' }, 'linux'), {
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TMPDIR: '/tmp',
      MY_SETTING: '1',
    });
  });

  it('lets configured env override the parent and add keys the user chose to pass', () => {
    const env = minimalEnv(parent, { PATH: '/opt/bin', GITHUB_TOKEN: 'explicit' }, 'linux');
    assert.equal(env.PATH, '/opt/bin');
    assert.equal(env.GITHUB_TOKEN, 'explicit');
    assert.equal(env.OPENAI_API_KEY, undefined);
  });

  it('matches Windows names case-insensitively there only', () => {
    const winParent = { Path: 'C:\\bin', SYSTEMROOT: 'C:\\Windows', OPENAI_API_KEY: 'sk' };
    assert.deepEqual(minimalEnv(winParent, {}, 'win32'), { Path: 'C:\\bin', SYSTEMROOT: 'C:\\Windows' });
    assert.deepEqual(minimalEnv(winParent, {}, 'linux'), {});
  });
});
