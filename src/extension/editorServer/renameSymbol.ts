/**
 * `rename_symbol` of the editor's own server (docs/servers.md#editor-what-vs-code-knows-vs-code-only): the language server's rename
 * (`vscode.executeDocumentRenameProvider`) applied as one workspace edit and saved. It writes, so it is
 * not read-only (its annotations say so, and approvals ask). The edit is planned the same way by the
 * checkpoints (src/extension/checkpoints/checkpointToolHost.ts), which read every file it touches
 * before and after the call, so "Undo" restores them. Paths are confined to the workspace: the file
 * named and every file the edit would touch; a file with unsaved changes is not renamed in (its
 * changes would be saved with the rename). A rename the language server refuses returns its words.
 * The edit goes through the Problems watch (`EditPort`): every file it changes counts as changed by the
 * turn, with the errors it had just before the edit as old.
 */
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/server';
import * as vscode from 'vscode';
import { errorMessage } from '../../agent/errorMessage';
import { displayPath, isInside, realRoot, resolveInWorkspace } from '../../servers/common/safePath';

export interface RenameArgs {
  path: string;
  line: number;
  column: number;
  newName: string;
}

export interface PlannedRename {
  edit: vscode.WorkspaceEdit;
  /** Every file the edit changes: workspace-relative and absolute. */
  files: { path: string; absolute: string; uri: vscode.Uri }[];
  edits: number;
}

/** The rename as the language server plans it, or why it cannot be done (its own words when it refuses). */
export async function planRename(workspaceFolder: string, args: RenameArgs): Promise<PlannedRename | { error: string }> {
  let root: string;
  let absolute: string;
  try {
    root = realRoot(workspaceFolder);
    absolute = resolveInWorkspace(root, args.path);
  } catch (error) {
    return { error: errorMessage(error) };
  }
  if (args.newName.trim() === '') return { error: 'newName is empty: give the new name of the symbol.' };
  const uri = vscode.Uri.file(absolute);
  let edit: vscode.WorkspaceEdit | undefined;
  try {
    edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', uri, new vscode.Position(args.line - 1, args.column - 1), args.newName);
  } catch (error) {
    return { error: `The language server refused the rename at ${args.path}:${args.line}:${args.column}: ${errorMessage(error)}` };
  }
  const entries = edit?.entries() ?? [];
  if (edit === undefined || entries.length === 0) return { error: `No rename at ${args.path}:${args.line}:${args.column}: no language server offers one there (is it a symbol, in a file a language server knows?).` };
  const outside = entries.map(([u]) => u).filter((u) => u.scheme !== 'file' || !isInside(root, u.fsPath));
  if (outside.length > 0) return { error: `The rename would change files outside the workspace (${outside.map((u) => u.toString()).join(', ')}); nothing was changed.` };
  const files = entries.map(([u]) => ({ uri: u, absolute: u.fsPath, path: displayPath(root, u.fsPath) }));
  return { edit, files, edits: entries.reduce((n, [, e]) => n + e.length, 0) };
}

/**
 * How an edit of the editor server is applied so that the Problems hook knows of it (problemsWatch.ts):
 * `prepare` takes the diagnostics the files have before it (true when it opened or checked them, so the
 * edit is planned again on what the editor now holds), `apply` applies it and records every file it changes.
 */
export interface EditPort {
  prepare(uris: readonly vscode.Uri[], signal?: AbortSignal): Promise<boolean>;
  apply(edit: vscode.WorkspaceEdit): Promise<boolean>;
}

/** The tool: plans, refuses over unsaved files, applies as one edit and saves each file (the disk is checked). */
export async function renameSymbol(workspaceFolder: string, args: RenameArgs, edits: EditPort, signal?: AbortSignal): Promise<CallToolResult> {
  const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
  let plan = await planRename(workspaceFolder, args);
  if ('error' in plan) return failure(plan.error);
  if (await edits.prepare(plan.files.map((f) => f.uri), signal)) plan = await planRename(workspaceFolder, args);
  if ('error' in plan) return failure(plan.error);
  const dirty = plan.files.filter((f) => vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === f.uri.toString()));
  if (dirty.length > 0) return failure(`${dirty.map((f) => f.path).join(', ')} ha${dirty.length === 1 ? 's' : 've'} unsaved changes in the editor; nothing was renamed (ask the user to save or revert first).`);
  if (!(await edits.apply(plan.edit))) return failure('VS Code refused to apply the rename; nothing was changed.');
  const unsaved: string[] = [];
  for (const file of plan.files) if (!(await saveToDisk(file))) unsaved.push(file.path);
  const text = `Renamed to ${args.newName}: ${plan.edits} edit(s) in ${plan.files.length} file(s): ${plan.files.map((f) => f.path).join(', ')}.`;
  if (unsaved.length === 0) return { content: [{ type: 'text', text }] };
  return failure(`${text} But these files on disk do not hold the rename (it is only in the editor, unsaved): ${unsaved.join(', ')}. Save them, or ask the user to.`);
}

/** The file's text on disk (without a byte order mark), or undefined when it cannot be read. */
function onDisk(absolute: string): string | undefined {
  try {
    return readFileSync(absolute, 'utf8').replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

/**
 * Saves the renamed document and says whether the file on disk now holds its text: the disk is the
 * truth, not `save()`'s answer (false for a document VS Code does not count as modified, true when
 * a save it joined wrote another version). A disk that does not match gets one more save.
 */
async function saveToDisk(file: PlannedRename['files'][number]): Promise<boolean> {
  const doc = await vscode.workspace.openTextDocument(file.uri);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    await doc.save().then(undefined, () => false);
    if (onDisk(file.absolute) === doc.getText()) return true;
  }
  return false;
}
