/**
 * Records a checkpoint around each call of the bundled workspace server's file-writing tools
 * (`write_file`, `edit_file`): the target file's content right before the call (after any approval, so
 * nothing the user did while deciding is lost) and right after it. A ToolHost decorator like the
 * approval one, so the core never knows; it resolves the target the way the server will (symlinks and
 * all). A call whose files the host can plan (the editor server's `rename_symbol`: every file its edit
 * touches, planned as the tool plans it) is recorded too. Other servers' tools and `run_command` are not recorded: what they change cannot be known.
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
  /**
   * The files a call of another server's tool will change, where the host can know them (the editor's
   * `rename_symbol`: `planRename` of src/extension/editorServer/renameSymbol.ts, which needs `vscode`);
   * undefined for a call it cannot plan.
   */
  plannedFiles?: (server: string, bareName: string, args: Record<string, unknown>) => Promise<{ path: string; absolute: string }[]> | undefined;
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
    const planned = options.callId === undefined ? undefined : this.targets.plannedFiles?.(server, bareName, args);
    if (planned !== undefined && options.callId !== undefined) return this.plannedCall(planned, server, bareName, args, { ...options, callId: options.callId });
    const target = options.callId === undefined ? undefined : this.target(server, bareName, args);
    if (target === undefined || options.callId === undefined) return super.callTool(server, bareName, args, options);
    const before = readOrNull(target.absolute);
    const result = await super.callTool(server, bareName, args, options);
    const after = readOrNull(target.absolute);
    if (after !== before) this.store.add({ callId: options.callId, path: target.path, absolute: target.absolute, before, after });
    return result;
  }

  /** A call whose files the host planned (the editor's rename): each read before and after the call. */
  private async plannedCall(planning: Promise<{ path: string; absolute: string }[]>, server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions & { callId: string }): Promise<ToolCallResult> {
    const planned = await planning.catch(() => []);
    const files = planned.map((f) => ({ path: f.path, absolute: f.absolute, before: readOrNull(f.absolute) }));
    const result = await super.callTool(server, bareName, args, options);
    for (const file of files) {
      const after = readOrNull(file.absolute);
      if (after !== file.before) this.store.add({ callId: options.callId, path: file.path, absolute: file.absolute, before: file.before, after });
    }
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
