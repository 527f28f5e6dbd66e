/**
 * What the Problems `_Stop` compares: the diagnostics known when a prompt started (per chat session),
 * the files changed since (edits seen by VS Code, files on disk, the `path` of each tool call the agent
 * made, and every file a workspace edit of the editor server changed, with the diagnostics it had just
 * before the edit), and a bounded wait for the changed files' diagnostics to settle, since language
 * servers answer late. Which errors are new is the core's decision (src/agent/newProblems.ts).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { beforeEdit, type Problem } from '../../agent/newProblems';

export type { Problem } from '../../agent/newProblems';

const SEVERITIES: Problem['severity'][] = ['error', 'warning', 'info', 'hint'];
/** After the last diagnostics event of the changed files, this long without another counts as settled. */
const QUIET_MS = 300;
/** At most this many changed files are opened (so their language server checks them) at one `_Stop`. */
const MAX_OPENED = 20;

export function relativeFile(workspaceFolder: string, uri: vscode.Uri): string {
  if (uri.scheme !== 'file') return uri.toString();
  const rel = relative(workspaceFolder, uri.fsPath);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? uri.fsPath : rel.split(sep).join('/');
}

function toProblem(workspaceFolder: string, uri: vscode.Uri, d: vscode.Diagnostic): Problem {
  const code = typeof d.code === 'object' ? String(d.code.value) : d.code !== undefined ? String(d.code) : undefined;
  return {
    file: relativeFile(workspaceFolder, uri),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITIES[d.severity] ?? 'error',
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code } : {}),
  };
}

/** An open, unmodified document whose text is not the file's on disk (its reload is still to come). */
function behindDisk(uri: vscode.Uri): boolean {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (doc === undefined || doc.isDirty) return false;
  try {
    return readFileSync(uri.fsPath, 'utf8') !== doc.getText();
  } catch {
    return false;
  }
}

/** Reverts an unmodified document to the file on disk (it becomes the active editor for the revert); true when it ran. */
async function reloadFromDisk(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: false });
    if (vscode.window.activeTextEditor?.document.uri.toString() !== uri.toString() || vscode.window.activeTextEditor.document.isDirty) return false;
    await vscode.commands.executeCommand('workbench.action.files.revert');
    return true;
  } catch {
    return false;
  }
}

function inTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === key));
}

/** One prompt's "before" and what it changed: `named` by a tool call's `path` (shown and waited for), `changed` any way. */
export interface Turn {
  problems: Problem[];
  changed: Set<string>;
  named: Set<string>;
}

export interface SettleResult {
  settled: boolean;
  waitedMs: number;
}

