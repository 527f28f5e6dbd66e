/**
 * Records a checkpoint around each call of the bundled workspace server's file-writing tools
 * (`write_file`, `edit_file`): the target file's content right before the call (after any approval, so
 * nothing the user did while deciding is lost) and right after it. A ToolHost decorator like the
 * approval one, so the core never knows; it resolves the target the way the server will (symlinks and
 * all). Other servers' tools and `run_command` are not recorded: what they change cannot be known.
 * Everything else is forwarded by the relay it extends; `use(undefined)` lets go of the inner host.
 */
import { readFileSync } from 'node:fs';
import type { ToolCallOptions, ToolHost } from '../agent/ports';
import type { ToolCallResult } from '../agent/messages';
import { ToolHostRelay } from './toolHostRelay';
import { displayPath, realRoot, resolveInWorkspace } from '../servers/common/safePath';
import { PATH_WRITING_TOOLS } from '../servers/workspace/writeGuard';
import type { CheckpointStore } from './checkpointStore';

export interface CheckpointTargets {
  /** The name the bundled workspace server runs under (undefined when it does not run). */
  workspaceServer: () => string | undefined;
  workspaceFolder: string;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export class CheckpointToolHost extends ToolHostRelay {
  constructor(
    inner: ToolHost,
    private readonly store: CheckpointStore,
    private readonly targets: CheckpointTargets,
  ) {
    super();
    this.use(inner);
  }

  override async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const target = options.callId === undefined ? undefined : this.target(server, bareName, args);
    if (target === undefined || options.callId === undefined) return super.callTool(server, bareName, args, options);
    const before = readOrNull(target.absolute);
    const result = await super.callTool(server, bareName, args, options);
    const after = readOrNull(target.absolute);
    if (after !== before) this.store.add({ callId: options.callId, path: target.path, absolute: target.absolute, before, after });
    return result;
  }

  private target(server: string, bareName: string, args: Record<string, unknown>): { path: string; absolute: string } | undefined {
    const argName = PATH_WRITING_TOOLS[bareName]?.[0];
    const requested = argName === undefined ? undefined : args[argName];
    if (server !== this.targets.workspaceServer() || typeof requested !== 'string') return undefined;
    try {
      const root = realRoot(this.targets.workspaceFolder);
      const absolute = resolveInWorkspace(root, requested);
      return { path: displayPath(root, absolute), absolute };
    } catch {
      return undefined; // outside the workspace: the server refuses it, nothing changes
    }
  }
}
