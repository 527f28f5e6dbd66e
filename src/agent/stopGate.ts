/**
 * The `_Stop` gate run when the model ends its turn (SPEC 3): finish when the model declined an
 * objection or the budget is spent, otherwise ask every allowlisted `_Stop` hook in parallel and turn
 * the objections into synthetic pairs plus one budget unit. It also says what became of the previous
 * round's objections (`objection_resolved`), and what still stands when the turn ends.
 */
import { type CoreContext, appendMessage } from './context';
import { buildHookPair } from './hookEnvelope';
import { collectObjections, decideGate, serversWithHook } from './stopGateRules';
import type { AgentEvent, HookObjection, Outcome, UnresolvedCause } from './events';
import type { ToolInfo } from './messages';

type ObjectionResolution = Extract<AgentEvent, { type: 'objection_resolved' }>['resolution'];

/** The gate's memory within one prompt; each new prompt starts from `newPromptGate()`. */
export interface PromptGate {
  afterObjection: boolean;
  /** The objections of the last gate round that the model has not yet answered with work. */
  pending: HookObjection[] | null;
}

export function newPromptGate(): PromptGate {
  return { afterObjection: false, pending: null };
}

export type GateResult = { kind: 'finish'; unresolved?: Outcome['unresolved'] } | { kind: 'continue' } | { kind: 'cancelled' };

/**
 * The turn ends while the last gate round's objections stand (the model has not answered them with
 * work): they are resolved as declined or overridden, and returned for the outcome so the user sees
 * them. Undefined when nothing stands.
 */
export function endWithObjectionsStanding(ctx: CoreContext, gate: PromptGate, cause: UnresolvedCause): Outcome['unresolved'] {
  const pending = settlePending(ctx, gate, cause === 'declined' ? 'declined' : 'overridden');
  return pending === null ? undefined : { cause, objections: pending };
}

/** Says what became of the standing objections (if any) and clears them; returns them. */
function settlePending(ctx: CoreContext, gate: PromptGate, resolution: ObjectionResolution): HookObjection[] | null {
  const pending = gate.pending;
  if (pending !== null) ctx.emit({ type: 'objection_resolved', servers: pending.map((o) => o.server), resolution });
  gate.pending = null;
  return pending;
}

/** A round with tool calls: the model is working, so a standing objection counts as complied with. */
export function noteToolRound(ctx: CoreContext, gate: PromptGate): void {
  settlePending(ctx, gate, 'complied');
  gate.afterObjection = false;
}

export function emitBudget(ctx: CoreContext, used: number): void {
  const hooks = ctx.settings().hooks;
  ctx.emit({ type: 'budget', used, max: hooks.stopMaxRejections, scope: hooks.stopBudgetScope, repeatedEndTurnStops: hooks.repeatedEndTurnStops });
}

/** No hook objected (or none was there to ask): a standing objection was complied with. */
function finishWithoutObjection(ctx: CoreContext, gate: PromptGate): GateResult {
  settlePending(ctx, gate, 'complied');
  return { kind: 'finish' };
}

/**
 * The gate for one end of turn. Decided at once, without waiting, when no hook has to be asked (budget
 * spent, an objection declined, or no allowlisted server has `_Stop`); otherwise a promise.
 */
export function runStopGate(ctx: CoreContext, gate: PromptGate, tools: readonly ToolInfo[], signal: AbortSignal): GateResult | Promise<GateResult> {
  const hooks = ctx.settings().hooks;
  const used = ctx.state().rejectionsUsed;
  const decision = decideGate({ rejectionsUsed: used, afterObjection: gate.afterObjection }, hooks);
  if (decision.kind === 'finish') {
    const unresolved = endWithObjectionsStanding(ctx, gate, decision.cause);
    return unresolved === undefined ? { kind: 'finish' } : { kind: 'finish', unresolved };
  }
  const order = ctx.tools.serverNames();
  const servers = serversWithHook(tools, hooks.allowlist, '_Stop', order);
  if (servers.length === 0) return signal.aborted ? { kind: 'cancelled' } : finishWithoutObjection(ctx, gate);
  return askStopHooks(ctx, gate, servers, order, signal);
}

async function askStopHooks(ctx: CoreContext, gate: PromptGate, servers: string[], order: string[], signal: AbortSignal): Promise<GateResult> {
  const hooks = ctx.settings().hooks;
  const used = ctx.state().rejectionsUsed;
  const context = { sessionId: ctx.sessionId, rejectionsUsed: used, rejectionBudget: hooks.stopMaxRejections, afterObjection: gate.afterObjection };
  const outcomes = await Promise.all(servers.map((server) => ctx.hookCaller.call(server, '_Stop', context, signal)));
  if (signal.aborted) return { kind: 'cancelled' };
  const objections = collectObjections(outcomes, order);
  if (objections.length === 0) return finishWithoutObjection(ctx, gate);
  const nowUsed = used + 1;
  emitBudget(ctx, nowUsed);
  for (const objection of objections) {
    const objected = { type: 'hook_objected' as const, server: objection.server, text: objection.text, rejectionsUsed: nowUsed, maxRejections: hooks.stopMaxRejections };
    ctx.emit(objection.failures ? { ...objected, failures: objection.failures } : objected);
    for (const message of buildHookPair('_Stop', objection.server, objection.text)) appendMessage(ctx, message);
  }
  gate.afterObjection = true;
  gate.pending = objections;
  return { kind: 'continue' };
}
