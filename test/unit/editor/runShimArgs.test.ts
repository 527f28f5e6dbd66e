// The VS Code executable shim must understand the arguments @vscode/test-electron really passes
// (flag=value pairs, profile flags with separate values, the folder first among the launch args).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseShimArgs } from '../../editor/runShim';

test('maps test-electron arguments to the runner', () => {
  const args = parseShimArgs([
    '/ws/folder',
    '--disable-extensions',
    '--no-sandbox',
    '--extensionTestsPath=/repo/out/editor/suite',
    '--extensionDevelopmentPath=/repo',
    '--user-data-dir',
    '/repo/.vscode-test/user-data',
    '--extensions-dir=/repo/.vscode-test/extensions',
  ]);
  assert.deepEqual(args, { folder: '/ws/folder', extensionTestsPath: '/repo/out/editor/suite', extensionDevelopmentPath: '/repo' });
});

test('a flag value given separately is not taken for the folder', () => {
  assert.deepEqual(parseShimArgs(['--user-data-dir', '/u', '--extensionDevelopmentPath', '/x', '--extensionTestsPath', '/t']), {
    extensionDevelopmentPath: '/x',
    extensionTestsPath: '/t',
  });
});
