// Discovery of other agents' hook files as both hosts do it (real files in a temporary folder, read
// through the hosts' own Node port): which files a format has, a file read strictly with its text,
// a file that cannot be read named as such, and the consent's lines naming every command.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { agentFormat } from '../../../src/agentHooks/agentFormats';
import { HookConfigError } from '../../../src/agentHooks/hookConfig';
import { allowSources, commandLines, hookFilesOf, HookFileUnreadable, readHookFile } from '../../../src/agentHooks/hookFiles';
import { nodeTextFiles } from '../../../src/platform/textFiles';

const root = mkdtempSync(join(tmpdir(), 'sprout-hook-files-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, content: unknown): void {
  mkdirSync(join(root, relative, '..'), { recursive: true });
  writeFileSync(join(root, relative), typeof content === 'string' ? content : JSON.stringify(content));
}

test('finds each format\'s files: the listed ones that exist, every *.json of Copilot\'s hooks folder', () => {
  write('.claude/settings.json', { hooks: {} });
  write('.github/hooks/b.json', { version: 1, hooks: {} });
  write('.github/hooks/a.json', { version: 1, hooks: {} });
  write('.github/hooks/notes.txt', 'not a hook file');
  assert.deepEqual(hookFilesOf(agentFormat('claude'), root, 'workspace', nodeTextFiles), ['.claude/settings.json']);
  assert.deepEqual(hookFilesOf(agentFormat('copilot'), root, 'workspace', nodeTextFiles), ['.github/hooks/a.json', '.github/hooks/b.json']);
  assert.deepEqual(hookFilesOf(agentFormat('codex'), root, 'workspace', nodeTextFiles), []);
  assert.deepEqual(hookFilesOf(agentFormat('copilot'), root, 'user', nodeTextFiles), [], 'no ~/.copilot/hooks folder');
});

test('reads a file strictly into a source with its exact text, and names every command for the consent', () => {
  const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npm test' }] }], PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 5 }] }] } };
  write('.claude/settings.json', settings);
  const read = readHookFile(agentFormat('claude'), root, '.claude/settings.json', 'user', nodeTextFiles);
  assert.equal(read.file, '~/.claude/settings.json');
  assert.equal(read.text, JSON.stringify(settings));
  assert.equal(read.source?.name, 'user-claude-settings');
  assert.deepEqual(read.source && commandLines(read.source), ['Stop: npm test', 'PreToolUse (Bash): ./guard.sh']);
  assert.deepEqual(allowSources({ kind: 'names', names: ['tests'] }, read.source ? [read.source] : []), { kind: 'names', names: ['tests', 'user-claude-settings'] });
  assert.deepEqual(allowSources({ kind: 'all' }, read.source ? [read.source] : []), { kind: 'all' });
});

test('a file that cannot be read, or is not its agent\'s shape, is an error naming it', () => {
  write('.codex/hooks.json', '{ "hooks": ');
  assert.throws(() => readHookFile(agentFormat('codex'), root, '.codex/hooks.json', 'workspace', nodeTextFiles), (e: unknown) => e instanceof HookConfigError && !(e instanceof HookFileUnreadable) && /^\.codex\/hooks\.json is not valid JSON/.test(e.message));
  mkdirSync(join(root, '.cursor', 'hooks.json'), { recursive: true });
  assert.throws(() => readHookFile(agentFormat('cursor'), root, '.cursor/hooks.json', 'workspace', nodeTextFiles), (e: unknown) => e instanceof HookFileUnreadable && /^\.cursor\/hooks\.json: cannot be read \(/.test(e.message));
});
