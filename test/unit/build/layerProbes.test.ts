// The layer rules are kept by the build, not by convention: each probe below is code that breaks a
// layer rule, and the real configurations (the per-layer tsconfig files, eslint.config.mjs) must
// reject it. Each probe also has a control that the same code passes where it is allowed, so a probe
// cannot pass by failing for some other reason. tsc probes are compiled in a temp folder with the
// layer's compiler options; lint probes are linted as the text of a real file of that layer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = resolve(__dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'sprout-layer-probes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function compilerOptions(tsconfig: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, tsconfig), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) });
  assert.ok(parsed, `${tsconfig} parses`);
  return { ...parsed.options, noEmit: true };
}

/** The error codes tsc reports for `code`, compiled alone with the options of `tsconfig`. */
function tscErrors(tsconfig: string, name: string, code: string): number[] {
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, code);
  const program = ts.createProgram([file], compilerOptions(tsconfig));
  return ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file).map((d) => d.code);
}

const CANNOT_FIND_NAME = 2304;
const CANNOT_FIND_NODE_NAME = 2591;
const CANNOT_FIND_MODULE = 2307;
const CANNOT_FIND_DOM_NAME = 2584;
const nodeGlobals = "export const key = process.env['OPENAI_API_KEY'];\nexport const timer = setTimeout(() => undefined, 1);\n";

describe('tsc: each layer sees only its own platform', () => {
  for (const layer of ['agent', 'shared']) {
    test(`src/${layer}: process.env and setTimeout do not exist`, () => {
      assert.deepEqual(tscErrors(`src/${layer}/tsconfig.json`, `${layer}Globals`, nodeGlobals), [CANNOT_FIND_NODE_NAME, CANNOT_FIND_NAME]);
    });
  }

  test('src/webview: the DOM exists, Node does not (process, a bare "fs")', () => {
    const code = "import { readFileSync } from 'fs';\nexport const read = readFileSync;\nexport const key = process.env['X'];\nexport const node = document.createElement('div');\n";
    assert.deepEqual(tscErrors('src/webview/tsconfig.json', 'webviewNode', code), [CANNOT_FIND_MODULE, CANNOT_FIND_NODE_NAME]);
  });

  test('src/ outside the webview (its Node-side layers): the DOM does not exist, Node does', () => {
    const code = "export const node = document.createElement('div');\nexport const win = window.location;\nexport const key = process.env['X'];\n";
    assert.deepEqual(tscErrors('src/tsconfig.json', 'nodeSideDom', code), [CANNOT_FIND_DOM_NAME, CANNOT_FIND_NAME]);
    assert.deepEqual(tscErrors('src/webview/tsconfig.json', 'webviewDom', "export const node = document.createElement('div');\nexport const win = window.location;\n"), [], 'the webview has the DOM');
  });

  test('control: the same code compiles with the root options (Node and DOM types)', () => {
    assert.deepEqual(tscErrors('tsconfig.json', 'rootGlobals', nodeGlobals), []);
    assert.deepEqual(tscErrors('tsconfig.json', 'rootNode', "import { readFileSync } from 'fs';\nexport const read = readFileSync;\n"), []);
  });
});