export class ProblemsWatch implements vscode.Disposable {
  private readonly snapshots = new Map<string, Turn>();
  /** When each file's diagnostics last changed, and when the file itself last changed (ms, by uri string). */
  private readonly diagnosedAt = new Map<string, number>();
  private readonly changedAt = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly workspaceFolder: string,
    private readonly log?: (message: string) => void,
  ) {
    this.disposables.push(
      vscode.languages.onDidChangeDiagnostics((event) => {
        const now = Date.now();
        for (const uri of event.uris) this.diagnosedAt.set(uri.toString(), now);
        for (const wake of [...this.waiters]) wake();
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.fileChanged(event.document.uri);
      }),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(workspaceFolder, '**/*'));
    this.disposables.push(watcher, watcher.onDidChange((uri) => this.fileChanged(uri)), watcher.onDidCreate((uri) => this.fileChanged(uri)));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.snapshots.clear();
  }

  /** Every diagnostic VS Code knows now, as problems. */
  all(): Problem[] {
    return vscode.languages.getDiagnostics().flatMap(([uri, list]) => list.map((d) => toProblem(this.workspaceFolder, uri, d)));
  }

  /** A prompt starts in this chat session: what is known now is "before". */
  snapshot(session: string): void {
    this.snapshots.set(session, { problems: this.all(), changed: new Set(), named: new Set() });
  }

  /** A tool call named this path (relative to the workspace, or absolute): the turn may have changed it. */
  touched(session: string, path: string): void {
    const uri = vscode.Uri.file(isAbsolute(path) ? path : join(this.workspaceFolder, path));
    const turn = this.snapshots.get(session);
    const file = relativeFile(this.workspaceFolder, uri);
    // The tool has written it by now: a report from before is stale, even when the editor's reload of
    // the document (and so its change event) comes later.
    this.changedAt.set(uri.toString(), Date.now());
    turn?.changed.add(file);
    turn?.named.add(file);
  }

  /**
   * A workspace edit of the editor server is about to change `uris`. For each turn that has not changed
   * some of them yet, their diagnostics now (the files are shown and checked first, within `budgetMs`)
   * join its "before", so a file no one had open when the prompt started keeps its old errors old. True
   * when it checked files (their documents may have been opened or reloaded since the edit was planned).
   */
  async beforeEdit(uris: readonly vscode.Uri[], budgetMs: number, signal?: AbortSignal): Promise<boolean> {
    const files = uris.filter((u) => u.scheme === 'file').map((u) => relativeFile(this.workspaceFolder, u));
    const fresh = new Map([...this.snapshots.values()].map((turn) => [turn, new Set(files.filter((f) => !turn.changed.has(f)))] as const));
    if (![...fresh.values()].some((set) => set.size > 0)) return false;
    const settle = await this.settle(files, budgetMs, signal);
    if (!settle.settled) this.log?.(`editor: the diagnostics of ${files.length} file(s) an edit changes did not settle within ${settle.waitedMs} ms before it; their errors not reported yet will count as new.`);
    const now = this.all();
    for (const [turn, unchanged] of fresh) turn.problems = beforeEdit(turn.problems, now, unchanged);
    return true;
  }

  /** Applies a workspace edit of the editor server and records every file it changes (`edited`); false when VS Code refused it. */
  async apply(edit: vscode.WorkspaceEdit): Promise<boolean> {
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    this.edited(edit.entries().map(([uri]) => uri));
    return true;
  }

  /**
   * A workspace edit of the editor server changed `uris`: every watched turn changed them (the tool call does not say
   * whose it is; other changes count for every turn too), and `_Stop` waits for their diagnostics as for a file a call named.
   */
  edited(uris: readonly vscode.Uri[]): void {
    for (const uri of uris) {
      if (uri.scheme !== 'file') continue;
      this.changedAt.set(uri.toString(), Date.now());
      const file = relativeFile(this.workspaceFolder, uri);
      for (const turn of this.snapshots.values()) {
        turn.changed.add(file);
        turn.named.add(file);
      }
    }
  }

  private fileChanged(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    this.changedAt.set(uri.toString(), Date.now());
    const file = relativeFile(this.workspaceFolder, uri);
    if (file.startsWith('.git/') || file.includes('/node_modules/') || file.startsWith('node_modules/')) return;
    for (const snap of this.snapshots.values()) snap.changed.add(file);
  }

  /** The files the session's turn changed, and its snapshot (undefined: no prompt started while the server ran). */
  turn(session: string): Turn | undefined {
    return this.snapshots.get(session);
  }

  /**
   * The files `_Stop` waits for: those a tool call named, and other changed files already in a tab (a
   * build's outputs, changed by a command, are never opened for it).
   */
  toSettle(turn: Turn): string[] {
    const inTabs = [...turn.changed].filter((f) => !turn.named.has(f) && inTab(vscode.Uri.file(isAbsolute(f) ? f : join(this.workspaceFolder, f))));
    return [...turn.named, ...inTabs];
  }

  /**
   * Shows the changed files not in a tab yet (so their language servers check them) and waits until each has had a
   * diagnostics report since it last changed and none came for a short quiet time, at most `budgetMs`.
   */
  async settle(files: readonly string[], budgetMs: number, signal?: AbortSignal): Promise<SettleResult> {
    const started = Date.now();
    const uris = files.slice(0, MAX_OPENED).map((f) => vscode.Uri.file(isAbsolute(f) ? f : join(this.workspaceFolder, f)));
    // The TypeScript extension checks only files open in a tab: a changed file not in one is shown, without focus.
    for (const uri of uris) if (!inTab(uri)) await Promise.resolve(vscode.window.showTextDocument(uri, { preview: false, preserveFocus: true })).catch(() => undefined);
    const keys = uris.map((u) => u.toString());
    const reloaded = new Set<string>();
    const isSettled = (): { done: boolean; wait: number } => {
      const now = Date.now();
      let last = 0;
      // An open document the editor has not reloaded from disk yet is checked as it was: not settled.
      if (uris.some((uri) => behindDisk(uri))) return { done: false, wait: QUIET_MS };
      for (const key of keys) {
        const diagnosed = this.diagnosedAt.get(key);
        if (diagnosed === undefined || diagnosed < (this.changedAt.get(key) ?? 0)) return { done: false, wait: QUIET_MS };
        last = Math.max(last, diagnosed);
      }
      const quietFor = now - last;
      return quietFor >= QUIET_MS ? { done: true, wait: 0 } : { done: false, wait: QUIET_MS - quietFor };
    };
    for (;;) {
      // A file watcher can be slow to tell the editor of a write by another process (the workspace server): an
      // unmodified document still showing the old text is reloaded from disk (a revert loses nothing: no edits).
      for (const uri of uris) if (!reloaded.has(uri.toString()) && behindDisk(uri) && (await reloadFromDisk(uri))) reloaded.add(uri.toString());
      const { done, wait } = isSettled();
      if (done) return { settled: true, waitedMs: Date.now() - started };
      const left = budgetMs - (Date.now() - started);
      if (left <= 0 || signal?.aborted) return { settled: false, waitedMs: Date.now() - started };
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(wait, left));
        this.waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }
}
