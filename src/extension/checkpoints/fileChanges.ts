/**
 * What the chat offers on the agent's file changes, from the checkpoints: "Open diff" on a tool card (the
 * VS Code diff editor, the file before the call against after it; the right side is the real file while
 * it still holds what the call wrote, so it can be edited there) and "Undo this turn's file changes"
 * on a turn's footer. Undo goes through a WorkspaceEdit, not the file system: the restore lands on the
 * editors' undo stacks (Ctrl+Z takes it back) and open editors stay in step; files that were saved
 * before are saved again, a file the user had unsaved edits in is left dirty for them to decide. An
 * undo whose save fails is not done: the user is told which files still hold the change on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { type Checkpoint, type CheckpointStore, editedOutside, netChanges } from '../../runtime/checkpointStore';

export const CHANGE_SCHEME = 'sprout-change';

/** Serves a checkpoint's before or after text to the diff editor; `store` finds a chat's checkpoints. */
export function registerChangeDocuments(store: (chatId: string) => CheckpointStore): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, {
    provideTextDocumentContent(uri) {
      const query = new URLSearchParams(uri.query);
      const record = store(query.get('chat') ?? '').get(query.get('call') ?? '');
      if (!record) return 'Sprout no longer has this checkpoint.';
      return (query.get('side') === 'before' ? record.before : record.after) ?? '';
    },
  });
}

function changeUri(chatId: string, record: Checkpoint, side: 'before' | 'after'): vscode.Uri {
  return vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${record.path}`, query: new URLSearchParams({ chat: chatId, call: record.callId, side }).toString() });
}

function currentText(absolute: string): string | null {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === absolute);
  if (open) return open.getText();
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : null;
}

export async function openChangeDiff(chatId: string, record: Checkpoint): Promise<void> {
  if (record.tooLarge) return void vscode.window.showInformationMessage(`Sprout: ${record.path} was too large to keep a copy of, so there is no diff.`);
  const left = changeUri(chatId, record, 'before');
  const live = record.after !== null && currentText(record.absolute) === record.after;
  const right = live ? vscode.Uri.file(record.absolute) : changeUri(chatId, record, 'after');
  const what = record.before === null ? 'created' : record.after === null ? 'deleted' : 'changed';
  await vscode.commands.executeCommand('vscode.diff', left, right, `${basename(record.path)} (${what} by Sprout)`, { preview: true });
}

async function restore(edit: vscode.WorkspaceEdit, change: Checkpoint): Promise<vscode.TextDocument | undefined> {
  const uri = vscode.Uri.file(change.absolute);
  if (change.before === null) {
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    return undefined;
  }
  if (!existsSync(change.absolute)) {
    edit.createFile(uri, { overwrite: true, contents: new TextEncoder().encode(change.before) });
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), change.before);
  return doc;
}

/** How a restore went: done (saved to disk too), nothing to restore, the user said no, or VS Code refused or a save failed (the user was told). */
export type RestoreResult = 'done' | 'nothing' | 'declined' | 'failed';

/**
 * Restores the files these calls changed to what they held before the first of them, the paths put
 * back with it. A file changed outside Sprout since (editedOutside) is overwritten only when `ask` says yes.
 */
export async function restoreChanges(store: CheckpointStore, callIds: readonly string[], ask: (edited: readonly string[]) => Promise<boolean>): Promise<{ result: RestoreResult; paths: string[] }> {
  const records = store.of(callIds).filter((r) => !r.undone);
  const changes = netChanges(records).filter((c) => !c.tooLarge);
  const paths = changes.map((c) => c.path);
  if (changes.length === 0) return { result: 'nothing', paths };
  const edited = editedOutside(records, currentText);
  if (edited.length > 0 && !(await ask(edited))) return { result: 'declined', paths };
  const edit = new vscode.WorkspaceEdit();
  const docs: vscode.TextDocument[] = [];
  for (const change of changes) {
    const doc = await restore(edit, change);
    if (doc) docs.push(doc);
  }
  const wasDirty = new Set(docs.filter((d) => d.isDirty).map((d) => d.uri.toString()));
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage('Sprout: VS Code refused to restore the files; nothing was changed.');
    return { result: 'failed', paths };
  }
  const unsaved: string[] = [];
  for (const doc of docs) {
    if (!wasDirty.has(doc.uri.toString()) && !(await doc.save().then(undefined, () => false))) unsaved.push(vscode.workspace.asRelativePath(doc.uri));
  }
  if (unsaved.length > 0) {
    reportUnsaved(unsaved);
    return { result: 'failed', paths };
  }
  store.markUndone(records.map((r) => r.callId));
  return { result: 'done', paths };
}

/** Restores the files these calls changed to what they held before the first of them; true when done. */
export async function undoChanges(store: CheckpointStore, callIds: readonly string[], ask = confirmOverwrite): Promise<boolean> {
  const { result, paths } = await restoreChanges(store, callIds, ask);
  if (result === 'nothing') void vscode.window.showInformationMessage('Sprout: nothing to undo in this turn.');
  if (result !== 'done') return false;
  void vscode.window.showInformationMessage(`Sprout: restored ${paths.join(', ')}. Ctrl+Z in an editor takes the restore back.`);
  return true;
}

/** The restore reached the editors but not the disk (read-only file, a save participant refused, a newer file on disk). */
function reportUnsaved(paths: readonly string[]): void {
  const one = paths.length === 1;
  void vscode.window.showErrorMessage(
    `Sprout: the undo is not complete: ${paths.join(', ')} could not be saved, so on disk ${one ? 'it still holds' : 'they still hold'} the agent's change. ` +
      `The editor shows the restored text, unsaved: save ${one ? 'it' : 'them'} (the editor says why saving failed), or choose Undo again once ${one ? 'it' : 'they'} can be saved.`,
  );
}

async function confirmOverwrite(paths: readonly string[]): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `${paths.join(', ')} changed after the agent's edit. Undo anyway?`,
    { modal: true, detail: 'Undo puts back what the files held before this turn; the later changes are replaced (Ctrl+Z in the editor brings them back).' },
    'Undo Anyway',
  );
  return choice === 'Undo Anyway';
}
