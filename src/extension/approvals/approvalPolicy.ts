/**
 * The one ApprovalPolicy the extension's chats and tasks use, assembled from the user's own sources:
 * the user-scope `sprout.tools.autoApprove` (the settings reader never takes it from the workspace),
 * "always allow" names kept in workspace state (WorkspaceApprovals), `sprout.tools.commandRules` for
 * `run_command`, and the protected-target finder.
 * Only the way of asking differs between a chat card and a task's notification, so that is passed in.
 */
import type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest } from './approvalToolHost';
import type { ProtectedTargetFinder } from './protectedTargets';
import type { WorkspaceApprovals } from './workspaceApprovals';
import { judgeCommand, type CommandRule } from '../../agent/commandRules';
import { SPROUT_SHELL_TOOL } from '../../agentHooks/agentToolNames';

export interface ApprovalSources {
  /** The user-scope auto-approve list, read fresh on every call. */
  userAutoApprove: () => readonly string[];
  remembered: WorkspaceApprovals;
  /** `sprout.tools.commandRules` as read now (the user's allow and deny, the workspace's deny only). */
  commandRules: () => readonly CommandRule[];
  /** Adds `{ "allow": prefix }` to the user's `sprout.tools.commandRules` ("Always allow `npm test`"). */
  addUserCommandRule?: (prefix: string) => Promise<void>;
  protectedTarget: ProtectedTargetFinder;
}

export function createApprovalPolicy(sources: ApprovalSources, ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ApprovalPolicy {
  return {
    autoApproved: (name) => sources.userAutoApprove().includes(name) || sources.remembered.has(name),
    commandVerdict: (name, args) => (name === SPROUT_SHELL_TOOL && typeof args.command === 'string' ? judgeCommand(args.command, sources.commandRules()) : undefined),
    protectedTarget: sources.protectedTarget,
    ask,
    allowInWorkspace: (name) => sources.remembered.add(name),
    ...(sources.addUserCommandRule === undefined ? {} : { allowCommandRule: sources.addUserCommandRule }),
  };
}
