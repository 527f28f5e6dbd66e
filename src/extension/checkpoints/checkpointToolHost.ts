/**
 * Records a checkpoint around each call of the bundled workspace server's file-writing tools
 * (`write_file`, `edit_file`): the target file's content right before the call (after any approval, so
 * nothing the user did while deciding is lost) and right after it. A ToolHost decorator like the
 * approval one, so the core never knows; it resolves the target the way the server will (symlinks and
 * all). Other servers' tools and `run_command` are not recorded: what they change cannot be known.
 */
import { readFileSync } from 'node:fs';
import type { ToolCallOptions, ToolHost, ToolHostEvent } from '../../agent/ports';
import type { ToolCallResult, ToolInfo } from '../../agent/messages';
import { displayPath, realRoot, resolveInWorkspace } from '../../servers/shared/safePath';
import { PATH_WRITING_TOOLS } from '../../servers/workspace/writeGuard';
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

export class CheckpointToolHost implements ToolHost {
  constructor(
    private readonly inner: ToolHost,
    private readonly store: CheckpointStore,
    private readonly targets: CheckpointTargets,
  ) {}

  serverNames(): string[] {
    return this.inner.serverNames();
  }

  listTools(signal?: AbortSignal): Promise<ToolInfo[]> {
    return this.inner.listTools(signal);
  }

  cachedTools(): ToolInfo[] | undefined {
    return this.inner.cachedTools?.();
  }

  authorize(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
    return this.inner.authorize?.(server, bareName, args, signal) ?? Promise.resolve(undefined);
  }

  async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const target = options.callId === undefined ? undefined : this.target(server, bareName, args);
    if (target === undefined || options.callId === undefined) return this.inner.callTool(server, bareName, args, options);
    const before = readOrNull(target.absolute);
    const result = await this.inner.callTool(server, bareName, args, options);
    const after = readOrNull(target.absolute);
    if (after !== before) this.store.add({ callId: options.callId, path: target.path, absolute: target.absolute, before, after });
    return result;
  }

  killServer(server: string, reason: string): Promise<void> {
    return this.inner.killServer(server, reason);
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    return this.inner.subscribe(listener);
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
