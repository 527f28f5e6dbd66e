/**
 * Tool approval as a ToolHost decorator, so the core never knows about it. What runs at once and what
 * is asked is approvalRules.ts's decision (hooks and `readOnlyHint` tools run, so do tools the user
 * pre-approved or allowed for this chat; a write to a protected path always asks, allow-once only);
 * for `run_command`, the command rules come first: a command they deny is refused naming the rule,
 * one they allow (every part) runs as pre-approved, anything else is asked as any call;
 * the approver (the chat's approve/deny card) answers, and a denial becomes an error result the model
 * reads. An approved protected write carries its approval to the workspace server in the request's
 * `_meta`, because the server refuses such writes without it. The question is put in `authorize`,
 * before the core starts the tool timeout, and is itself an event (`approval_requested`, then
 * `approval_resolved`) to this host's subscribers, so the chat, its transcript and any other view see
 * it like every other step. One instance per chat, over the window's stable tool host (which follows
 * the configured servers as they change). Whether a tool is read-only is read from that host's
 * current listing at each call, never from a copy of its own, so a changed server is judged by what
 * it says now.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalScope, ToolCallOptions, ToolHost, ToolHostEvent, ToolListOptions } from '../../agent/ports';
import { isHookName, qualifyToolName } from '../../agent/toolNames';
import type { ToolCallResult, ToolInfo } from '../../agent/messages';
import type { ResourceHost } from '../../agent/resources';
import { protectedWriteMeta } from '../../servers/common/protectedPaths';
import { allowedAnswer, decideApproval, type ProtectedTarget } from './approvalRules';
import { deniedText, firstWords, type CommandVerdict } from '../../agent/commandRules';

export type { ApprovalAnswer } from '../../agent/ports';

export interface ApprovalRequest {
  /** Names this question in its events; unique across chats and reloads (transcripts keep them). */
  approvalId: string;
  qualifiedName: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** The answers that may be offered: a protected write can only be allowed once. */
  scopes: readonly ApprovalScope[];
  /** Why this call is asked about even when the tool is approved (a protected file). */
  warning?: string;
  /** The command rule "Always allow" would add (`npm test`), when `scopes` offers `rule`. */
  rule?: string;
}

export interface ApprovalPolicy {
  /** The user's own pre-approval: user-scope `sprout.tools.autoApprove`, or "always allow" in extension state. */
  autoApproved(qualifiedName: string): boolean;
  /** The command rules' verdict on this call: only for the workspace server's `run_command`, else undefined. */
  commandVerdict?(qualifiedName: string, args: Record<string, unknown>): CommandVerdict | undefined;
  /** The protected file this call would create or change, if any (bundled file-writing tools only). */
  protectedTarget(server: string, bareName: string, args: Record<string, unknown>): ProtectedTarget | undefined;
  ask(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** "Always allow in this workspace" was chosen. */
  allowInWorkspace(qualifiedName: string): Promise<void>;
  /** "Always allow `npm test`" was chosen: an allow rule for these words goes into the user's settings. */
  allowCommandRule?(prefix: string): Promise<void>;
}

export const DENIED_RESULT = 'The user denied this tool call. Do not retry it; ask the user or take another approach.';

export class ApprovalToolHost implements ToolHost {
  private readonly allowedInChat = new Set<string>();
  /** Argument objects of calls `authorize` let through; the core passes the same object to `callTool`. */
  private readonly authorized = new WeakSet<Record<string, unknown>>();
  /** Argument objects of approved protected writes, with the path the user approved. */
  private readonly protectedApproved = new WeakMap<Record<string, unknown>, string>();
  private readonly listeners = new Set<(event: ToolHostEvent) => void>();

  constructor(
    private readonly inner: ToolHost,
    private readonly policy: ApprovalPolicy,
  ) {}

  /** The servers' resources, forwarded (resources.ts): approvals do not apply to reads. */
  get resources(): ResourceHost | undefined {
    return this.inner.resources;
  }

  serverNames(): string[] {
    return this.inner.serverNames();
  }

  listTools(signal?: AbortSignal, options?: ToolListOptions): Promise<ToolInfo[]> {
    return this.inner.listTools(signal, options);
  }

  cachedTools(): ToolInfo[] | undefined {
    return this.inner.cachedTools?.();
  }

