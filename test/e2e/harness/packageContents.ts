// What an installed .vsix must contain for the extension to run: the manifest's entry point, the
// webview and bundled-server bundles esbuild.mjs writes, and every media file the manifest names
// (the listing's icon, view icons, walkthrough pages). Derived from package.json so a new icon or step is checked too.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './codeServerWithVsix';

const BUNDLES: [source: string, output: string][] = [
  ['src/webview/main.ts', 'dist/webview.js'],
  ['src/servers/workspace/main.ts', 'dist/servers/workspace.js'],
  ['src/servers/todo/main.ts', 'dist/servers/todo.js'],
  ['src/servers/tests/main.ts', 'dist/servers/tests.js'],
  ['media/chat.css', 'dist/webview.css'],
  ['src/webview/highlighter.ts', 'dist/highlight.js'],
  ['node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css'],
  ['node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf'],
];

function mediaReferences(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string' && value.startsWith('media/')) into.add(value);
  else if (Array.isArray(value)) for (const v of value) mediaReferences(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) mediaReferences(v, into);
  return into;
}

export function expectedPackageFiles(): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { main: string; icon?: string; contributes?: unknown };
  // vsce renames the docs inside the package (README.md -> readme.md, LICENSE -> LICENSE.txt).
  const files = new Set<string>(['package.json', 'readme.md', 'changelog.md', 'LICENSE.txt', pkg.main.replace(/^\.\//, '')]);
  for (const [source, output] of BUNDLES) if (existsSync(join(repoRoot, source))) files.add(output);
  mediaReferences([pkg.icon, pkg.contributes], files);
  return [...files].sort();
}
