/**
 * The code block toolbar's actions in the editor: insert the code at the cursor of the editor the user
 * worked in last, or make it the content of a file (the path the fence named, else that editor's
 * file). Both go through the editor's own edits, so Ctrl+Z takes them back; "apply" leaves the file
 * unsaved and open, for the user to review and save.
 */
import * as vscode from 'vscode';

/** The text editor the user worked in last (a focused webview is not one). */
function lastEditor(): vscode.TextEditor | undefined {
  return vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'file' || e.document.uri.scheme === 'untitled');
}

export async function insertAtCursor(text: string): Promise<boolean> {
  const editor = lastEditor();
  if (!editor) {
    void vscode.window.showInformationMessage('Sprout: open a file first; the code goes where its cursor is.');
    return false;
  }
  const done = await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, text);
  });
  if (done) await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  return done;
}

function targetUri(path: string | undefined): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (path !== undefined && folder) {
    const target = vscode.Uri.joinPath(folder, path);
    // A fence's path is model text: it must stay inside the workspace folder.
    if (target.path.startsWith(`${folder.path}/`)) return target;
  }
  return lastEditor()?.document.uri;
}

export async function applyToFile(text: string, path?: string): Promise<vscode.Uri | undefined> {
  const uri = targetUri(path);
  if (!uri) {
    void vscode.window.showInformationMessage('Sprout: open the file to apply the code to (or name it after the fence language, e.g. ```ts src/a.ts).');
    return undefined;
  }
  const edit = new vscode.WorkspaceEdit();
  let exists = true;
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    exists = false;
  }
  if (exists) {
    const doc = await vscode.workspace.openTextDocument(uri);
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  } else {
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), text);
  }
  if (!(await vscode.workspace.applyEdit(edit))) return undefined;
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.window.showInformationMessage(`Sprout: applied the code to ${vscode.workspace.asRelativePath(uri)} (unsaved; Ctrl+Z takes it back).`);
  return uri;
}
