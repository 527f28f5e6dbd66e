// The whole house at once: every file of src/ with the files it imports (as TypeScript resolves them,
// type-only imports included), checked against the layer table of eslint.config.mjs. Lint judges one
// file at a time; this sees the graph, so it also finds import circles. Run it alone with
// `node --import tsx --test test/unit/build/importGraph.test.ts`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import ts from 'typescript';

const root = resolve(__dirname, '..', '..', '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file (relative to the root, with /) and the files of ours it imports. */
function importGraph(): Map<string, string[]> {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler, resolveJsonModule: true };
  const name = (path: string): string => relative(root, path).split(sep).join('/');
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const imported = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets = imported
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
      // Unresolved: a built file loaded at run time (the CLI launcher's ./cliMain.js); tsc reports real misses.
      .filter((target): target is string => target !== undefined);
    graph.set(name(file), [...new Set(targets.map(name))]);
  }
  return graph;
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

type Layers = Record<string, { imports: string[] }>;
const layerOf = (file: string): string => (file.startsWith('src/') ? file.split('/')[1]! : file);

describe('the import graph of src/', async () => {
  const { layers } = (await import(pathToFileURL(join(root, 'eslint.config.mjs')).href)) as { layers: Layers };
  const graph = importGraph();

  test('every folder of src/ is a layer of the table, and no file sits in src/ itself', () => {
    const entries = readdirSync(src, { withFileTypes: true });
    assert.deepEqual(entries.filter((e) => !e.isDirectory() && e.name !== 'tsconfig.json').map((e) => e.name), []);
    assert.deepEqual(entries.filter((e) => e.isDirectory() && !(e.name in layers)).map((e) => e.name), []);
  });

  test('no import goes against the layer table (no upward or sideways import)', () => {
    assert.ok(graph.size > 100, `the graph holds the house (${graph.size} files)`);
    const wrong = [...graph].flatMap(([file, targets]) =>
      targets.filter((t) => layerOf(t) !== layerOf(file) && !(layers[layerOf(file)]?.imports ?? []).includes(layerOf(t))).map((t) => `${file} -> ${t}`),
    );
    assert.deepEqual(wrong, []);
  });

  test('no import circle', () => {
    assert.deepEqual(circles(graph), []);
  });

  test('control: the circle finder finds a circle of three and a self-import, and no false one', () => {
    const probe = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    assert.deepEqual(circles(probe), [['a', 'b', 'c'], ['e']]);
  });
});
