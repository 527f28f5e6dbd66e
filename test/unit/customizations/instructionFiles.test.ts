// Reading instruction files in every format (src/customizations/instructionFiles.ts) through an in-memory
// file system, and the core's decision over what was read. The real files come from public repositories
// (kept outside the repository, see test/sharedTestData.ts): hyperdx's monorepo AGENTS.md files, LocalAI's
// CLAUDE.md with @imports, awesome-copilot's and vscode's applyTo instructions, awesome-cursorrules'
// unquoted `globs:` (not valid YAML, as Cursor writes them), langfuse's alwaysApply rule, Cline's rules.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decideInstructions } from '../../../src/agent/instructions';
import { INSTRUCTION_SOURCES, type InstructionFileSystem, UNTRUSTED_NOTE, readInstructions } from '../../../src/customizations/instructionFiles';
import { globMatcher } from '../../../src/servers/common/glob';
import { needsSharedData } from '../../sharedTestData';

/** A file tree in memory: absolute paths to text or bytes; folders are implied. */
class InMemoryFs implements InstructionFileSystem {
  constructor(private readonly files: Record<string, string | Uint8Array>) {}
  list(folder: string): { name: string; kind: 'file' | 'dir' }[] {
    const prefix = `${folder.replace(/\/+$/, '')}/`;
    const seen = new Map<string, 'file' | 'dir'>();
    for (const path of Object.keys(this.files)) {
      if (!path.startsWith(prefix)) continue;
      const [name, ...rest] = path.slice(prefix.length).split('/');
      if (name !== undefined) seen.set(name, rest.length > 0 ? 'dir' : 'file');
    }
    return [...seen].map(([name, kind]) => ({ name, kind }));
  }
  size(path: string): number | undefined {
    const f = this.files[path];
    return f === undefined ? undefined : typeof f === 'string' ? Buffer.byteLength(f) : f.length;
  }
  read(path: string): Uint8Array {
    const f = this.files[path];
    if (f === undefined) throw new Error('ENOENT');
    return typeof f === 'string' ? Buffer.from(f) : f;
  }
  sha256(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }
  /** Links as a map from a path to where it points (a file system's symlinks). */
  readonly links: Record<string, string> = {};
  realPath(path: string): string | undefined {
    return this.links[path] ?? path;
  }
}

const options = { root: '/ws', home: '/home/u', trusted: true, sources: INSTRUCTION_SOURCES, compileGlob: globMatcher };

test('every format is found where its agent keeps it, node_modules and .git skipped', () => {
  const fs = new InMemoryFs({
    '/ws/AGENTS.md': 'root agents',
    '/ws/CLAUDE.md': 'root claude',
    '/ws/.claude/CLAUDE.md': 'dot claude',
    '/ws/GEMINI.md': 'gemini',
    '/ws/.github/copilot-instructions.md': 'copilot',
    '/ws/.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nts rule',
    '/ws/.cursor/rules/web/react.mdc': '---\nglobs: **/*.tsx\n---\nreact',
    '/ws/.clinerules/01-style.md': 'cline style',
    '/ws/pkg/a/AGENTS.md': 'nested a',
    '/ws/node_modules/x/AGENTS.md': 'never',
    '/ws/.git/AGENTS.md': 'never',
    '/home/u/.claude/CLAUDE.md': 'user claude',
    '/home/u/.codex/AGENTS.md': 'user codex',
  });
  const set = readInstructions(fs, options);
  assert.deepEqual(set.notes, []);
  assert.deepEqual(set.files.map((f) => `${f.path}:${f.format}`), [
    '~/.claude/CLAUDE.md:claude',
    '~/.codex/AGENTS.md:agents',
    'AGENTS.md:agents',
    'CLAUDE.md:claude',
    'GEMINI.md:gemini',
    '.claude/CLAUDE.md:claude',
    '.github/copilot-instructions.md:copilot',
    '.clinerules/01-style.md:cline',
    '.github/instructions/ts.instructions.md:copilot-scoped',
    '.cursor/rules/web/react.mdc:cursor',
    'pkg/a/AGENTS.md:agents',
  ]);
  assert.equal(set.files.find((f) => f.path === 'AGENTS.md')?.sha256, createHash('sha256').update('root agents').digest('hex'));
  assert.deepEqual(set.files.find((f) => f.format === 'cursor')?.globs, ['**/*.tsx']);
});

