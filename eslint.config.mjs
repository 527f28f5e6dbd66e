// Lint rules, including the dependency direction of the architecture (docs/architecture in README).
// The layers are the folders of src/; `layers` below says which folders each may import (judged by the
// path an import resolves to, see scripts/layerRule.mjs) and, where a layer has an allowlist, which
// packages (so Node built-ins stay out of the core, shared and the webview). The `restrict` blocks
// further down keep vscode and the SDKs out of the Node-side layers that must not see them. A wrong import fails `npm run lint`; test/unit/build/layerProbes.test.ts
// proves each rule rejects a probe, and test/unit/build/importGraph.test.ts checks the whole house
// (no upward import, no import circle). The per-layer tsconfig files keep Node and DOM globals out.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

import { layerPlugin } from './scripts/layerRule.mjs';

/** Each layer's folder under src/, the other layers (and root files) it may import, and, for the
 * browser and the host-neutral code, the only packages it may import. Lower layers come first. */
export const layers = {
  agent: { imports: [], packages: [] },
  shared: { imports: [], packages: ['zod'] },
  webview: { imports: ['shared'], packages: ['dompurify', 'highlight.js', 'markdown-it'] },
  platform: { imports: ['agent'] },
  agentHooks: { imports: ['agent'], packages: ['re2js', 'zod'] },
  customizations: { imports: ['agent', 'agentHooks'], packages: ['yaml', 'zod'] },
  model: { imports: ['agent', 'platform'] },
  mcp: { imports: ['agent', 'shared', 'platform'] },
  servers: { imports: ['agent', 'shared', 'platform'] },
  runtime: { imports: ['agent', 'shared', 'platform', 'model', 'mcp', 'servers'] },
  cli: { imports: ['agent', 'shared', 'platform', 'agentHooks', 'customizations', 'model', 'mcp', 'servers', 'runtime', 'package.json'] },
  extension: { imports: ['agent', 'shared', 'platform', 'agentHooks', 'customizations', 'model', 'mcp', 'servers', 'runtime', 'package.json'] },
};

/** Packages a layer never imports (the layers with an allowlist above need no such list). */
function restrict(patterns, message) {
  return { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] };
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
    // Layers by folder (the table at the top), whatever the depth of the importing file.
    files: ['src/**/*.ts'],
    plugins: { layers: layerPlugin(import.meta.dirname, layers) },
    rules: { 'layers/imports': 'error' },
  },
  {
    // The core reads time only through its Clock port, so a test or a replay controls it.
    files: ['src/agent/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'src/agent reads time through the Clock port (clock.now()).' }],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'src/agent reads time through the Clock port: new Date(clock.now()).' },
        { selector: "CallExpression[callee.name='Date']", message: 'src/agent reads time through the Clock port.' },
      ],
    },
  },
  {
    // Adapters are siblings: each owns its SDK and talks to the core's ports.
    files: ['src/model/**/*.ts'],
    rules: restrict(['vscode', '@modelcontextprotocol/*'], 'the model adapter owns the openai SDK only: no vscode, no MCP SDK (the MCP adapter\'s).'),
  },
  {
    files: ['src/mcp/**/*.ts', 'src/servers/**/*.ts'],
    rules: restrict(['vscode', 'openai', 'openai/*'], 'the MCP adapter and the bundled servers never import vscode or the openai SDK.'),
  },
  {
    // Node plumbing with no product logic of its own (process trees, private state folders, the clock),
    // used by the adapters, the bundled servers and both hosts.
    files: ['src/platform/**/*.ts'],
    rules: restrict(['vscode', 'openai', 'openai/*', '@modelcontextprotocol/*'], 'src/platform is Node plumbing: Node and agent types only, no SDK, no vscode.'),
  },
  {
    files: ['src/runtime/**/*.ts', 'src/cli/**/*.ts'],
    rules: restrict(['vscode'], 'the CLI and runtime never import vscode.'),
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
