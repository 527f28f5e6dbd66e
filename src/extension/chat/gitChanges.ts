/**
 * The working tree's changes through VS Code's built-in git extension (`vscode.git`, its API version 1):
 * the staged and unstaged diff of the repository holding the workspace folder, and its untracked files.
 * Without the extension (disabled, or git missing) or a repository, the answer says so.
 */
import * as vscode from 'vscode';

/** The part of the git extension's API (its `git.d.ts`) used here. */
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly workingTreeChanges: readonly { readonly uri: vscode.Uri; readonly status: number }[] };
  diff(cached?: boolean): Promise<string>;
  status(): Promise<void>;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The git extension's status for an untracked file (`Status.UNTRACKED` in its git.d.ts). */
const UNTRACKED = 7;

async function gitApi(): Promise<GitApi | string> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (extension === undefined) return 'No changes attached: the built-in Git extension (vscode.git) is not available in this editor.';
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports.enabled) return 'No changes attached: Git is disabled in this editor (the git.enabled setting), or git is not installed.';
  const api = exports.getAPI(1);
  if (api.state !== 'initialized') await new Promise<void>((resolve) => {
    const listening = api.onDidChangeState((state) => state === 'initialized' && (listening.dispose(), resolve()));
  });
  return api;
}

export async function gitChanges(folder: vscode.Uri | undefined): Promise<{ staged: string; unstaged: string; untracked: string[] } | { none: string }> {
  if (folder === undefined) return { none: 'No changes attached: no workspace folder is open.' };
  const api = await gitApi();
  if (typeof api === 'string') return { none: api };
  const repository = api.getRepository(folder) ?? (await api.openRepository?.(folder)) ?? null;
  if (repository === null) return { none: 'No changes attached: the workspace folder is not in a git repository.' };
  await repository.status();
  const [staged, unstaged] = await Promise.all([repository.diff(true), repository.diff(false)]);
  const untracked = repository.state.workingTreeChanges.filter((c) => c.status === UNTRACKED).map((c) => vscode.workspace.asRelativePath(c.uri, false));
  return { staged, unstaged, untracked };
}
