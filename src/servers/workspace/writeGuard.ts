/**
 * The workspace server's own check on protected paths, behind whatever the host asked the user. A write
 * whose real target is protected goes ahead only when the request's `_meta` approves exactly that path
 * (a host sets `_meta`, the model never can: it only writes arguments) or when the server was started
 * with --allow-protected-writes. So neither a bug in a host's approval logic nor another MCP client can
 * change `.git/config` or `.vscode/settings.json` silently.
 */
import { approvedProtectedPath, protectedRefusal, type ProtectedRule } from '../common/protectedPaths';
import { displayPath } from '../common/safePath';

/** The bundled tools that create or replace files, with the arguments that name their targets. */
export const PATH_WRITING_TOOLS: Readonly<Record<string, readonly string[]>> = {
  write_file: ['path'],
  edit_file: ['path'],
};

export interface WriteGuardOptions {
  rootReal: string;
  rule: ProtectedRule;
  /** --allow-protected-writes: the user allowed every protected write of this server's life. */
  allowAll: boolean;
}

/** Throws the refusal the model reads when `absolute` (a real path) is protected and not approved. */
export type WriteGuard = (absolute: string, meta: Record<string, unknown> | undefined) => void;

export function writeGuard(options: WriteGuardOptions): WriteGuard {
  return (absolute, meta) => {
    if (options.allowAll) return;
    const shown = displayPath(options.rootReal, absolute);
    const match = options.rule.match(shown);
    if (match === undefined) return;
    if (approvedProtectedPath(meta) === shown) return;
    throw new Error(protectedRefusal(shown, match));
  };
}
