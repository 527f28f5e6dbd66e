/**
 * "Always allow in this workspace", kept where the repository cannot write it: the extension's
 * workspace state (VS Code's per-workspace memento), never a settings file. An earlier version wrote
 * these names into `.vscode/settings.json`, which a cloned repository could ship pre-filled.
 */
import type * as vscode from 'vscode';

const KEY = 'sprout.approvals.alwaysAllowed';

export type MementoLike = Pick<vscode.Memento, 'get' | 'update'>;

export class WorkspaceApprovals {
  constructor(private readonly state: MementoLike) {}

  list(): string[] {
    const stored = this.state.get<unknown>(KEY);
    return Array.isArray(stored) ? stored.filter((name): name is string => typeof name === 'string') : [];
  }

  has(qualifiedName: string): boolean {
    return this.list().includes(qualifiedName);
  }

  async add(qualifiedName: string): Promise<void> {
    const names = this.list();
    if (!names.includes(qualifiedName)) await this.state.update(KEY, [...names, qualifiedName]);
  }

  async remove(names: readonly string[]): Promise<void> {
    await this.state.update(KEY, this.list().filter((name) => !names.includes(name)));
  }
}
