// Reading tool-set files (src/runtime/toolSetFiles.ts) in VS Code's format
// (https://code.visualstudio.com/docs/agent-customization/tool-sets) from the user's prompts folder,
// where VS Code keeps them as *.toolsets.jsonc (the profile's promptsHome), and the workspace's
// .vscode: the workspace's set wins a clash; a file that cannot be used is a note with file:line.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readToolSets } from '../../../src/runtime/toolSetFiles';

const root = mkdtempSync(join(tmpdir(), 'sprout-toolsets-'));
after(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>): string {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
  return path;
}

describe('readToolSets', () => {
  const workspace = folder('ws', {});
  folder('ws/.vscode', { 'team.toolsets.jsonc': '{\n  // the team\'s\n  "reader": { "tools": ["workspace/read_file"] },\n}\n' });
  const user = folder('user', {
    'mine.toolsets.jsonc': '{\n  "reader": { "tools": ["todo/todo"] },\n  /* a comment\n     over lines */\n  "writer": { "tools": ["workspace/write_file"], "description": "Write" },\n  "odd": { "tools": "x" }\n}\n',
    'broken.toolsets.jsonc': '{\n  /* one\n     two */\n  "a": { "tools": [] }\n  "b": { "tools": [] }\n}\n',
    'other.json': '{ "ignored": { "tools": ["x"] } }',
  });

  it('reads the user\'s sets; the workspace\'s set of the same name replaces the user\'s', () => {
    const { sets } = readToolSets(workspace, { path: user, shown: 'User/prompts' });
    assert.deepEqual(sets.map((s) => [s.name, s.tools, s.file]), [
      ['reader', ['workspace/read_file'], '.vscode/team.toolsets.jsonc'],
      ['writer', ['workspace/write_file'], 'User/prompts/mine.toolsets.jsonc'],
    ]);
  });

  it('without the workspace (not trusted), the user\'s sets alone', () => {
    const { sets } = readToolSets(undefined, { path: user, shown: 'User/prompts' });
    assert.deepEqual(sets.map((s) => [s.name, s.tools]), [['reader', ['todo/todo']], ['writer', ['workspace/write_file']]]);
  });

  it('names a file that cannot be parsed and a set without tools with file:line (after multi-line comments)', () => {
    const { notes } = readToolSets(undefined, { path: user, shown: 'User/prompts' });
    assert.equal(notes.length, 2, notes.join('\n'));
    assert.match(notes[0] ?? '', /^User\/prompts\/broken\.toolsets\.jsonc:5: could not be read \(.+\); its tool sets are ignored\.$/);
    assert.match(notes[1] ?? '', /^User\/prompts\/mine\.toolsets\.jsonc:6: tool set "odd" needs "tools"/);
  });

  it('a folder that does not exist is no sets and no note', () => {
    assert.deepEqual(readToolSets(join(root, 'none'), { path: join(root, 'nope'), shown: 'User/prompts' }), { sets: [], notes: [] });
  });
});
