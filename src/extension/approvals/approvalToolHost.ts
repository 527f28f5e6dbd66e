/**
 * Tool approval as a ToolHost decorator, so the core never knows about it. A call runs at once when it
 * is a hook, a tool marked `readOnlyHint`, listed in `sprout.tools.autoApprove`, or allowed earlier in
 * this chat; otherwise the approver (the chat's approve/deny card) is asked and a denial becomes an
 * error result the model reads. The question is put in `authorize`, before the core starts the tool
 * timeout. One instance per chat; the inner host can be swapped when the
 * configured servers change, and subscriptions follow the swap.
 */
import type { ToolCallOptions, ToolHost, ToolHostEvent, ToolListOptions } from '../../agent/ports';
import { isHookName, qualifyToolName } from '../../agent/toolNames';
import type { ToolCallResult, ToolInfo } from '../../agent/messages';
import type { ApprovalScope } from '../../shared/protocol';

export type ApprovalAnswer = ApprovalScope | 'deny';

export interface ApprovalRequest {
  qualifiedName: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
}

export interface ApprovalPolicy {
  autoApproved(qualifiedName: string): boolean;
  ask(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** "Always allow in this workspace" was chosen. */
  allowInWorkspace(qualifiedName: string): Promise<void>;
}

export const DENIED_RESULT = 'The user denied this tool call. Do not retry it; ask the user or take another approach.';

export class ApprovalToolHost implements ToolHost {
  private readonly allowedInChat = new Set<string>();
  private readonly annotations = new Map<string, ToolInfo>();
  /** Argument objects of calls `authorize` let through; the core passes the same object to `callTool`. */
  private readonly authorized = new WeakSet<Record<string, unknown>>();

  constructor(
    private readonly inner: () => ToolHost,
    private readonly policy: ApprovalPolicy,
  ) {}

  serverNames(): string[] {
    return this.inner().serverNames();
  }

  async listTools(signal?: AbortSignal, options?: ToolListOptions): Promise<ToolInfo[]> {
    const tools = await this.inner().listTools(signal, options);
    for (const tool of tools) this.annotations.set(tool.qualifiedName, tool);
    return tools;
  }

  /** The core asks this before the timed call, so the user's time to decide is not tool time. */
  async authorize(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
    if (!(await this.mayRun(qualifyToolName(server, bareName), bareName, args, signal))) return { isError: true, text: DENIED_RESULT };
    this.authorized.add(args);
    return undefined;
  }

  /** Runs a call `authorize` let through (once); any other call is asked about here. */
  async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const pass = this.authorized.delete(args);
    if (!pass && !(await this.mayRun(qualifyToolName(server, bareName), bareName, args, options.signal))) return { isError: true, text: DENIED_RESULT };
    return this.inner().callTool(server, bareName, args, options);
  }

  killServer(server: string, reason: string): Promise<void> {
    return this.inner().killServer(server, reason);
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    let current = this.inner();
    let unsubscribe = current.subscribe(listener);
    // The inner host is swapped on configuration changes; poll cheaply at each use instead of a second event system.
    const follow = (): void => {
      const next = this.inner();
      if (next !== current) {
        unsubscribe();
        current = next;
        unsubscribe = current.subscribe(listener);
      }
    };
    this.followers.add(follow);
    return () => {
      this.followers.delete(follow);
      unsubscribe();
    };
  }

  /** Called by the owner after it swapped the inner host. */
  innerChanged(): void {
    this.annotations.clear();
    for (const follow of this.followers) follow();
  }

  private readonly followers = new Set<() => void>();

  private async mayRun(qualifiedName: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<boolean> {
    if (isHookName(bareName)) return true;
    if (this.annotations.size === 0) await this.listTools(signal).catch(() => []);
    if (this.annotations.get(qualifiedName)?.annotations.readOnlyHint === true) return true;
    if (this.allowedInChat.has(qualifiedName) || this.policy.autoApproved(qualifiedName)) return true;
    const answer = await this.policy.ask({ qualifiedName, args, signal });
    if (answer === 'deny') return false;
    if (answer === 'chat') this.allowedInChat.add(qualifiedName);
    if (answer === 'workspace') await this.policy.allowInWorkspace(qualifiedName);
    return true;
  }
}
