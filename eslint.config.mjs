// Lint rules, including the dependency direction of the architecture (docs/architecture in README):
// agent imports only itself; model, mcp and servers may use agent types but not each other; runtime
// composes Node-side parts; cli and extension compose; webview imports only shared; shared imports
// nothing of ours. A wrong import fails `npm run lint`; test/unit/build/layerProbes.test.ts proves it.
// The per-layer tsconfig files (src/agent, src/shared, src/webview) keep Node and DOM globals out.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

import { builtinModules } from 'node:module';

// Exact module names (a `patterns` entry like "events" would also match our own './events').
const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `node:${m}`]);

// What a lower layer never imports: the hosts and the other side of the webview boundary. The one
// exception is the Node clock (the Clock port's only implementation), which the adapters default to.
const hostFolders = [
  ...['cli', 'extension', 'runtime', 'webview'].flatMap((f) => [`../${f}/*`, `../../${f}/*`]),
  '!../runtime/nodeClock',
];

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
    // Other coding agents' hook formats (payloads, answers, config entries): pure data over zod, read
    // by the CLI's hook bridge and the extension alike.
    files: ['src/agentHooks/**/*.ts'],
    rules: restrict(
      ['vscode', 'openai', 'openai/*', '@modelcontextprotocol/*', 'node:*', '../mcp/*', '../model/*', '../servers/*', '../platform/*', ...hostFolders],
      'src/agentHooks is pure: agent formats over zod and agent types only (no vscode, no SDKs, no Node built-ins).',
      nodeBuiltins,
    ),
  },
  {
    // Adapters are siblings: each talks to the core's ports, never to another adapter.
    files: ['src/model/**/*.ts'],
    rules: restrict(
      ['vscode', '../mcp/*', '../servers/*', ...hostFolders],
      'the model adapter may import agent types only: not vscode, the hosts, or the MCP adapter (a sibling).',
    ),
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: restrict(
      ['vscode', 'openai', 'openai/*', '../model/*', '../servers/*', ...hostFolders],
      'the MCP adapter may import agent types only: not vscode, the hosts, or the model adapter (a sibling).',
    ),
  },
  {
    files: ['src/servers/**/*.ts'],
    rules: restrict(
      ['vscode', 'openai', 'openai/*', '../../model/*', '../../mcp/*', ...hostFolders],
      'bundled servers are standalone MCP servers: agent types and their own shared code only.',
    ),
  },
  {
    // Node plumbing with no product logic of its own (process trees, private state folders), used by the
    // adapters, the bundled servers and both hosts.
    files: ['src/platform/**/*.ts'],
    rules: restrict(
      ['vscode', 'openai', 'openai/*', '@modelcontextprotocol/*', '../model/*', '../mcp/*', '../servers/*', ...hostFolders],
      'src/platform is Node plumbing below the adapters and servers: it imports Node and agent types only.',
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
      'the webview is browser code: it imports only src/shared (no vscode, no Node built-ins).',
      nodeBuiltins,
    ),
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict(
      ['vscode', 'node:*', '../agent/*', '../model/*', '../mcp/*', '../extension/*', '../webview/*', '../runtime/*', '../cli/*', '../servers/*'],
      'shared protocol code is host-neutral and stands alone: no vscode, no Node built-ins, not even the core.',
      nodeBuiltins,
    ),
  },
  {
    // Type-aware rules for the product code (each file is checked with its layer's tsconfig).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.d.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A switch without `default` must name every member of its union; one with `default` is a
      // deliberate partial fold (most views read a few of the many event types).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
);
