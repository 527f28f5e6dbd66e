// `rename_symbol` of the editor's own server with VS Code's built-in TypeScript language server (it
// ships with code-server), driven by the fake model through the chat: the call is asked like any write
// (it is not read-only), the rename is one edit across the declaring file and its user, saved, the
// turn's outcome lists both files, and Undo restores both; a rename the language server refuses (a
// standard library's `reduce`) returns its words and changes nothing; a path outside the workspace is refused.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { sproutApi as api, fakeModelKeys, resetSettings, toolCards, until, useFakeModel, waitingCard } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const project = join(workspaceFolder, 'rename-ts');
const CART = 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n';
const USE = "import { total } from './cart';\n\nexport const sum = total([1, 2]);\n";

describe('rename_symbol (TypeScript)', function () {
  this.timeout(150_000);
  let fake: FakeOpenAi | undefined;

  before(() => {
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', noEmit: true }, include: ['src'] }));
    writeFileSync(join(project, 'src', 'cart.ts'), CART);
    writeFileSync(join(project, 'src', 'use.ts'), USE);
  });

  after(async () => {
    await resetSettings(fakeModelKeys());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(project, { recursive: true, force: true });
    await fake?.close();
  });

  it('renames across files after approval, then Undo restores both; a refusal and an outside path change nothing', async () => {
    const sprout = await api();
    const cart = vscode.Uri.file(join(project, 'src', 'cart.ts'));
    // The TypeScript server loads the project of a file open in a tab.
    await vscode.window.showTextDocument(cart, { preview: false });
    // Asked anew on each look (the provider answers asynchronously; `until` looks synchronously).
    let references = 0;
    await until(() => {
      void vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', cart, new vscode.Position(0, 17)).then((refs) => (references = refs?.length ?? 0));
      return references >= 3 || undefined;
    }, 'the TypeScript server to know the project', 90_000);

    fake = await startFakeOpenAi({
      responses: [
        fakeReply.toolCalls([{ name: 'editor__rename_symbol', arguments: { path: 'rename-ts/src/cart.ts', line: 1, column: 17, newName: 'grandTotal' } }]),
        fakeReply.text('Renamed.'),
      ],
    });
    await useFakeModel(sprout, fake);
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const sent = sprout.controller.send('rename total to grandTotal');
    const card = await until(() => waitingCard(chat.view.entries, new Set()), 'the approval of the rename (it writes)');
    await sprout.handle({ type: 'approve', approvalId: card.approvalId ?? '', scope: 'once' });
    await sent;
    const outcome = await until(() => chat.view.entries.find((e) => e.kind === 'outcome'), 'the turn to end');
    assert.ok(outcome.kind === 'outcome');
    const renamed = toolCards(chat.view.entries).at(-1);
    assert.match(renamed?.result ?? '', /Renamed to grandTotal: 3 edit\(s\) in 2 file\(s\): rename-ts\/src\/cart\.ts, rename-ts\/src\/use\.ts\./);
    const cartDoc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === cart.fsPath);
    assert.equal(readFileSync(join(project, 'src', 'cart.ts'), 'utf8'), CART.replace('total', 'grandTotal'), `${renamed?.result} (editor: dirty ${cartDoc?.isDirty}, ${JSON.stringify(cartDoc?.getText())})`);
    assert.equal(readFileSync(join(project, 'src', 'use.ts'), 'utf8'), USE.replaceAll('total', 'grandTotal'));
    assert.deepEqual([...(outcome.files?.paths ?? [])].sort(), ['rename-ts/src/cart.ts', 'rename-ts/src/use.ts']);

    // Undo waits for the chat to stop running (the outcome card comes a little before).
    await until(() => !chat.running || undefined, 'the chat to stop running');
    const state = () => ['cart.ts', 'use.ts'].map((f) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === join(project, 'src', f));
      return `${f}: disk ${JSON.stringify(readFileSync(join(project, 'src', f), 'utf8'))}, editor ${doc === undefined ? 'closed' : `${doc.isDirty ? 'dirty ' : ''}${JSON.stringify(doc.getText())}`}`;
    }).join('; ');
    const before = state();
    assert.equal(await sprout.controller.undoTurn(outcome.turn ?? -1), true, `${before} -> ${state()}`);
    assert.equal(readFileSync(join(project, 'src', 'cart.ts'), 'utf8'), CART);
    assert.equal(readFileSync(join(project, 'src', 'use.ts'), 'utf8'), USE);

    const hub = await sprout.host.ensureServers();
    const call = (args: Record<string, unknown>) => hub.callTool('editor', 'rename_symbol', args, { signal: new AbortController().signal });
    // `reduce` is the standard library's: TypeScript refuses to rename it.
    const refused = await call({ path: 'rename-ts/src/cart.ts', line: 2, column: 16, newName: 'fold' });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /^The language server refused the rename at rename-ts\/src\/cart\.ts:2:16: .+|^No rename at rename-ts\/src\/cart\.ts:2:16/);
    const outside = await call({ path: '../elsewhere.ts', line: 1, column: 1, newName: 'x' });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /outside the workspace/);
    assert.equal(readFileSync(join(project, 'src', 'cart.ts'), 'utf8'), CART);
  });
});
