// Bundles every runnable part of Sprout Agent into dist/: the extension, the CLI, the bundled MCP
// servers (each a standalone stdio entry) and the chat webview. One script so the .vsix, the CLI and
// the tests all run the same bytes.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, copyFileSync, chmodSync } from 'node:fs';
import { dirname } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** Node-side entry points: [source, output file under dist/]. */
const nodeEntries = [
  ['src/extension/extension.ts', 'extension.js'],
  // The launcher catches signals first, then loads the main CLI bundle (kept external to it).
  ['src/cli/launcher.ts', 'cli.js'],
  ['src/cli/main.ts', 'cliMain.js'],
  // An agent's hook event: the light client that asks the warm hook host (cliMain.js only without one).
  ['src/cli/bridge/bridgeEntry.ts', 'hookBridge.js'],
  ['src/servers/workspace/main.ts', 'servers/workspace.js'],
  ['src/servers/todo/main.ts', 'servers/todo.js'],
  ['src/servers/tests/main.ts', 'servers/tests.js'],
];
// The highlighter is a bundle of its own: the chat loads it only when an answer has a code block.
const webEntries = [
  ['src/webview/main.ts', 'webview.js'],
  ['src/webview/highlighter.ts', 'highlight.js'],
];

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

function requireEntries(entries) {
  const missing = entries.filter(([src]) => !existsSync(src)).map(([src]) => src);
  if (missing.length > 0) throw new Error(`esbuild.mjs: entry points missing: ${missing.join(', ')}`);
  return entries;
}

/**
 * zod's error messages in every language (about 260 KB minified) come into a bundle through the `z`
 * namespace the MCP SDK uses as a value; Sprout reads only zod's English messages (the default), so
 * the locales index is English alone. Nothing calls `z.locales.<other>()`: it would be undefined.
 */
const englishZodOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({ contents: 'export { default as en } from "./en.js";\n', loader: 'js', resolveDir: dirname(args.path) }));
  },
};

const contexts = [];
for (const [src, out] of requireEntries(nodeEntries)) {
  contexts.push(
    await esbuild.context({
      ...common,
      entryPoints: [src],
      outfile: `dist/${out}`,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      external: out === 'cli.js' ? ['vscode', './cliMain.js', './hookBridge.js'] : ['vscode'],
      // Libraries probe `navigator` to tell a browser from Node (zod, the openai SDK); VS Code's
      // extension host answers a read with a deprecation warning naming the extension. On Node
      // these bundles run where there is no browser to find.
      define: { navigator: 'undefined', 'globalThis.navigator': 'undefined' },
      plugins: [englishZodOnly],
      banner: out === 'extension.js' ? {} : { js: '#!/usr/bin/env node' },
    }),
  );
}
for (const [src, out] of requireEntries(webEntries)) {
  contexts.push(
    await esbuild.context({
      ...common,
      entryPoints: [src],
      outfile: `dist/${out}`,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
    }),
  );
}

mkdirSync('dist', { recursive: true });
if (existsSync('media/chat.css')) copyFileSync('media/chat.css', 'dist/webview.css');
// The codicon font and its stylesheet, beside the bundle (the webview may load only from dist/ and media/).
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/${file}`);

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  // Make the CLI and servers executable for `npx sprout-agent` and direct use.
  for (const [, out] of requireEntries(nodeEntries)) if (out !== 'extension.js') chmodSync(`dist/${out}`, 0o755);
}
