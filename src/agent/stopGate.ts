/**
 * The `_Stop` gate run when the model ends its turn (docs/hooks.md#the-_stop-gate): ask every allowlisted `_Stop` hook in
 * parallel and turn the objections into synthetic pairs plus one budget unit. When the model declined
 * an objection, or the budget is spent, the hooks are asked once more instead, as a final verdict that
 * never continues the turn, so the outcome says what still objects (and not what no longer does). Every call
 * carries the evidence of the prompt (the tool calls made, the model's closing text). It also says what
 * became of the previous round's objections (`objection_resolved`), and what stands when the turn ends.
 */
import type { Mode } from './modes';
import { currentInstructions, instructionsMeta } from './instructionState';
import { type CoreContext, appendMessage } from './context';
import { buildHookPair, capHookField } from './hookEnvelope';
import { askHook } from './lifecycleHooks';
import { decideGate, serversWithHook } from './stopGateRules';
import type { AgentEvent, HookObjection, Outcome, UnresolvedCause } from './events';
import type { ToolInfo } from './messages';

/** The gate's hook: `_Stop`, or `_SubagentStop` in a subagent's session (same rules, its own budget: docs/hooks.md#_subagentstop). */
export function stopHook(ctx: Pick<CoreContext, 'subagent'>): '_Stop' | '_SubagentStop' {
  return ctx.subagent === undefined ? '_Stop' : '_SubagentStop';
}

/** `_Stop`'s evidence: at most this many of the prompt's latest tool calls, and this much closing text. */
export const STOP_EVIDENCE_MAX_CALLS = 100;
export const STOP_EVIDENCE_TEXT_BYTES = 4096;

/** What the prompt did, for `_Stop` to judge rather than take the model's word. */
export interface StopEvidence {
  /** The calls made since the prompt started (the last 100), as the model saw them end. */
  toolCalls: readonly { tool: string; isError: boolean }[];
  /** The model's end-of-turn text. */
  lastAssistantText: string;
  /** The user's prompt the turn answers, where known (a bridged agent's Stop payload may have none). */
  prompt?: string;
  /** The prompt's mode (modes.ts), where the core ran it: a hook may hold an Ask answer to less than a change. */
  mode?: Mode;
}

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
 * The gate for one end of turn. Decided at once, without waiting, when no hook has to be asked (an
 * objection declined, `_Stop` disabled, or no allowlisted server has `_Stop`); otherwise a promise.
 */
export function runStopGate(
  ctx: CoreContext,
  gate: PromptGate,
  tools: readonly ToolInfo[],
  signal: AbortSignal,
  evidence: StopEvidence,
): GateResult | Promise<GateResult> {
  const hooks = ctx.settings().hooks;
  const used = ctx.state().rejectionsUsed;
  const decision = decideGate({ rejectionsUsed: used, afterObjection: gate.afterObjection }, hooks);
  if (decision.kind === 'finish') return finishStanding(ctx, gate, decision.cause);
  const servers = serversWithHook(tools, hooks.allowlist, stopHook(ctx), ctx.tools.serverNames());
  if (servers.length === 0 && signal.aborted) return { kind: 'cancelled' };
  // Nobody left to ask for a verdict: what stood when the model declined or the budget ran out still stands.
  if (decision.kind === 'verdict') {
    return servers.length === 0 ? finishStanding(ctx, gate, decision.cause) : finalVerdict(ctx, gate, servers, evidence, signal, decision.cause);
  }
  if (servers.length === 0) return finishWithoutObjection(ctx, gate);
  return askStopHooks(ctx, gate, servers, evidence, signal);
}

function finishStanding(ctx: CoreContext, gate: PromptGate, cause: UnresolvedCause): GateResult {
  const unresolved = endWithObjectionsStanding(ctx, gate, cause);
  return unresolved === undefined ? { kind: 'finish' } : { kind: 'finish', unresolved };
}

function stopFields(ctx: CoreContext, gate: PromptGate, evidence: StopEvidence): Record<string, unknown> {
  return {
    rejectionsUsed: ctx.state().rejectionsUsed,
    rejectionBudget: ctx.settings().hooks.stopMaxRejections,
    afterObjection: gate.afterObjection,
    toolCalls: evidence.toolCalls.slice(-STOP_EVIDENCE_MAX_CALLS).map(({ tool, isError }) => ({ tool, isError })),
    lastAssistantText: capHookField(evidence.lastAssistantText, STOP_EVIDENCE_TEXT_BYTES),
    ...(evidence.prompt !== undefined ? { prompt: capHookField(evidence.prompt) } : {}),
    ...(evidence.mode !== undefined ? { mode: evidence.mode } : {}),
    ...instructionsMeta(currentInstructions(ctx.instructions, ctx.state().history)),
  };
}

async function askStopHooks(ctx: CoreContext, gate: PromptGate, servers: string[], evidence: StopEvidence, signal: AbortSignal): Promise<GateResult> {
  const max = ctx.settings().hooks.stopMaxRejections;
  const hook = stopHook(ctx);
  const objections = await askHook(ctx, servers, hook, stopFields(ctx, gate, evidence), signal);
  if (signal.aborted) return { kind: 'cancelled' };
  if (objections.length === 0) return finishWithoutObjection(ctx, gate);
  const nowUsed = ctx.state().rejectionsUsed + 1;
  emitBudget(ctx, nowUsed);
  for (const objection of objections) {
    const objected = { type: 'hook_objected' as const, hook, server: objection.server, text: objection.text, rejectionsUsed: nowUsed, maxRejections: max, scope: ctx.settings().hooks.stopBudgetScope };
    ctx.emit(objection.failures ? { ...objected, failures: objection.failures } : objected);
    for (const message of buildHookPair(hook, objection.server, objection.text)) appendMessage(ctx, message);
  }
  gate.afterObjection = true;
  gate.pending = objections;
  return { kind: 'continue' };
}

/**
 * The model declined, or the budget is spent: `_Stop` once more with `final: true`. Whatever objects
 * now is the turn's unresolved objection (with `cause`); nothing is appended and the turn ends either
 * way. After a decline the standing objection is settled as declined whatever the verdict says: the
 * model did not act on it, even when the hook no longer minds (a one-time reminder, say).
 */
async function finalVerdict(
  ctx: CoreContext,
  gate: PromptGate,
  servers: string[],
  evidence: StopEvidence,
  signal: AbortSignal,
  cause: UnresolvedCause,
): Promise<GateResult> {
  const objections: HookObjection[] = await askHook(ctx, servers, stopHook(ctx), { ...stopFields(ctx, gate, evidence), final: true }, signal);
  if (signal.aborted) return { kind: 'cancelled' };
  if (objections.length === 0 && cause !== 'declined') return finishWithoutObjection(ctx, gate);
  settlePending(ctx, gate, cause === 'declined' ? 'declined' : 'overridden');
  return objections.length === 0 ? { kind: 'finish' } : { kind: 'finish', unresolved: { cause, objections } };
}
