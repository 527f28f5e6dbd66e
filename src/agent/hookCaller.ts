/**
 * Calls one lifecycle hook on one server, with the agent's sovereignty rules (SPEC 4): arguments are
 * exactly `{}`, context rides in `_meta["sprout/hook"]`, the call races the hook timeout, and anything
 * but a completed non-error reply with text is "no objection" (fail open). One consecutive-timeout
 * counter per server, shared by all its hooks: the second timeout in a row kills the server, which
 * restarts lazily on next use.
 */
import { normaliseHookText } from './hookEnvelope';
import { hookEvidence, type HookEvidence } from './hookEvidence';
import type { Clock, Logger, ToolHost } from './ports';
import type { AgentEvent, HookCallResult, HookName } from './events';
import { errorMessage } from './errorMessage';

export const HOOK_META_KEY = 'sprout/hook';
/** Consecutive timeouts of one server that get it killed. */
export const KILL_AFTER_TIMEOUTS = 2;

export interface HookCallContext {
  sessionId: string;
  rejectionsUsed: number;
  rejectionBudget: number;
  afterObjection: boolean;
}

export interface HookCallOutcome {
  server: string;
  hook: HookName;
  result: HookCallResult;
  /** The normalised text for an objection; whatever came back (for display) otherwise. */
  text: string;
  /** Test verdict and failures from a completed reply's structured content. */
  evidence?: HookEvidence;
}

export interface HookCallerDeps {
  tools: ToolHost;
  clock: Clock;
  emit: (event: AgentEvent) => void;
  timeoutMs: () => number;
  logger?: Logger;
}

type Race = { kind: 'reply'; isError: boolean; text: string; structured?: unknown } | { kind: 'failed'; message: string } | { kind: 'timeout' };

export function hookMeta(hook: HookName, context: HookCallContext): Record<string, unknown> {
  return { [HOOK_META_KEY]: { event: hook, ...context } };
}

export function killReason(server: string, timeoutMs: number): string {
  return (
    `MCP server "${server}" timed out on ${KILL_AFTER_TIMEOUTS} hook calls in a row (limit ${timeoutMs} ms each), ` +
    'so the agent killed it. Any in-memory state of that server (a todo list, say) is lost; it restarts on next use.'
  );
}

export class HookCaller {
  private readonly timeouts = new Map<string, number>();

  constructor(private readonly deps: HookCallerDeps) {}

  consecutiveTimeouts(server: string): number {
    return this.timeouts.get(server) ?? 0;
  }

  async call(server: string, hook: HookName, context: HookCallContext, signal?: AbortSignal): Promise<HookCallOutcome> {
    const { clock, emit } = this.deps;
    const timeoutMs = this.deps.timeoutMs();
    const started = clock.now();
    emit({ type: 'hook_called', server, hook });
    const race = await this.race(server, hook, context, timeoutMs, signal);
    const outcome = this.classify(server, hook, race, signal);
    const finished = { type: 'hook_finished' as const, server, hook, result: outcome.result, text: outcome.text, durationMs: clock.now() - started };
    emit(outcome.evidence ? { ...finished, evidence: outcome.evidence } : finished);
    if (outcome.result === 'timeout') await this.countTimeout(server, hook, timeoutMs);
    return outcome;
  }

  private async race(server: string, hook: HookName, context: HookCallContext, timeoutMs: number, signal?: AbortSignal): Promise<Race> {
    const call = new AbortController();
    const wait = new AbortController();
    const onAbort = (): void => {
      call.abort();
      wait.abort();
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const reply: Promise<Race> = this.deps.tools
        .callTool(server, hook, {}, { signal: call.signal, meta: hookMeta(hook, context) })
        .then(
          (result) => ({ kind: 'reply' as const, isError: result.isError, text: result.text, structured: result.structured }),
          (error: unknown) => ({ kind: 'failed' as const, message: errorMessage(error) }),
        );
      const timer: Promise<Race> = this.deps.clock.sleep(timeoutMs, wait.signal).then(() => ({ kind: 'timeout' as const }));
      const first = await Promise.race([reply, timer]);
      // Aborting the call makes the adapter send notifications/cancelled; stopping the timer frees it.
      if (first.kind === 'timeout') call.abort();
      wait.abort();
      return first;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private classify(server: string, hook: HookName, race: Race, signal?: AbortSignal): HookCallOutcome {
    if (signal?.aborted) return { server, hook, result: 'cancelled', text: '' };
    if (race.kind === 'timeout') return { server, hook, result: 'timeout', text: '' };
    if (race.kind === 'failed') {
      this.deps.logger?.warn('hook call failed', { server, hook, message: race.message });
      return { server, hook, result: 'error', text: race.message };
    }
    this.timeouts.set(server, 0);
    if (race.isError) return { server, hook, result: 'error', text: race.text };
    const text = normaliseHookText(race.text);
    const evidence = hookEvidence(race.structured);
    return { server, hook, result: text === '' ? 'no_objection' : 'objection', text, ...(evidence ? { evidence } : {}) };
  }

  private async countTimeout(server: string, hook: HookName, timeoutMs: number): Promise<void> {
    const consecutive = this.consecutiveTimeouts(server) + 1;
    this.timeouts.set(server, consecutive);
    this.deps.emit({ type: 'hook_timed_out', server, hook, consecutive });
    if (consecutive < KILL_AFTER_TIMEOUTS) return;
    this.timeouts.set(server, 0);
    const reason = killReason(server, timeoutMs);
    // The kill is ours, but it is still bounded so nothing on a server's side can hold the turn.
    const stop = new AbortController();
    const kill = this.deps.tools.killServer(server, reason).catch((error: unknown) => {
      this.deps.logger?.warn('killing hook server failed', { server, message: errorMessage(error) });
    });
    await Promise.race([kill, this.deps.clock.sleep(Math.max(timeoutMs, 1000), stop.signal)]);
    stop.abort();
    this.deps.emit({ type: 'server_killed', server, reason });
  }
}