test('sources turn formats off; untrusted reads no workspace file, says so once, user files still apply', () => {
  const fs = new InMemoryFs({ '/ws/AGENTS.md': 'a', '/ws/CLAUDE.md': 'c', '/home/u/.claude/CLAUDE.md': 'user' });
  assert.deepEqual(readInstructions(fs, { ...options, sources: ['agents'] }).files.map((f) => f.path), ['AGENTS.md']);
  const untrusted = readInstructions(fs, { ...options, trusted: false });
  assert.deepEqual(untrusted.files.map((f) => f.path), ['~/.claude/CLAUDE.md']);
  assert.deepEqual(untrusted.notes, [UNTRUSTED_NOTE]);
});

test('a malformed header, a binary file and a file over 1 MB are notes naming the file and line; the rest applies', () => {
  const fs = new InMemoryFs({
    '/ws/AGENTS.md': 'fine',
    '/ws/.github/instructions/bad.instructions.md': '---\napplyTo: [unclosed\n---\nbody',
    '/ws/.github/copilot-instructions.md': new Uint8Array([35, 32, 104, 105, 10, 0, 1, 2]),
    '/ws/GEMINI.md': 'x'.repeat(1024 * 1024 + 1),
  });
  const set = readInstructions(fs, options);
  assert.deepEqual(set.files.map((f) => f.path), ['AGENTS.md']);
  assert.equal(set.notes.length, 3);
  assert.match(set.notes.join('\n'), /GEMINI\.md: skipped, it is 1024 KB/);
  assert.match(set.notes.join('\n'), /\.github\/copilot-instructions\.md: skipped, it is a binary file \(a NUL byte on line 2\)/);
  assert.match(set.notes.join('\n'), /\.github\/instructions\/bad\.instructions\.md line \d: the front matter is not valid YAML.*not applied until it is fixed/);
});

test('a file or an import that links out of the workspace is not read, and a note says so', () => {
  const fs = new InMemoryFs({ '/ws/CLAUDE.md': '@docs/key.md', '/ws/docs/key.md': 'SECRET', '/ws/AGENTS.md': 'SECRET TOO' });
  fs.links['/ws/docs/key.md'] = '/home/u/.ssh/id_rsa';
  fs.links['/ws/AGENTS.md'] = '/etc/motd';
  const set = readInstructions(fs, options);
  assert.deepEqual(set.files.map((f) => f.path), ['CLAUDE.md']);
  assert.deepEqual([...set.imports.keys()], []);
  assert.deepEqual(set.notes, ['AGENTS.md: not read, it links to a file outside the workspace.', 'docs/key.md: not read, it links to a file outside the workspace.']);
});

test('imports are read inside the workspace only, through links of links, and never outside', () => {
  const fs = new InMemoryFs({ '/ws/CLAUDE.md': '@docs/a.md @../../etc/passwd', '/ws/docs/a.md': '@b.md', '/ws/docs/b.md': 'B', '/etc/passwd': 'root:x' });
  const set = readInstructions(fs, options);
  assert.deepEqual([...set.imports.keys()], ['docs/a.md', 'docs/b.md']);
  const decision = decideInstructions(set, []);
  assert.deepEqual(decision.applied.map((a) => a.path), ['CLAUDE.md', 'docs/a.md', 'docs/b.md']);
  assert.doesNotMatch(decision.text, /root:x/);
  assert.match(decision.notes[0] ?? '', /CLAUDE\.md line 1: the import "@\.\.\/\.\.\/etc\/passwd" was not followed/);
});

const shared = needsSharedData('instruction-files');

function real(name: string): string {
  return readFileSync(join(shared.dir, name), 'utf8');
}

test('real files: a monorepo\'s nested AGENTS.md apply once work reaches their package', { skip: shared.skip }, () => {
  const fs = new InMemoryFs({
    '/ws/AGENTS.md': real('hyperdx.root.AGENTS.md'),
    '/ws/packages/app/AGENTS.md': real('hyperdx.packages-app.AGENTS.md'),
    '/ws/packages/api/AGENTS.md': real('hyperdx.packages-api.AGENTS.md'),
  });
  const set = readInstructions(fs, options);
  assert.deepEqual(decideInstructions(set, []).applied.map((a) => a.path), ['AGENTS.md']);
  const decision = decideInstructions(set, ['packages/api/src/server.ts']);
  assert.deepEqual(decision.applied.map((a) => a.path), ['AGENTS.md', 'packages/api/AGENTS.md']);
  assert.ok(decision.text.includes(real('hyperdx.packages-api.AGENTS.md').trim().split('\n')[0] ?? '?'));
});

