// The documentation the project ships is self-contained: the README (also shown on the extension's
// page inside the .vsix), the CHANGELOG, CONTRIBUTING, docs/ and the walkthrough pages link only to files that
// exist inside the repository (or to web addresses), and never name a path on some machine outside
// it (a sibling checkout, an absolute home or work folder).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

const root = resolve(__dirname, '..', '..', '..');

function markdownFiles(): string[] {
  const inDir = (dir: string): string[] =>
    existsSync(join(root, dir)) ? readdirSync(join(root, dir)).filter((f) => f.endsWith('.md')).map((f) => join(dir, f)) : [];
  return ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...inDir('docs'), ...inDir(join('media', 'walkthrough'))];
}

/** Inline links and images `[text](target)` outside code spans, with their line numbers. */
function links(text: string): Array<{ target: string; line: number }> {
  const found: Array<{ target: string; line: number }> = [];
  let inFence = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ target: match[1] ?? '', line: index + 1 });
  });
  return found;
}

// Machine folders too (`/tmp/...`, `/proc/...`): a reader's machine has other contents, or none of them.
const FOREIGN_PATH = /(?:\.\.\/shared\b|(?<![\w.~-])\/(?:work|home|root|Users|mnt|tmp|proc)(?:\/|\b)|file:\/\/|[A-Z]:\\\\Users)/;

describe('the project\'s own documentation', () => {
  const files = markdownFiles();

  it('covers the README, the CHANGELOG and every page under docs/', () => {
    assert.ok(files.includes('README.md') && files.includes('CHANGELOG.md'));
    assert.ok(files.filter((f) => f.startsWith(`docs${sep}`)).length >= 3, files.join(', '));
  });

  it('links only to web addresses, anchors, or files that exist inside the repository', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { target, line } of links(readFileSync(join(root, file), 'utf8'))) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        if (/^(command|vscode):/.test(target) && file.startsWith(join('media', 'walkthrough'))) continue;
        const path = resolve(dirname(join(root, file)), decodeURIComponent(target.split('#')[0] ?? ''));
        if (relative(root, path).startsWith('..')) broken.push(`${file}:${line}: ${target} leaves the repository`);
        else if (!existsSync(path)) broken.push(`${file}:${line}: ${target} does not exist`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('names no path outside the repository', () => {
    const found: string[] = [];
    for (const file of [...files, 'package.json']) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (FOREIGN_PATH.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });

  it('names only source files that exist (`src/...` paths in backticks)', () => {
    const missing: string[] = [];
    for (const file of files) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const match of line.matchAll(/`(src\/[\w./-]+\.(?:ts|mjs|json))`/g)) if (!existsSync(join(root, match[1] ?? ''))) missing.push(`${file}:${index + 1}: ${match[1]}`);
        });
    }
    assert.deepEqual(missing, []);
  });
});
