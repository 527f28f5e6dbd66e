/**
 * The one ApprovalPolicy the extension's chats and tasks use, assembled from the user's own sources:
 * the user-scope `sprout.tools.autoApprove` (the settings reader never takes it from the workspace),
 * "always allow" names kept in workspace state (WorkspaceApprovals), and the protected-target finder.
 * Only the way of asking differs between a chat card and a task's notification, so that is passed in.
 */
import type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest } from './approvalToolHost';
import type { ProtectedTargetFinder } from './protectedTargets';
import type { WorkspaceApprovals } from './workspaceApprovals';

export interface ApprovalSources {
  /** The user-scope auto-approve list, read fresh on every call. */
  userAutoApprove: () => readonly string[];
  remembered: WorkspaceApprovals;
  protectedTarget: ProtectedTargetFinder;
}

export function createApprovalPolicy(sources: ApprovalSources, ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ApprovalPolicy {
  return {
    autoApproved: (name) => sources.userAutoApprove().includes(name) || sources.remembered.has(name),
    protectedTarget: sources.protectedTarget,
    ask,
    allowInWorkspace: (name) => sources.remembered.add(name),
  };
}
