/**
 * The pure rules of the `_Stop` gate (docs/hooks.md#the-_stop-gate): which servers may act as hooks, the gate's decision
 * before any hook is called, objection filtering in server configuration order, and budget scope.
 */
import { isHookServerAllowed } from './settings';
import type { HookCallOutcome } from './hookCaller';
import type { HookAllowlist, HookSettings } from './settings';
import type { HookName, HookObjection } from './events';
import type { ToolInfo } from './messages';

export interface GateState {
  rejectionsUsed: number;
  afterObjection: boolean;
}

/**
 * `call_hooks`: an ordinary gate round that may continue the turn. `verdict`: the model declined the
 * objection, or the budget is spent, so `_Stop` is asked once more (`final: true`) only to say what
 * still objects; the turn ends either way, and `cause` is why if something does.
 */
export type GateDecision = { kind: 'finish'; cause: 'budget_exhausted' } | { kind: 'verdict'; cause: 'declined' | 'budget_exhausted' } | { kind: 'call_hooks' };

/** What happens when the model ends its turn, before any hook is called. */
export function decideGate(state: GateState, hooks: HookSettings): GateDecision {
  if (state.afterObjection && hooks.repeatedEndTurnStops) return { kind: 'verdict', cause: 'declined' };
  // 0 disables `_Stop` altogether: no gate round and no verdict.
  if (hooks.stopMaxRejections === 0) return { kind: 'finish', cause: 'budget_exhausted' };
  if (state.rejectionsUsed >= hooks.stopMaxRejections) return { kind: 'verdict', cause: 'budget_exhausted' };
  return { kind: 'call_hooks' };
}

/** Allowlisted servers that expose `hook`, in configuration order (servers unknown to it last). */
export function serversWithHook(tools: readonly ToolInfo[], allowlist: HookAllowlist, hook: HookName, order: readonly string[]): string[] {
  const having = new Set(tools.filter((t) => t.isHook && t.bareName === hook && isHookServerAllowed(allowlist, t.server)).map((t) => t.server));
  return sortByOrder([...having], order);
}

/** Servers exposing `_` tools that the allowlist ignores, with their hook names (for the hint). */
export function ignoredHookServers(tools: readonly ToolInfo[], allowlist: HookAllowlist): Map<string, string[]> {
  const ignored = new Map<string, string[]>();
  for (const tool of tools) {
    if (!tool.isHook || isHookServerAllowed(allowlist, tool.server)) continue;
    ignored.set(tool.server, [...(ignored.get(tool.server) ?? []), tool.bareName]);
  }
  return ignored;
}

export function sortByOrder(servers: readonly string[], order: readonly string[]): string[] {
  const rank = (s: string): number => {
    const i = order.indexOf(s);
    return i < 0 ? order.length : i;
  };
  return [...servers].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Objections only (non-empty, not isError, not timed out), in server configuration order. The same
 * rule picks the texts that take effect for every other hook (injected, or a `_PreToolUse` denial).
 */
export function collectObjections(outcomes: readonly HookCallOutcome[], order: readonly string[]): HookObjection[] {
  const byServer = new Map(outcomes.filter((o) => o.result === 'objection' && o.text.trim() !== '').map((o) => [o.server, o]));
  return sortByOrder([...byServer.keys()], order).map((server) => {
    const outcome = byServer.get(server);
    const failures = outcome?.evidence?.failures ?? [];
    return { server, text: outcome?.text ?? '', ...(failures.length > 0 ? { failures } : {}) };
  });
}

/** The budget used at the start of a prompt: `prompt` scope resets, `session` scope carries over. */
export function budgetAtPromptStart(used: number, hooks: HookSettings): number {
  return hooks.stopBudgetScope === 'prompt' ? 0 : used;
}
