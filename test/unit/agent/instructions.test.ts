// The pure decision of which instruction files apply (src/agent/instructions.ts): scoping as each agent
// scopes its files, imports, cycles, caps and notes. Glob matching is the hosts' (servers/common/glob.ts).
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { type InstructionFile, type InstructionSet, decideInstructions } from '../../../src/agent/instructions';
import { importReferences, resolveImport } from '../../../src/agent/instructionImports';
import { globMatcher } from '../../../src/servers/common/glob';

function file(path: string, text: string, extra: Partial<InstructionFile> = {}): InstructionFile {
  const format = extra.format ?? (path.endsWith('CLAUDE.md') ? 'claude' : path.endsWith('GEMINI.md') ? 'gemini' : 'agents');
  return { path, scope: 'workspace', format, text, sha256: `sha-${path}`, ...extra };
}

function set(files: InstructionFile[], imports: Record<string, string> = {}, notes: string[] = []): InstructionSet {
  return { files, imports: new Map(Object.entries(imports).map(([p, text]) => [p, { text, sha256: `sha-${p}` }])), notes, compileGlob: globMatcher };
}

test('root files apply always, a nested AGENTS.md only once work touches its folder, closest last', () => {
  const files = [file('AGENTS.md', 'use pnpm'), file('packages/app/AGENTS.md', 'app rules'), file('packages/app/src/AGENTS.md', 'src rules'), file('packages/api/AGENTS.md', 'api rules')];
  const before = decideInstructions(set(files), []);
  assert.deepEqual(before.applied.map((a) => a.path), ['AGENTS.md']);
  assert.match(before.text, /use pnpm/);
  assert.doesNotMatch(before.text, /app rules/);
  const after = decideInstructions(set(files), ['packages/app/src/main.ts']);
  assert.deepEqual(after.applied.map((a) => a.path), ['AGENTS.md', 'packages/app/AGENTS.md', 'packages/app/src/AGENTS.md']);
  assert.ok(after.text.indexOf('app rules') < after.text.indexOf('src rules'), 'the closest file comes last');
  assert.match(after.applied[1]?.why ?? '', /packages\/app\/src\/main\.ts is in its folder/);
  assert.equal(after.applied[1]?.sha256, 'sha-packages/app/AGENTS.md');
});

test('user-level files come first, then the root, then rules, then nested files', () => {
  const files = [
    file('packages/a/AGENTS.md', 'nested'),
    file('.github/instructions/ts.instructions.md', 'ts rule', { format: 'copilot-scoped', globs: ['**/*.ts'] }),
    file('AGENTS.md', 'root'),
    file('~/.codex/AGENTS.md', 'mine', { scope: 'user' }),
  ];
  const decision = decideInstructions(set(files), ['packages/a/x.ts']);
  assert.deepEqual(decision.applied.map((a) => a.path), ['~/.codex/AGENTS.md', 'AGENTS.md', '.github/instructions/ts.instructions.md', 'packages/a/AGENTS.md']);
});

test('applyTo and globs rules apply when a touched file matches; alwaysApply and "**" always', () => {
  const files = [
    file('.github/instructions/py.instructions.md', 'python rule', { format: 'copilot-scoped', globs: ['**/*.py'] }),
    file('.cursor/rules/react.mdc', 'react rule', { format: 'cursor', globs: ['**/*.tsx', 'components/**/*'] }),
    file('.cursor/rules/global.mdc', 'global rule', { format: 'cursor', alwaysApply: true }),
    file('.github/instructions/all.instructions.md', 'all rule', { format: 'copilot-scoped', globs: ['**'] }),
    file('.github/instructions/none.instructions.md', 'unscoped rule', { format: 'copilot-scoped' }),
  ];
  assert.deepEqual(decideInstructions(set(files), ['README.md']).applied.map((a) => a.path), ['.cursor/rules/global.mdc', '.github/instructions/all.instructions.md']);
  const touched = decideInstructions(set(files), ['tools/gen.py', 'web/components/Button.tsx']);
  assert.deepEqual(touched.applied.map((a) => a.path).sort(), ['.cursor/rules/global.mdc', '.cursor/rules/react.mdc', '.github/instructions/all.instructions.md', '.github/instructions/py.instructions.md']);
  assert.match(touched.applied.find((a) => a.path.endsWith('py.instructions.md'))?.why ?? '', /tools\/gen\.py matches "\*\*\/\*\.py"/);
});

