/**
 * Tool approval as a ToolHost decorator, so the core never knows about it. What runs at once and what
 * is asked is approvalRules.ts's decision (hooks and `readOnlyHint` tools run, so do tools the user
 * pre-approved or allowed for this chat; a write to a protected path always asks, allow-once only);
 * the approver (the chat's approve/deny card) answers, and a denial becomes an error result the model
 * reads. An approved protected write carries its approval to the workspace server in the request's
 * `_meta`, because the server refuses such writes without it. The question is put in `authorize`,
 * before the core starts the tool timeout. One instance per chat; the inner host can be swapped when
 * the configured servers change, and subscriptions follow the swap.
 */
import type { ToolCallOptions, ToolHost, ToolHostEvent } from '../../agent/ports';
import { isHookName, qualifyToolName } from '../../agent/toolNames';
import type { ToolCallResult, ToolInfo } from '../../agent/messages';
import { protectedWriteMeta } from '../../servers/shared/protectedPaths';
import type { ApprovalScope } from '../../shared/protocol';
import { allowedAnswer, decideApproval, type ProtectedTarget } from './approvalRules';

export type ApprovalAnswer = ApprovalScope | 'deny';

export interface ApprovalRequest {
  qualifiedName: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** The answers that may be offered: a protected write can only be allowed once. */
  scopes: readonly ApprovalScope[];
  /** Why this call is asked about even when the tool is approved (a protected file). */
  warning?: string;
}

export interface ApprovalPolicy {
  /** The user's own pre-approval: user-scope `sprout.tools.autoApprove`, or "always allow" in extension state. */
  autoApproved(qualifiedName: string): boolean;
  /** The protected file this call would create or change, if any (bundled file-writing tools only). */
  protectedTarget(server: string, bareName: string, args: Record<string, unknown>): ProtectedTarget | undefined;
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
  /** Argument objects of approved protected writes, with the path the user approved. */
  private readonly protectedApproved = new WeakMap<Record<string, unknown>, string>();

  constructor(
    private readonly inner: () => ToolHost,
    private readonly policy: ApprovalPolicy,
  ) {}

  serverNames(): string[] {
    return this.inner().serverNames();
  }

  async listTools(signal?: AbortSignal): Promise<ToolInfo[]> {
    const tools = await this.inner().listTools(signal);
    for (const tool of tools) this.annotations.set(tool.qualifiedName, tool);
    return tools;
  }

  /** The core asks this before the timed call, so the user's time to decide is not tool time. */
  async authorize(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
    if (!(await this.mayRun(server, bareName, args, signal))) return { isError: true, text: DENIED_RESULT };
    this.authorized.add(args);
    return undefined;
  }

  /** Runs a call `authorize` let through (once); any other call is asked about here. */
  async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const pass = this.authorized.delete(args);
    if (!pass && !(await this.mayRun(server, bareName, args, options.signal))) return { isError: true, text: DENIED_RESULT };
    const approvedPath = this.protectedApproved.get(args);
    this.protectedApproved.delete(args);
    if (approvedPath === undefined) return this.inner().callTool(server, bareName, args, options);
    return this.inner().callTool(server, bareName, args, { ...options, meta: { ...options.meta, ...protectedWriteMeta(approvedPath) } });
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

  private async mayRun(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<boolean> {
    const qualifiedName = qualifyToolName(server, bareName);
    if (isHookName(bareName)) return true;
    if (this.annotations.size === 0) await this.listTools(signal).catch(() => []);
    const protectedTarget = this.policy.protectedTarget(server, bareName, args);
    const decision = decideApproval({
      isHook: false,
      readOnly: this.annotations.get(qualifiedName)?.annotations.readOnlyHint === true,
      preApproved: this.policy.autoApproved(qualifiedName),
      allowedInChat: this.allowedInChat.has(qualifiedName),
      protectedTarget,
    });
    if (decision.kind === 'run') return true;
    const asked = await this.policy.ask({ qualifiedName, args, signal, scopes: decision.scopes, warning: decision.warning });
    const answer = allowedAnswer(asked, decision.scopes);
    if (answer === 'deny') return false;
    if (protectedTarget) this.protectedApproved.set(args, protectedTarget.path);
    if (answer === 'chat') this.allowedInChat.add(qualifiedName);
    if (answer === 'workspace') await this.policy.allowInWorkspace(qualifiedName);
    return true;
  }
}
