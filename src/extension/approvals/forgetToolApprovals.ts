/** The command behind **Sprout: Forget Always-Allowed Tools**: pick which remembered names to drop. */
import * as vscode from 'vscode';
import type { WorkspaceApprovals } from './workspaceApprovals';

export async function forgetToolApprovals(approvals: WorkspaceApprovals, names?: readonly string[]): Promise<string[]> {
  const remembered = approvals.list();
  if (remembered.length === 0 && names === undefined) {
    void vscode.window.showInformationMessage('Sprout: no tool is always allowed in this workspace.');
    return [];
  }
  const chosen =
    names ??
    (await vscode.window.showQuickPick(remembered, { title: 'Sprout: Forget Always-Allowed Tools', placeHolder: 'Tools to ask about again', canPickMany: true }));
  if (!chosen || chosen.length === 0) return [];
  await approvals.remove(chosen);
  return [...chosen];
}
