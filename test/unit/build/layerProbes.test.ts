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
  const restricted = ['no-restricted-imports'];
  const use = (what: string): string => `export const used = ${what};\n`;

  const probes: Array<[string, string, string]> = [
    ['src/mcp imports the model adapter', 'src/mcp/abort.ts', "import { OpenAiModelClient } from '../model/openAiModelClient';\n" + use('OpenAiModelClient')],
    ['src/model imports the MCP adapter', 'src/model/wire.ts', "import { McpHub } from '../mcp/mcpHub';\n" + use('McpHub')],
    ['src/shared imports the core', 'src/shared/budgetText.ts', "import { KILL_AFTER_TIMEOUTS } from '../agent/hookCaller';\n" + use('KILL_AFTER_TIMEOUTS')],
    ['src/webview imports a bare "fs"', 'src/webview/markdown.ts', "import { readFileSync } from 'fs';\n" + use('readFileSync')],
    ['src/shared imports node:fs', 'src/shared/budgetText.ts', "import { readFileSync } from 'node:fs';\n" + use('readFileSync')],
    ['src/agent imports a bare "events" (Node\'s)', 'src/agent/errorMessage.ts', "import { EventEmitter } from 'events';\n" + use('EventEmitter')],
    ['src/agentHooks imports node:fs', 'src/agentHooks/payloadFields.ts', "import { readFileSync } from 'node:fs';\n" + use('readFileSync')],
    ['src/agentHooks imports the CLI', 'src/agentHooks/payloadFields.ts', "import { runCli } from '../cli/runCli';\n" + use('runCli')],
  ];
  for (const [what, file, code] of probes) {
    test(`${what}: rejected`, async () => assert.deepEqual(await lintRules(file, code), restricted));
  }

  test('control: the same imports pass where the layers allow them', async () => {
    assert.deepEqual(await lintRules('src/extension/agentHost.ts', "import { OpenAiModelClient } from '../model/openAiModelClient';\n" + use('OpenAiModelClient')), []);
    assert.deepEqual(await lintRules('src/runtime/compose.ts', "import { readFileSync } from 'node:fs';\n" + use('readFileSync')), []);
    assert.deepEqual(await lintRules('src/agent/errorMessage.ts', "import type { AgentEvent } from './events';\nexport type Used = AgentEvent;\n"), [], "the core's own ./events is not Node's events");
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
