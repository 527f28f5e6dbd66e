// Lint rules, including the dependency direction of the architecture (docs/architecture in README):
// agent imports only itself; model/mcp/servers may use agent types; runtime composes Node-side parts;
// cli and extension compose; webview imports only shared. A wrong import fails `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

import { builtinModules } from 'node:module';

// Exact module names (a `patterns` entry like "events" would also match our own './events').
const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `node:${m}`]);

function restrict(patterns, message, paths = []) {
  return { 'no-restricted-imports': ['error', { paths: paths.map((name) => ({ name, message })), patterns: [{ group: patterns, message }] }] };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'test-results/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Build scripts run on Node.
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/agent/**/*.ts'],
    rules: restrict(
      ['vscode', 'openai', 'openai/*', '@modelcontextprotocol/*', 'node:*', '../*'],
      'src/agent is the pure core: it imports only its own files (no vscode, no SDKs, no Node built-ins).',
      nodeBuiltins,
    ),
  },
  {
    files: ['src/model/**/*.ts', 'src/mcp/**/*.ts', 'src/servers/**/*.ts'],
    rules: restrict(
      ['vscode', '../cli/*', '../extension/*', '../runtime/*', '../webview/*', '../../cli/*', '../../extension/*', '../../runtime/*', '../../webview/*'],
      'adapters and servers may import agent types only, never the hosts.',
    ),
  },
  {
    files: ['src/runtime/**/*.ts', 'src/cli/**/*.ts'],
    rules: restrict(['vscode', '../extension/*', '../webview/*'], 'the CLI and runtime never import vscode or the extension.'),
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: restrict(
      ['vscode', 'node:*', '../agent/*', '../model/*', '../mcp/*', '../runtime/*', '../extension/*', '../cli/*', '../servers/*'],
      'the webview is browser code: it imports only src/shared.',
    ),
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict(['vscode', 'node:*', '../extension/*', '../webview/*', '../runtime/*', '../cli/*'], 'shared protocol code is host-neutral.'),
  },
);
