// The Problems `_Stop` after `rename_symbol`, with VS Code's built-in TypeScript server: the rename is one
// workspace edit that also changes files the call does not name, and none of them is open when the
// prompt starts (so the prompt's snapshot knows nothing of their errors). Renaming an interface's method
// into the name of another method of its implementing class breaks that OTHER file (a duplicate
// implementation): `_Stop` objects with that file's new errors at file:line, and not with the old error
// the file had before the rename; the next round fixes it and the check passes. A second rename that
// breaks nothing is not objected to, although its other file has an old error too.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { cardsText, clearProblemsHook, sproutApi as api, toolCards, until, useProblemsHook } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const project = join(workspaceFolder, 'rename-problems-ts');
const file = (name: string) => vscode.Uri.file(join(project, 'src', name));
const SHAPE = 'export interface Shape {\n  area(): number;\n}\n\nexport interface Named {\n  label(): string;\n}\n';
// Each implementing file has an error from before any prompt (line 3): it must never object.
const OLD = "export const legacy: number = 'old';\n";
const SQUARE = `import type { Shape } from './shape';\n\n${OLD}\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n  perimeter(): number {\n    return 8;\n  }\n}\n`;
const SQUARE_FIXED = `import type { Shape } from './shape';\n\n${OLD}\nexport class Square implements Shape {\n  perimeter(): number {\n    return 8;\n  }\n}\n`;
const CIRCLE = `import type { Named } from './shape';\n\n${OLD}\nexport class Circle implements Named {\n  label(): string {\n    return 'circle';\n  }\n}\n`;
const rename = (line: number, column: number, newName: string) =>
  fakeReply.toolCalls([{ name: 'editor__rename_symbol', arguments: { path: 'rename-problems-ts/src/shape.ts', line, column, newName } }]);

/** The files a `rename_symbol` result names, sorted (undefined when it is not a rename into `name`). */
const renamedFiles = (result: string | undefined, name: string) =>
  new RegExp(`^Renamed to ${name}: \\d+ edit\\(s\\) in \\d+ file\\(s\\): (.+)\\.$`).exec(result ?? '')?.[1]?.split(', ').sort();

/** The rename TypeScript plans at shape.ts's line:column, asked anew on each look until it reaches `other`. */
async function renameReaches(line: number, column: number, other: string): Promise<void> {
  let files: string[] = [];
  await until(() => {
    void vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', file('shape.ts'), new vscode.Position(line - 1, column - 1), 'probe').then(
      (edit) => (files = edit?.entries().map(([u]) => u.fsPath) ?? []),
      () => (files = []),
    );
    return files.includes(file(other).fsPath) || undefined;
  }, `the TypeScript server to plan a rename at shape.ts:${line}:${column} into ${other}`, 90_000);
}