test('real files: LocalAI\'s CLAUDE.md pulls in its @docs imports', { skip: shared.skip }, () => {
  const fs = new InMemoryFs({ '/ws/CLAUDE.md': real('localai.CLAUDE.md'), '/ws/docs/CODING_STYLE.md': real('localai.docs-CODING_STYLE.md'), '/ws/docs/TESTING.md': real('localai.docs-TESTING.md') });
  const decision = decideInstructions(readInstructions(fs, options), []);
  assert.deepEqual(decision.applied.map((a) => a.path), ['CLAUDE.md', 'docs/CODING_STYLE.md', 'docs/TESTING.md']);
  assert.deepEqual(decision.notes, []);
});

test('real files: applyTo, Cursor\'s unquoted globs and alwaysApply, Cline\'s rules', { skip: shared.skip }, () => {
  const fs = new InMemoryFs({
    '/ws/.github/instructions/python.instructions.md': real('awesome-copilot.python.instructions.md'),
    '/ws/.github/instructions/typescript.instructions.md': real('vscode.typescript.instructions.md'),
    '/ws/.cursor/rules/react.mdc': real('awesome-cursorrules.react.mdc'),
    '/ws/.cursor/rules/global.mdc': real('langfuse.global.mdc'),
    '/ws/.clinerules': real('nftbk.clinerules'),
    '/ws/.github/copilot-instructions.md': real('awesome-copilot.copilot-instructions.md'),
  });
  const set = readInstructions(fs, options);
  assert.deepEqual(set.notes, [], 'Cursor\'s unquoted globs are read as Cursor reads them');
  assert.deepEqual(set.files.find((f) => f.path.endsWith('react.mdc'))?.globs, ['**/*.tsx', '**/*.jsx', 'components/**/*']);
  const none = decideInstructions(set, ['README.md']).applied.map((a) => a.path);
  assert.deepEqual(none, ['.github/copilot-instructions.md', '.clinerules', '.cursor/rules/global.mdc']);
  const touched = decideInstructions(set, ['src/app.py', 'web/App.tsx']).applied.map((a) => a.path);
  assert.deepEqual(touched.sort(), ['.clinerules', '.cursor/rules/global.mdc', '.cursor/rules/react.mdc', '.github/copilot-instructions.md', '.github/instructions/python.instructions.md']);
});

// Cursor writes globs unquoted, which YAML refuses (`*` opens an alias); other tools that read `.mdc`
// files met the same: https://github.com/ThreeMoonsLab/agents-shipgate/issues/729 (`globs: *.json`),
// https://github.com/PatrickJS/awesome-cursorrules/pull/317 (`globs: **/*`),
// https://github.com/sanity-io/agent-toolkit/pull/15 (quoting them instead breaks Cursor's own matching).
test('Cursor rules as Cursor writes them: bare globs, a bare "**/*", an empty globs line', () => {
  const fs = new InMemoryFs({
    '/ws/.cursor/rules/openapi.mdc': '---\ndescription: OpenAPI standards\nglobs: *.json\nalwaysApply: false\n---\nopenapi rule',
    '/ws/.cursor/rules/all.mdc': '---\ndescription: "Everything"\nglobs: **/*\n---\nall rule',
    '/ws/.cursor/rules/manual.mdc': '---\ndescription:\nglobs:\nalwaysApply: false\n---\nmanual rule',
  });
  const set = readInstructions(fs, options);
  assert.deepEqual(set.notes, []);
  assert.deepEqual(decideInstructions(set, ['README.md']).applied.map((a) => a.path), ['.cursor/rules/all.mdc']);
  const touched = decideInstructions(set, ['api/spec/openapi.json']);
  assert.deepEqual(touched.applied.map((a) => [a.path, a.why]), [
    ['.cursor/rules/all.mdc', 'it applies to "**/*"'],
    ['.cursor/rules/openapi.mdc', 'api/spec/openapi.json matches "*.json"'],
  ]);
});

