/**
 * The approval decision as a pure rule: given what is known about one tool call, run it at once or ask,
 * and when asking, which answers may be offered. Everything that makes a call pre-approved comes from
 * the user (the user-scope `sprout.tools.autoApprove`, "always allow" kept in the extension's own
 * state, "allow for this chat"); nothing the workspace holds is an input, so a cloned repository cannot
 * approve anything, shell-like tools included. A write to a protected path asks every time, whatever
 * was approved before, and can only be allowed once.
 */
import type { ApprovalScope } from '../../agent/ports';

export interface ProtectedTarget {
  /** Root-relative real path (symlinks resolved), as the workspace server will check it. */
  path: string;
  /** The protected-path pattern it matches. */
  pattern: string;
}

export interface CallFacts {
  isHook: boolean;
  /** The tool declares `readOnlyHint: true`. */
  readOnly: boolean;
  /** Listed in the user's `sprout.tools.autoApprove` or always allowed in this workspace. */
  preApproved: boolean;
  allowedInChat: boolean;
  /** Set when the call would create or change a protected file. */
  protectedTarget?: ProtectedTarget;
}

export type ApprovalDecision = { kind: 'run' } | { kind: 'ask'; scopes: readonly ApprovalScope[]; warning?: string };

export const ALL_SCOPES: readonly ApprovalScope[] = ['once', 'chat', 'workspace'];

export function protectedWarning(target: ProtectedTarget): string {
  return (
    `Protected file: ${target.path} (matches ${target.pattern}). Files like this configure git, the editor, CI or other ` +
    'agents and can make them run commands. Allow only if you asked for this change.'
  );
}

export function decideApproval(facts: CallFacts): ApprovalDecision {
  if (facts.isHook) return { kind: 'run' };
  if (facts.protectedTarget) return { kind: 'ask', scopes: ['once'], warning: protectedWarning(facts.protectedTarget) };
  if (facts.readOnly || facts.preApproved || facts.allowedInChat) return { kind: 'run' };
  return { kind: 'ask', scopes: ALL_SCOPES };
}

/** An answer the question did not offer (a stale or forged webview message) counts as the narrowest allow. */
export function allowedAnswer<T extends ApprovalScope | 'deny'>(answer: T, offered: readonly ApprovalScope[]): T | 'once' {
  return answer === 'deny' || offered.includes(answer as ApprovalScope) ? answer : 'once';
}