describe('the Problems hook after rename_symbol (TypeScript)', function () {
  this.timeout(180_000);
  let fake: FakeOpenAi | undefined;

  before(async () => {
    assert.ok(workspaceFolder, 'the runner passes SPROUT_TEST_WORKSPACE');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', noEmit: true }, include: ['src'] }));
    writeFileSync(join(project, 'src', 'shape.ts'), SHAPE);
    writeFileSync(join(project, 'src', 'square.ts'), SQUARE);
    writeFileSync(join(project, 'src', 'circle.ts'), CIRCLE);
    fake = await startFakeOpenAi({
      responses: [
        rename(2, 3, 'perimeter'),
        fakeReply.text('Renamed area to perimeter.'),
        fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'rename-problems-ts/src/square.ts', content: SQUARE_FIXED } }]),
        fakeReply.text('Removed the duplicate perimeter.'),
        rename(6, 3, 'title'),
        fakeReply.text('Renamed label to title.'),
      ],
      models: ['fake-model'],
    });
    await useProblemsHook(await api(), fake, ['editor__rename_symbol', 'workspace__write_file']);
    // The TypeScript server loads the project of a file open in a tab: only shape.ts is.
    await vscode.window.showTextDocument(file('shape.ts'), { preview: false });
  });

  after(async () => {
    await clearProblemsHook();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(project, { recursive: true, force: true });
    await fake?.close();
  });

  it("objects to the new errors the rename made in the OTHER file, with file:line, not to that file's old error; the fix passes", async () => {
    await renameReaches(2, 3, 'square.ts');
    assert.deepEqual(vscode.languages.getDiagnostics(file('square.ts')), [], 'square.ts was never checked: the prompt knows none of its errors');
    const sprout = await api();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    await sprout.controller.send('Rename area to perimeter.');
    const entries = chat.view.entries;
    const renamed = toolCards(entries).find((c) => c.name === 'editor__rename_symbol');
    assert.deepEqual(renamedFiles(renamed?.result, 'perimeter'), ['rename-problems-ts/src/shape.ts', 'rename-problems-ts/src/square.ts'], cardsText(entries));
    const objections = entries.filter((e) => e.kind === 'objection');
    assert.equal(objections.length, 1, `entries: ${JSON.stringify(entries).slice(0, 4000)}`);
    const objection = objections[0];
    assert.ok(objection?.kind === 'objection');
    assert.equal(objection.server, 'editor');
    // TypeScript reports a duplicate implementation on both methods now named perimeter (lines 6 and 9).
    assert.deepEqual(
      objection.failures?.map((f) => [f.name, f.file, f.line]),
      [
        ['ts(2393)', 'rename-problems-ts/src/square.ts', 6],
        ['ts(2393)', 'rename-problems-ts/src/square.ts', 9],
      ],
      'the other file the rename changed, only its new errors',
    );
    assert.match(objection.text, /rename-problems-ts\/src\/square\.ts:6:\d+ error ts\(2393\): Duplicate function implementation\./);
    assert.doesNotMatch(objection.text, /legacy|not assignable|square\.ts:3:/, 'the old error of square.ts is not new');
    assert.ok(entries.some((e) => e.kind === 'assistant' && e.text.includes('Removed the duplicate perimeter.')), 'the fixed round ended the turn');
    const end = entries.findLast((e) => e.kind === 'outcome');
    assert.equal(end?.kind === 'outcome' ? end.verdict : undefined, 'passed');
    assert.equal(readFileSync(join(project, 'src', 'square.ts'), 'utf8'), SQUARE_FIXED);
    assert.equal(fake?.requests.length, 4, 'four model rounds: rename, done (objected), fix, done (passed)');
  });

  it("a rename that breaks nothing is not objected to, although its other file (never open before) has an old error", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(file('shape.ts'), { preview: false });
    await renameReaches(6, 3, 'circle.ts');
    assert.deepEqual(vscode.languages.getDiagnostics(file('circle.ts')), [], 'circle.ts was never checked: the prompt knows none of its errors');
    const sprout = await api();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    await sprout.controller.send('Rename label to title.');
    const entries = chat.view.entries;
    const renamed = toolCards(entries).find((c) => c.name === 'editor__rename_symbol');
    assert.deepEqual(renamedFiles(renamed?.result, 'title'), ['rename-problems-ts/src/circle.ts', 'rename-problems-ts/src/shape.ts'], cardsText(entries));
    assert.equal(readFileSync(join(project, 'src', 'circle.ts'), 'utf8'), CIRCLE.replace('label', 'title'));
    // The old error is there, now checked (the rename showed circle.ts), and it is not new.
    assert.ok(vscode.languages.getDiagnostics(file('circle.ts')).some((d) => /not assignable/.test(d.message)), 'the TypeScript server checked circle.ts');
    assert.deepEqual(entries.filter((e) => e.kind === 'objection'), [], `entries: ${JSON.stringify(entries).slice(0, 4000)}`);
    const end = entries.findLast((e) => e.kind === 'outcome');
    assert.equal(end?.kind === 'outcome' ? end.verdict : undefined, 'passed');
    assert.equal(fake?.requests.length, 6);
  });
});