// Codex: "In each directory along the path, it checks for AGENTS.override.md, then AGENTS.md ... at most one
// file per directory" and the same at ~/.codex (https://developers.openai.com/codex/guides/agents-md).
// Claude Code: CLAUDE.local.md beside CLAUDE.md; `.claude/rules/**/*.md` scoped by `paths`. Cline: `paths`
// in `.clinerules/` files (https://docs.cline.bot/features/cline-rules/conditional-rules), `.cline/rules/`.
test('AGENTS.override.md replaces AGENTS.md in its folder (and at ~/.codex); CLAUDE.local.md joins CLAUDE.md; Claude and Cline rules are scoped by paths', () => {
  const fs = new InMemoryFs({
    '/ws/AGENTS.md': 'root agents',
    '/ws/CLAUDE.md': 'root claude',
    '/ws/CLAUDE.local.md': 'my own claude notes',
    '/ws/pkg/AGENTS.md': 'pkg agents',
    '/ws/pkg/AGENTS.override.md': 'pkg override',
    '/ws/.claude/rules/api.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\napi rule',
    '/ws/.claude/rules/general/style.md': 'always style',
    '/ws/.clinerules/react.md': '---\npaths:\n  - "src/components/**"\n---\nreact rule',
    '/ws/.clinerules/plain.md': 'cline plain',
    '/ws/.cline/rules/db.md': '---\npaths: ["db/**"]\n---\ndb rule',
    '/home/u/.codex/AGENTS.md': 'codex home',
    '/home/u/.codex/AGENTS.override.md': 'codex home override',
  });
  const set = readInstructions(fs, options);
  const paths = set.files.map((f) => f.path);
  assert.ok(!paths.includes('pkg/AGENTS.md') && paths.includes('pkg/AGENTS.override.md'), paths.join(', '));
  assert.ok(paths.includes('~/.codex/AGENTS.override.md') && !paths.includes('~/.codex/AGENTS.md'), paths.join(', '));
  assert.deepEqual(set.notes, []);
  const applied = (touched: string[]): string[] => decideInstructions(set, touched).applied.map((a) => a.path).sort();
  const always = ['.claude/rules/general/style.md', '.clinerules/plain.md', 'AGENTS.md', 'CLAUDE.local.md', 'CLAUDE.md', '~/.codex/AGENTS.override.md'];
  assert.deepEqual(applied([]), always);
  assert.deepEqual(applied(['src/api/users.ts', 'src/components/Button.tsx', 'db/schema.sql', 'pkg/index.ts']), [...always, '.claude/rules/api.md', '.cline/rules/db.md', '.clinerules/react.md', 'pkg/AGENTS.override.md'].sort());
});

test('a Cline rule whose header is broken is named and not applied (its scope is unknown); without a header it applies everywhere', () => {
  const fs = new InMemoryFs({ '/ws/.clinerules/bad.md': '---\npaths: [unclosed\n---\nbad', '/ws/.clinerules/ok.md': 'ok' });
  const set = readInstructions(fs, { ...options, home: undefined });
  assert.deepEqual(set.files.map((f) => f.path), ['.clinerules/ok.md']);
  assert.match(set.notes.join('\n'), /\.clinerules\/bad\.md line \d+: .*not applied until it is fixed/);
});

test('chat.instructionsFilesLocations: folders turned on inside the workspace are read; one climbing out is named and not read', async () => {
  const { instructionFolders } = await import('../../../src/customizations/instructionWalk');
  assert.deepEqual(instructionFolders(undefined), { folders: ['.github/instructions'], notes: [] });
  const read = instructionFolders({ '.github/instructions': true, 'docs/ai\\rules/': true, off: false, '/etc': true, '~/.copilot/instructions': true, '../other': true });
  assert.deepEqual(read.folders, ['.github/instructions', 'docs/ai/rules']);
  assert.deepEqual(read.notes.map((n) => /"(.*)" is not read/.exec(n)?.[1]), ['../other'], 'user-level folders (VS Code\'s defaults name ~/.copilot/instructions) are left out silently');
  const fs = new InMemoryFs({ '/ws/docs/ai/rules/sql.instructions.md': '---\napplyTo: "**/*.sql"\n---\nsql rule', '/ws/.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nts' });
  assert.deepEqual(readInstructions(fs, { ...options, copilotFolders: ['docs/ai/rules'] }).files.map((f) => f.path), ['docs/ai/rules/sql.instructions.md']);
});