  /** The core asks this before the timed call, so the user's time to decide is not tool time. */
  async authorize(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
    const refusal = await this.refusal(server, bareName, args, signal);
    if (refusal !== undefined) return { isError: true, text: refusal };
    this.authorized.add(args);
    return undefined;
  }

  /** Runs a call `authorize` let through (once); any other call is asked about here. */
  async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const pass = this.authorized.delete(args);
    const refusal = pass ? undefined : await this.refusal(server, bareName, args, options.signal);
    if (refusal !== undefined) return { isError: true, text: refusal };
    const approvedPath = this.protectedApproved.get(args);
    this.protectedApproved.delete(args);
    if (approvedPath === undefined) return this.inner.callTool(server, bareName, args, options);
    return this.inner.callTool(server, bareName, args, { ...options, meta: { ...options.meta, ...protectedWriteMeta(approvedPath) } });
  }

  killServer(server: string, reason: string): Promise<void> {
    return this.inner.killServer(server, reason);
  }

  /** The inner host's events (servers) and this host's own (approval questions). */
  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    const stopInner = this.inner.subscribe(listener);
    this.listeners.add(listener);
    return () => {
      stopInner();
      this.listeners.delete(listener);
    };
  }

  /** The tool as its server lists it now: from the host's cache when current, else from a listing. */
  private async currentInfo(qualifiedName: string, signal: AbortSignal): Promise<ToolInfo | undefined> {
    const tools = this.inner.cachedTools?.() ?? (await this.inner.listTools(signal).catch(() => []));
    return tools.find((tool) => tool.qualifiedName === qualifiedName);
  }

  /** Why the call may not run (a denial the model reads), or undefined when it may. */
  private async refusal(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<string | undefined> {
    if (isHookName(bareName)) return undefined;
    const verdict = this.policy.commandVerdict?.(qualifyToolName(server, bareName), args);
    if (verdict?.kind === 'deny') return deniedText(verdict);
    // Asked about a command no rule decides: "Always allow" offers its first words as a rule.
    const rule = verdict?.kind === 'ask' && this.policy.allowCommandRule !== undefined && typeof args.command === 'string' ? firstWords(args.command) : undefined;
    return (await this.mayRun(server, bareName, args, signal, verdict?.kind === 'allow', rule)) ? undefined : DENIED_RESULT;
  }

  private async mayRun(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal, allowedByRule: boolean, rule: string | undefined): Promise<boolean> {
    const qualifiedName = qualifyToolName(server, bareName);
    const protectedTarget = this.policy.protectedTarget(server, bareName, args);
    const decision = decideApproval({
      isHook: false,
      readOnly: (await this.currentInfo(qualifiedName, signal))?.annotations.readOnlyHint === true,
      preApproved: allowedByRule || this.policy.autoApproved(qualifiedName),
      allowedInChat: this.allowedInChat.has(qualifiedName),
      protectedTarget,
    });
    if (decision.kind === 'run') return true;
    const scopes: readonly ApprovalScope[] = rule !== undefined && !protectedTarget ? [...decision.scopes, 'rule'] : decision.scopes;
    const answer = allowedAnswer(await this.ask(qualifiedName, args, signal, scopes, decision.warning, rule), scopes);
    if (answer === 'deny') return false;
    if (protectedTarget) this.protectedApproved.set(args, protectedTarget.path);
    if (answer === 'chat') this.allowedInChat.add(qualifiedName);
    if (answer === 'workspace') await this.policy.allowInWorkspace(qualifiedName);
    if (answer === 'rule' && rule !== undefined) await this.policy.allowCommandRule?.(rule);
    return true;
  }

  /** The question and its answer, each told to the subscribers before anything else happens. */
  private async ask(name: string, args: Record<string, unknown>, signal: AbortSignal, scopes: readonly ApprovalScope[], warning: string | undefined, rule: string | undefined): Promise<ApprovalAnswer> {
    const approvalId = randomUUID();
    const extra = { ...(warning === undefined ? {} : { warning }), ...(rule === undefined ? {} : { rule }) };
    this.tell({ type: 'approval_requested', approvalId, name, scopes: [...scopes], ...extra });
    let answer: ApprovalAnswer = 'deny';
    try {
      answer = await this.policy.ask({ approvalId, qualifiedName: name, args, signal, scopes, ...extra });
    } finally {
      this.tell({ type: 'approval_resolved', approvalId, name, answer: answer === 'deny' ? 'deny' : allowedAnswer(answer, scopes) });
    }
    return answer;
  }

  private tell(event: ToolHostEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
