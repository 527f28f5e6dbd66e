// The editor's own server (`editor`, in-process) with VS Code's built-in TypeScript language server that
// ships with code-server, on a small TS project in the workspace: `get_problems` reports an old type
// error with file:line and source `ts`, `find_usages` finds a function's uses with their line text, and
// with the Problems hook on (sprout.hooks.servers names `editor`), an agent driven by the fake model that
// writes a file with a type error is objected to by `_Stop` naming the file and line; the next round
// fixes it and the check passes. The old error in a file the turn did not touch never objects.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { clearProblemsHook, sproutApi as api, until, useProblemsHook } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const project = join(workspaceFolder, 'problems-ts');
const write = (path: string, content: string) => fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path, content } }]);
const call = async (tool: string, args: Record<string, unknown>) => {
  const hub = await (await api()).host.ensureServers();
  return hub.callTool('editor', tool, args, { signal: new AbortController().signal });
};

describe('the editor server and the Problems hook (TypeScript)', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi | undefined;

  before(async () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', noEmit: true }, include: ['src'] }));
    writeFileSync(join(project, 'src', 'cart.ts'), 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n');
    writeFileSync(join(project, 'src', 'use.ts'), "import { total } from './cart';\n\nexport const sum = total([1, 2]);\nexport const none = total([]);\n");
    // An error that was there before any prompt: it must never object.
    writeFileSync(join(project, 'src', 'old.ts'), "export const legacy: number = 'old';\n");
  });

  after(async () => {
    await clearProblemsHook();
    rmSync(project, { recursive: true, force: true });
    await fake?.close();
  });

  it('get_problems reports the old error with file:line and source; find_usages lists the uses with their text', async () => {
    // The TypeScript extension checks files open in tabs: show the old one and wait for its report.
    const old = vscode.Uri.file(join(project, 'src', 'old.ts'));
    await vscode.window.showTextDocument(old, { preview: false });
    console.log('      (waiting for the TypeScript server to check old.ts)');
    await until(() => vscode.languages.getDiagnostics(old).length > 0 || undefined, 'the TypeScript server to report old.ts', 60_000);
    const problems = await call('get_problems', { paths: ['problems-ts/src/old.ts'], severity: 'error' });
    assert.equal(problems.isError, false, problems.text);
    assert.match(problems.text, /^problems-ts\/src\/old\.ts:1:\d+ error ts\(2322\): Type 'string' is not assignable to type 'number'\./m);
    const usages = await call('find_usages', { path: 'problems-ts/src/cart.ts', line: 1, column: 17 });
    assert.equal(usages.isError, false, usages.text);
    const rows = usages.text.split('\n').sort();
    assert.deepEqual(rows, [
      'problems-ts/src/cart.ts:1:17: export function total(items: number[]): number {',
      "problems-ts/src/use.ts:1:10: import { total } from './cart';",
      'problems-ts/src/use.ts:3:20: export const sum = total([1, 2]);',
      'problems-ts/src/use.ts:4:21: export const none = total([]);',
    ]);
    const definition = await call('go_to_definition', { path: 'problems-ts/src/use.ts', line: 3, column: 20 });
    assert.equal(definition.text, 'problems-ts/src/cart.ts:1:17: export function total(items: number[]): number {');
    const symbols = await call('document_symbols', { path: 'problems-ts/src/cart.ts' });
    // Nested symbols are indented under their parent (TypeScript names the reduce callback too).
    assert.equal(symbols.text, 'problems-ts/src/cart.ts:1 Function total\nproblems-ts/src/cart.ts:2   Function items.reduce() callback');
  });

  it('workspace_symbols finds a function by part of its name (without the "()" TypeScript labels it with); no match says so', async () => {
    // TypeScript searches the projects of open files (old.ts, open since the test above, is in this one)
    // and labels functions `name()` (getLabel in
    // https://github.com/microsoft/vscode/blob/main/extensions/typescript-language-features/src/languageFeatures/workspaceSymbols.ts).
    const found = await call('workspace_symbols', { query: 'tota' });
    assert.equal(found.isError, false, found.text);
    assert.ok(found.text.split('\n').includes('problems-ts/src/cart.ts:1 Function total'), found.text);
    const none = await call('workspace_symbols', { query: 'zqxNoSuchSymbolAnywhere' });
    assert.equal(none.isError, false, none.text);
    assert.match(none.text, /^No symbols match "zqxNoSuchSymbolAnywhere" \(.*open a file of the symbol's project.*\)\.$/);
  });

  it('_Stop objects to the new type error with file:line, the next round fixes it and the check passes', async () => {
    const sprout = await api();
    fake = await startFakeOpenAi({
      responses: [
        write('problems-ts/src/count.ts', "import { total } from './cart';\n\nexport const count: string = total([1]);\n"),
        fakeReply.text('Done: added count.ts.'),
        write('problems-ts/src/count.ts', "import { total } from './cart';\n\nexport const count: number = total([1]);\n"),
        fakeReply.text('Fixed the type of count.'),
      ],
      models: ['fake-model'],
    });
    // The model's writes run unasked.
    await useProblemsHook(sprout, fake, ['workspace__write_file']);
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const sent = sprout.controller.send('Add a count of the cart.');
    await sent;
    const objections = chat.view.entries.filter((e) => e.kind === 'objection');
    assert.equal(objections.length, 1, `entries: ${JSON.stringify(chat.view.entries).slice(0, 4000)}`);
    const objection = objections[0];
    assert.ok(objection?.kind === 'objection');
    assert.equal(objection.server, 'editor');
    assert.deepEqual(
      objection.failures?.map((f) => [f.name, f.file, f.line]),
      [['ts(2322)', 'problems-ts/src/count.ts', 3]],
      'only the new error, not the old one in old.ts',
    );
    assert.match(objection.failures?.[0]?.message ?? '', /Type 'number' is not assignable to type 'string'/);
    assert.match(objection.text, /problems-ts\/src\/count\.ts:3:\d+ error ts\(2322\)/);
    assert.doesNotMatch(objection.text, /old\.ts/);
    const last = chat.view.entries.at(-1);
    assert.ok(chat.view.entries.some((e) => e.kind === 'assistant' && e.text.includes('Fixed the type of count.')), 'the fixed round ended the turn');
    assert.notEqual(last?.kind, 'objection');
    assert.equal(fake.requests.length, 4, 'four model rounds: write, done (objected), fix, done (passed)');
  });
});
