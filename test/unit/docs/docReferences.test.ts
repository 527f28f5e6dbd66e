// Comments cite the contract by the section that states it (`docs/hooks.md#the-_stop-gate`), never by
// the number of a document the repository does not hold ("SPEC 3"): every cited section must be a
// heading of that file today, so a renamed heading fails here instead of leaving a dangling pointer.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = readFileSync(join(root, markdown), 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .map((line) => slug(line.replace(/^#+\s*/, '')));
  return new Set(headings);
}

const files = [...sourceFiles('src'), ...sourceFiles('test'), ...sourceFiles('scripts')];

test('source comments cite contract sections that exist', () => {
  const broken: string[] = [];
  let cited = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/\b((?:docs\/)?[\w-]+\.md)#([\w-]+)/g)) {
      const [, doc = '', anchor = ''] = match;
      cited += 1;
      if (!existsSync(join(root, doc))) broken.push(`${file}: ${doc} does not exist`);
      else if (!anchorsOf(doc).has(anchor)) broken.push(`${file}: ${doc} has no section #${anchor}`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(cited >= 14, `the core cites its contract sections (found ${cited})`);
});

test('no comment cites the contract by a section number of a document outside the repository', () => {
  const tagged = files.filter((file) => /\bSPEC \d/.test(readFileSync(join(root, file), 'utf8'))).map((file) => relative(root, join(root, file)));
  assert.deepEqual(tagged.filter((file) => !file.endsWith('docReferences.test.ts')), []);
});
