/**
 * Calls one lifecycle hook on one server, with the agent's sovereignty rules (docs/hooks.md#sovereignty-timeouts-kills-budgets): arguments are
 * exactly `{}`, context rides in `_meta["sprout/hook"]`, the call races the hook timeout, and anything
 * but a completed non-error reply with text is "no objection" (fail open). One consecutive-timeout
 * counter per server, shared by all its hooks: the second timeout in a row kills the server, which
 * restarts lazily on next use.
 */
import { runWithTimeout, type TimedResult } from './cancellation';
import { normaliseHookText } from './hookEnvelope';
import { hookEvidence, type HookEvidence } from './hookEvidence';
import type { Clock, Logger, ToolHost } from './ports';
import type { AgentEvent, HookCallResult, HookName } from './events';
import type { ToolCallResult } from './messages';
import { quotedName } from './nameText';

export const HOOK_META_KEY = 'sprout/hook';
/** Consecutive timeouts of one server that get it killed. */
export const KILL_AFTER_TIMEOUTS = 2;

/**
 * What a hook is told besides its own name: the session, then the fields of that hook (the `_Stop`
 * budget, the tool call, the prompt...; docs/hooks.md lists them per hook). Plain JSON data.
 */
export type HookCallContext = { sessionId: string } & Record<string, unknown>;

export interface HookCallOutcome {
  server: string;
  hook: HookName;
  result: HookCallResult;
  /** The normalised text for an objection; whatever came back (for display) otherwise. */
  text: string;
  /** The server answered (an `isError` result included), rather than timing out or failing in transport. */
  replied: boolean;
  /** Test verdict and failures from a completed reply's structured content. */
  evidence?: HookEvidence;
}

export interface HookCallerDeps {
  tools: ToolHost;
  clock: Clock;
  emit: (event: AgentEvent) => void;
  timeoutMs: () => number;
  logger?: Logger;
  /**
   * The consecutive-timeout counters to count on (server -> timeouts in a row). A host whose calls
   * outlive this object (the hook bridge, one process per agent event) keeps them and passes them back.
   */
  timeouts?: Map<string, number>;
}

export function hookMeta(hook: HookName, context: HookCallContext): Record<string, unknown> {
  return { [HOOK_META_KEY]: { event: hook, ...context } };
}

export function killReason(server: string, timeoutMs: number): string {
  return (
    `MCP server ${quotedName(server)} timed out on ${KILL_AFTER_TIMEOUTS} hook calls in a row (limit ${timeoutMs} ms each), ` +
    'so the agent killed it. Any in-memory state of that server (a todo list, say) is lost; it restarts on next use.'
  );
}

export class HookCaller {
  private readonly timeouts: Map<string, number>;

  constructor(private readonly deps: HookCallerDeps) {
    this.timeouts = deps.timeouts ?? new Map<string, number>();
  }

  consecutiveTimeouts(server: string): number {
    return this.timeouts.get(server) ?? 0;
  }

  async call(server: string, hook: HookName, context: HookCallContext, signal?: AbortSignal): Promise<HookCallOutcome> {
    const { clock, emit } = this.deps;
    const timeoutMs = this.deps.timeoutMs();
    const started = clock.now();
    emit({ type: 'hook_called', server, hook });
    // On timeout the call's own signal aborts, so the adapter sends notifications/cancelled.
    const race = await runWithTimeout(clock, timeoutMs, (call) => this.deps.tools.callTool(server, hook, {}, { signal: call, meta: hookMeta(hook, context) }), signal);
    const outcome = this.classify(server, hook, race, signal);
    const finished = { type: 'hook_finished' as const, server, hook, result: outcome.result, text: outcome.text, durationMs: clock.now() - started };
    emit(outcome.evidence ? { ...finished, evidence: outcome.evidence } : finished);
    if (outcome.result === 'timeout') await this.countTimeout(server, hook, timeoutMs);
    return outcome;
  }

  private classify(server: string, hook: HookName, race: TimedResult<ToolCallResult>, signal?: AbortSignal): HookCallOutcome {
    if (race.kind === 'cancelled' || signal?.aborted) return { server, hook, result: 'cancelled', text: '', replied: false };
    if (race.kind === 'timeout') return { server, hook, result: 'timeout', text: '', replied: false };
    if (race.kind === 'failed') {
      this.deps.logger?.warn('hook call failed', { server, hook, message: race.message });
      return { server, hook, result: 'error', text: race.message, replied: false };
    }
    this.timeouts.set(server, 0);
    if (race.value.isError) return { server, hook, result: 'error', text: race.value.text, replied: true };
    const text = normaliseHookText(race.value.text);
    const evidence = hookEvidence(race.value.structured);
    return { server, hook, result: text === '' ? 'no_objection' : 'objection', text, replied: true, ...(evidence ? { evidence } : {}) };
  }

  private async countTimeout(server: string, hook: HookName, timeoutMs: number): Promise<void> {
    const consecutive = this.consecutiveTimeouts(server) + 1;
    this.timeouts.set(server, consecutive);
    this.deps.emit({ type: 'hook_timed_out', server, hook, consecutive });
    if (consecutive < KILL_AFTER_TIMEOUTS) return;
    this.timeouts.set(server, 0);
    const reason = killReason(server, timeoutMs);
    // The kill is ours, but it is still bounded so nothing on a server's side can hold the turn.
    const kill = await runWithTimeout(this.deps.clock, Math.max(timeoutMs, 1000), () => this.deps.tools.killServer(server, reason));
    if (kill.kind === 'failed') this.deps.logger?.warn('killing hook server failed', { server, message: kill.message });
    this.deps.emit({ type: 'server_killed', server, reason });
  }
}
