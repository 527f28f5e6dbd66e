/**
 * Mirrors the last test verdict a `_Stop` hook reported (its result's structured evidence, carried by
 * `hook_finished`) into VS Code's Testing view, through a TestController the extension owns: one
 * root item per hook server (its test command), one child per failing test at its file and line (in a
 * monorepo under a level per package and one per file), and a test run that marks them failed with
 * their messages, or the root passed when the suite is green. Stale results and "not run yet" change nothing: the view keeps the last real verdict. It
 * also opens a failure's location, confined to the workspace (hook data is untrusted).
 */
import { isAbsolute, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { HookEvidence, HookFailure } from '../../agent/hookEvidence';
import type { ViewEvent, ViewEventListener } from '../viewEvents';

export const TESTING_VIEW_COMMAND = 'workbench.view.testing.focus';

/** What the last mirrored run marked, by test item id (for the Hooks view and tests). */
export interface MirroredRun {
  server: string;
  status: string;
  failed: string[];
  passed: string[];
}

export class TestResultsMirror implements vscode.Disposable, ViewEventListener {
  private created: vscode.TestController | undefined;
  lastRun: MirroredRun | undefined;

  constructor(private readonly workspaceFolder: string) {}

  /**
   * Made with the first verdict: a registered controller puts VS Code's Testing view in the activity
   * bar, which a window whose hooks report no tests should not get (it appeared during activation,
   * moving the icons under the user's pointer).
   */
  get controller(): vscode.TestController {
    this.created ??= vscode.tests.createTestController('sprout.testHook', 'Sprout test hook');
    return this.created;
  }

  /** Whether a verdict has been mirrored (the controller exists). */
  get active(): boolean {
    return this.created !== undefined;
  }

  /** Folds the open chat's events (viewEvents.ts): a `_Stop` answer with a verdict is mirrored. */
  apply(viewEvent: ViewEvent): void {
    if (viewEvent.type !== 'agent') return;
    const event = viewEvent.event;
    if (event.type !== 'hook_finished' || event.hook !== '_Stop' || !event.evidence) return;
    const evidence = event.evidence;
    if (evidence.stale === true || evidence.status === undefined || evidence.status === 'not_run') return;
    this.mirror(event.server, evidence);
  }

  /** A workspace file for a failure's `file` (relative to the workspace, or absolute inside it). */
  uriOf(file: string): vscode.Uri | undefined {
    const absolute = resolve(this.workspaceFolder, file);
    const rel = relative(this.workspaceFolder, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
    return vscode.Uri.file(absolute);
  }

  async openLocation(file: string, line?: number): Promise<void> {
    const uri = this.uriOf(file);
    if (!uri) {
      void vscode.window.showWarningMessage(`Sprout: not opening "${file}": the hook named a file outside the workspace.`);
      return;
    }
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      void vscode.window.showWarningMessage(`Sprout: "${file}" is not in the workspace folder (a hook server rooted elsewhere names files relative to its own root).`);
      return;
    }
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(TESTING_VIEW_COMMAND);
  }

  dispose(): void {
    this.created?.dispose();
    this.created = undefined;
  }

  private mirror(server: string, evidence: HookEvidence): void {
    const counts = [`${evidence.failed ?? evidence.failures.length} failed`, `${evidence.passed ?? 0} passed`, ...(evidence.skipped ? [`${evidence.skipped} skipped`] : [])];
    const root = this.controller.createTestItem(`hook:${server}`, evidence.command ? `${server}: ${evidence.command}` : server);
    root.description = counts.join(', ');
    const seen = new Set<string>();
    const children = evidence.failures.map((f) => this.failureItem(server, f, seen));
    const grouping = this.groupByPackage(server, evidence.failures, children);
    root.children.replace(grouping ?? children);
    this.controller.items.replace([root]);
    const run = this.controller.createTestRun(new vscode.TestRunRequest([root]), `Sprout: ${server} _Stop verdict`, false);
    const failed: string[] = [];
    for (const [i, item] of children.entries()) {
      const failure = evidence.failures[i];
      if (!failure) continue;
      run.failed(item, this.message(failure, item.uri));
      failed.push(item.id);
    }
    for (const group of this.groups(grouping)) {
      run.failed(group, new vscode.TestMessage(`${group.children.size} failing`));
      failed.push(group.id);
    }
    if (evidence.status === 'passed') run.passed(root);
    else {
      run.failed(root, new vscode.TestMessage(`${evidence.status}: ${counts.join(', ')}`));
      failed.push(root.id);
    }
    run.end();
    this.lastRun = { server, status: evidence.status ?? 'unknown', failed, passed: evidence.status === 'passed' ? [root.id] : [] };
  }

  /**
   * In a monorepo (failures that name their package): a level per package, and in it one per file,
   * above the failing tests. Undefined when no failure names a package: tests sit under the root.
   */
  private groupByPackage(server: string, failures: readonly HookFailure[], items: readonly vscode.TestItem[]): vscode.TestItem[] | undefined {
    if (!failures.some((f) => f.package !== undefined)) return undefined;
    const packages = new Map<string, vscode.TestItem>();
    failures.forEach((f, i) => {
      const item = items[i];
      if (!item) return;
      const name = f.package ?? '(no package)';
      let pkg = packages.get(name);
      if (!pkg) packages.set(name, (pkg = this.controller.createTestItem(`hook:${server}:package:${name}`, name)));
      const fileId = `${pkg.id}:file:${f.file ?? ''}`;
      let parent = f.file ? pkg.children.get(fileId) : pkg;
      if (!parent) {
        parent = this.controller.createTestItem(fileId, f.file?.split('/').pop() ?? '', item.uri);
        parent.description = f.file;
        pkg.children.add(parent);
      }
      parent.children.add(item);
    });
    return [...packages.values()];
  }

  /** Every package and file level of a grouping, deepest first. */
  private groups(grouping: readonly vscode.TestItem[] | undefined): vscode.TestItem[] {
    const out: vscode.TestItem[] = [];
    for (const pkg of grouping ?? []) {
      pkg.children.forEach((child) => {
        if (child.children.size > 0) out.push(child);
      });
      out.push(pkg);
    }
    return out;
  }

  private failureItem(server: string, f: HookFailure, seen: Set<string>): vscode.TestItem {
    const uri = f.file ? this.uriOf(f.file) : undefined;
    // Ids must be unique among siblings; a runner may report two failures under one name.
    let id = `hook:${server}:${f.file ?? ''}:${f.name}`;
    for (let n = 2; seen.has(id); n++) id = `hook:${server}:${f.file ?? ''}:${f.name}#${n}`;
    seen.add(id);
    const item = this.controller.createTestItem(id, f.name, uri);
    if (uri && f.line !== undefined) item.range = new vscode.Range(f.line - 1, 0, f.line - 1, 0);
    return item;
  }

  private message(f: HookFailure, uri: vscode.Uri | undefined): vscode.TestMessage {
    const message = new vscode.TestMessage(f.message || f.name);
    if (uri) message.location = new vscode.Location(uri, new vscode.Position(Math.max(0, (f.line ?? 1) - 1), 0));
    return message;
  }
}