test('a bad glob is a note naming the file and line; the other rules still apply', () => {
  const files = [file('.cursor/rules/bad.mdc', 'bad', { format: 'cursor', globs: ['src/{a,b'], globsLine: 3 }), file('AGENTS.md', 'root')];
  const decision = decideInstructions(set(files), ['src/a']);
  assert.deepEqual(decision.applied.map((a) => a.path), ['AGENTS.md']);
  assert.match(decision.notes[0] ?? '', /^\.cursor\/rules\/bad\.mdc line 3: the glob "src\/\{a,b" is not valid/);
});

test('imports are inlined after their file, resolved from its folder, each once', () => {
  const files = [file('CLAUDE.md', 'See @docs/style.md and @docs/style.md again.\n'), file('pkg/CLAUDE.md', 'Also @../docs/test.md\n')];
  const decision = decideInstructions(set(files, { 'docs/style.md': 'two spaces', 'docs/test.md': 'run make check' }), ['pkg/x']);
  assert.deepEqual(decision.applied.map((a) => [a.path, a.why]), [
    ['CLAUDE.md', 'at the workspace root'],
    ['docs/style.md', 'imported by CLAUDE.md line 1'],
    ['pkg/CLAUDE.md', 'pkg/x is in its folder'],
    ['docs/test.md', 'imported by pkg/CLAUDE.md line 1'],
  ]);
  assert.ok(decision.text.indexOf('two spaces') > decision.text.indexOf('See @docs/style.md'));
});

test('an import cycle is cut where it closes', () => {
  const files = [file('CLAUDE.md', '@a.md\n')];
  const decision = decideInstructions(set(files, { 'a.md': 'A @b.md', 'b.md': 'B @a.md @CLAUDE.md' }), []);
  assert.deepEqual(decision.applied.map((a) => a.path), ['CLAUDE.md', 'a.md', 'b.md']);
  assert.equal(decision.notes.length, 0);
});

test('imports nest at most five deep, and the sixth is named in a note', () => {
  const imports: Record<string, string> = {};
  for (let i = 1; i <= 7; i++) imports[`d${i}.md`] = `level ${i} @d${i + 1}.md`;
  const decision = decideInstructions(set([file('CLAUDE.md', '@d1.md')], imports), []);
  assert.deepEqual(decision.applied.map((a) => a.path), ['CLAUDE.md', 'd1.md', 'd2.md', 'd3.md', 'd4.md', 'd5.md']);
  assert.match(decision.notes.join('\n'), /d5\.md line 1: the import "@d6\.md" was not followed: imports nest at most 5 deep/);
});

test('an import outside the workspace is refused with a note naming file and line', () => {
  const decision = decideInstructions(set([file('CLAUDE.md', 'intro\n@../secrets.md\n@~/.ssh/config\n@/etc/passwd\n')]), []);
  assert.deepEqual(decision.applied.map((a) => a.path), ['CLAUDE.md']);
  assert.deepEqual(decision.notes.map((n) => n.replace(/: the import.*?: /, ': ')), [
    'CLAUDE.md line 2: a path above the workspace root is outside the workspace.',
    'CLAUDE.md line 3: a path in the home folder is outside the workspace.',
    'CLAUDE.md line 4: an absolute path is outside the workspace.',
  ]);
});

test('an @name in AGENTS.md prose or in code is not an import', () => {
  assert.deepEqual(importReferences('Ask @alice.\n`@types/node` and\n```\n@docs/x.md\n```\nemail a@b.com\n').map((r) => r.raw), []);
  assert.deepEqual(resolveImport('a/b/CLAUDE.md', '../c.md'), { kind: 'inside', path: 'a/c.md' });
  const decision = decideInstructions(set([file('AGENTS.md', 'see @docs/x.md')], { 'docs/x.md': 'x' }), []);
  assert.deepEqual(decision.applied.map((a) => a.path), ['AGENTS.md']);
});

test('over the total cap, the first file that does not fit is shortened and the rest cut, all named', () => {
  const files = [file('AGENTS.md', 'a'.repeat(800)), file('CLAUDE.md', 'b'.repeat(2000), { format: 'claude' }), file('GEMINI.md', 'c'.repeat(500), { format: 'gemini' })];
  const decision = decideInstructions(set(files), [], { totalChars: 2000 });
  assert.ok(decision.text.length < 2000 + 400, 'the preamble and the sections stay near the cap');
  assert.match(decision.text, /\[\.\.\. the rest of CLAUDE\.md was cut\]/);
  assert.doesNotMatch(decision.text, /ccc/);
  assert.deepEqual(decision.notes, ['The instructions are over the 2000-character cap: cut CLAUDE.md (shortened), GEMINI.md.']);
});

test('the reading notes travel with the decision; nothing applies gives no text', () => {
  const decision = decideInstructions(set([], {}, ['x.mdc line 2: broken']), []);
  assert.equal(decision.text, '');
  assert.deepEqual(decision.notes, ['x.mdc line 2: broken']);
});