describe('eslint: imports across layers and type-aware rules', () => {
  const eslint = new ESLint({ cwd: root });
  /** The rule ids eslint reports for `code` as the text of `file` (a real file, so it has its layer's config). */
  async function lintRules(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    // One rule may report an import twice (as a banned name and a banned pattern): one is enough.
    return [...new Set((result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`))];
  }
  const layerRule = ['layers/imports'];
  const restricted = ['no-restricted-imports'];
  const use = (what: string): string => `export const used = ${what};\n`;

  // [what, file it is linted as, code, the rule that must reject it]
  const probes: Array<[string, string, string, string[]]> = [
    ['src/mcp imports the model adapter', 'src/mcp/abort.ts', "import { OpenAiModelClient } from '../model/openAiModelClient';\n" + use('OpenAiModelClient'), layerRule],
    ['src/model imports the MCP adapter', 'src/model/wire.ts', "import { McpHub } from '../mcp/mcpHub';\n" + use('McpHub'), layerRule],
    ['src/model imports runtime (the old nodeClock path)', 'src/model/wire.ts', "import { createHub } from '../runtime/compose';\n" + use('createHub'), layerRule],
    ['src/shared imports the core', 'src/shared/budgetText.ts', "import { KILL_AFTER_TIMEOUTS } from '../agent/hookCaller';\n" + use('KILL_AFTER_TIMEOUTS'), layerRule],
    ['src/webview imports a bare "fs"', 'src/webview/markdown.ts', "import { readFileSync } from 'fs';\n" + use('readFileSync'), layerRule],
    ['src/webview imports openai', 'src/webview/markdown.ts', "import OpenAI from 'openai';\n" + use('OpenAI'), layerRule],
    ['src/webview imports the MCP SDK', 'src/webview/markdown.ts', "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" + use('Client'), layerRule],
    ['src/shared imports node:fs', 'src/shared/budgetText.ts', "import { readFileSync } from 'node:fs';\n" + use('readFileSync'), layerRule],
    ['src/agent imports a bare "events" (Node\'s)', 'src/agent/errorMessage.ts', "import { EventEmitter } from 'events';\n" + use('EventEmitter'), layerRule],
    ['a server three folders deep imports the MCP adapter', 'src/servers/tests/formats/failureText.ts', "import { McpHub } from '../../../mcp/mcpHub';\n" + use('McpHub'), layerRule],
    ['a server three folders deep imports the model adapter', 'src/servers/tests/formats/failureText.ts', "import { OpenAiModelClient } from '../../../model/openAiModelClient';\n" + use('OpenAiModelClient'), layerRule],
    ['src/runtime imports the CLI', 'src/runtime/compose.ts', "import { USAGE } from '../cli/cliArgs';\n" + use('USAGE'), layerRule],
    ['src/extension imports webview code', 'src/extension/agentHost.ts', "import { el } from '../webview/dom';\n" + use('el'), layerRule],
    ["src/model does `await import('vscode')`", 'src/model/wire.ts', "export async function load(): Promise<unknown> {\n  return await import('vscode');\n}\n", layerRule],
    ["src/agent does `await import('node:fs')`", 'src/agent/errorMessage.ts', "export async function load(): Promise<unknown> {\n  return await import('node:fs');\n}\n", layerRule],
    ['src/model imports the MCP SDK', 'src/model/wire.ts', "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" + use('Client'), restricted],
    ['src/mcp imports vscode', 'src/mcp/abort.ts', "import * as vscode from 'vscode';\n" + use('vscode'), restricted],
    ['src/cli imports vscode', 'src/cli/cliArgs.ts', "import * as vscode from 'vscode';\n" + use('vscode'), restricted],
    ['the core reads Date.now()', 'src/agent/errorMessage.ts', use('Date.now()'), ['no-restricted-properties']],
    ['the core reads new Date()', 'src/agent/errorMessage.ts', use('new Date().getTime()'), ['no-restricted-syntax']],
    ['src/agentHooks imports node:fs', 'src/agentHooks/payloadFields.ts', "import { readFileSync } from 'node:fs';\n" + use('readFileSync'), layerRule],
    ['src/agentHooks imports the CLI', 'src/agentHooks/payloadFields.ts', "import { runCli } from '../cli/runCli';\n" + use('runCli'), layerRule],
  ];
  for (const [what, file, code, rules] of probes) {
    test(`${what}: rejected`, async () => assert.deepEqual(await lintRules(file, code), rules));
  }

  test('a file in a folder of src/ that belongs to no layer: rejected, saying where the table is', async () => {
    // The folder does not exist, so the type-aware rules (which need the file in a project) are off here.
    const untyped = new ESLint({
      cwd: root,
      overrideConfig: [{ files: ['src/**/*.ts'], languageOptions: { parserOptions: { projectService: false } }, rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/switch-exhaustiveness-check': 'off' } }],
    });
    const [fresh] = await untyped.lintText('export const x = 1;\n', { filePath: join(root, 'src/newlayer/thing.ts') });
    assert.deepEqual(fresh?.messages.map((m) => m.ruleId), ['layers/imports']);
    assert.match(fresh?.messages[0]?.message ?? '', /src\/newlayer belongs to no layer: add it to the layer table in eslint\.config\.mjs/);
    const [known] = await untyped.lintText('export const x = 1;\n', { filePath: join(root, 'src/platform/thing.ts') });
    assert.deepEqual(known?.messages, [], 'control: the same file in a layer passes');
  });

  test('control: the same imports pass where the layers allow them', async () => {
    assert.deepEqual(await lintRules('src/extension/agentHost.ts', "import { OpenAiModelClient } from '../model/openAiModelClient';\n" + use('OpenAiModelClient')), []);
    assert.deepEqual(await lintRules('src/runtime/compose.ts', "import { readFileSync } from 'node:fs';\n" + use('readFileSync')), []);
    assert.deepEqual(await lintRules('src/agent/errorMessage.ts', "import type { AgentEvent } from './events';\nexport type Used = AgentEvent;\n"), [], "the core's own ./events is not Node's events");
    assert.deepEqual(await lintRules('src/servers/tests/formats/failureText.ts', "import { nodeClock } from '../../../platform/nodeClock';\n" + use('nodeClock')), [], 'a deep server file may import platform');
    assert.deepEqual(await lintRules('src/model/wire.ts', "import { nodeClock } from '../platform/nodeClock';\n" + use('nodeClock')), [], 'the model adapter imports the clock from platform');
    assert.deepEqual(await lintRules('src/webview/markdown.ts', "import MarkdownIt from 'markdown-it';\nimport { budgetText } from '../shared/budgetText';\n" + use('[MarkdownIt, budgetText]')), [], 'the webview imports its allowlisted packages and shared');
    assert.deepEqual(await lintRules('src/runtime/compose.ts', use('Date.now()')), [], 'outside the core the clock is free');
    assert.deepEqual(await lintRules('src/agentHooks/payloadFields.ts', "import { capHookField } from '../agent/hookEnvelope';\n" + use('capHookField')), [], 'agent formats may use the core');
  });

  test('a floating promise and a non-exhaustive switch are rejected; awaited and exhaustive code passes', async () => {
    const floating = 'async function work(): Promise<void> {}\nexport function start(): void {\n  work();\n}\n';
    const partial = "export function size(s: 'a' | 'b'): number {\n  switch (s) {\n    case 'a':\n      return 1;\n  }\n  return 0;\n}\n";
    assert.deepEqual(await lintRules('src/agent/errorMessage.ts', floating), ['@typescript-eslint/no-floating-promises']);
    assert.deepEqual(await lintRules('src/agent/errorMessage.ts', partial), ['@typescript-eslint/switch-exhaustiveness-check']);
    const fine = "async function work(): Promise<void> {}\nexport async function start(): Promise<void> {\n  await work();\n}\nexport function size(s: 'a' | 'b'): number {\n  switch (s) {\n    case 'a':\n      return 1;\n    case 'b':\n      return 2;\n  }\n}\n";
    assert.deepEqual(await lintRules('src/agent/errorMessage.ts', fine), []);
  });
});
