/**
 * Which protected file a tool call would change, computed the way the bundled workspace server will
 * check it (the same path resolution and rule), so the question the user sees names the real target:
 * a write to `docs/notes` that is a symlink to `.git/config` is asked about as `.git/config`. Only the
 * bundled workspace server's file-writing tools are known; another server's arguments mean nothing here.
 */
import { protectedRule, type ProtectedRule } from '../../servers/common/protectedPaths';
import { displayPath, realRoot, resolveInWorkspace } from '../../servers/common/safePath';
import { PATH_WRITING_TOOLS } from '../../servers/workspace/writeGuard';
import type { ProtectedTarget } from './approvalRules';

export interface ProtectedTargetContext {
  /** The name under which the bundled workspace server runs, if it runs. */
  workspaceServer: string | undefined;
  workspaceFolder: string;
  /** Patterns added by the settings (on top of the defaults). */
  addedPatterns: readonly string[];
}

export type ProtectedTargetFinder = (server: string, bareName: string, args: Record<string, unknown>) => ProtectedTarget | undefined;

function safeRule(added: readonly string[]): ProtectedRule {
  try {
    return protectedRule(added);
  } catch {
    // The settings reader reports bad patterns; the defaults still apply.
    return protectedRule();
  }
}

export function protectedTargetFinder(context: () => ProtectedTargetContext): ProtectedTargetFinder {
  return (server, bareName, args) => {
    const ctx = context();
    const argNames = PATH_WRITING_TOOLS[bareName];
    if (ctx.workspaceServer === undefined || server !== ctx.workspaceServer || argNames === undefined) return undefined;
    const rule = safeRule(ctx.addedPatterns);
    for (const name of argNames) {
      const requested = args[name];
      if (typeof requested !== 'string') continue;
      let shown: string;
      try {
        const root = realRoot(ctx.workspaceFolder);
        shown = displayPath(root, resolveInWorkspace(root, requested));
      } catch {
        continue; // Outside the workspace: the server refuses it anyway.
      }
      const match = rule.match(shown);
      if (match) return { path: shown, pattern: match.pattern };
    }
    return undefined;
  };
}
