/**
 * One agent event run through Sprout's own hook machinery, not a copy of it: a CoreContext over the
 * agent session's remembered state, whose HookCaller applies the timeout, fail-open and the kill after
 * two timeouts in a row, and the core's `_Stop` gate (budget, decline rule, final verdict),
 * `_PreToolUse` denial budget, `_PostToolUse` and prompt-start hooks. What they decide comes back as an
 * agent-neutral SproutAnswer; the session's state is updated in place for the caller to save.
 */
import { HOOK_OUTPUT_PREAMBLE, hookOutputText, type BridgeCall, type SproutAnswer } from '../../agentHooks/agentFormat';
import type { CoreContext } from '../../agent/context';
import type { AgentEvent, HookName, Outcome } from '../../agent/events';
import { HookCaller } from '../../agent/hookCaller';
import { capHookField } from '../../agent/hookEnvelope';
import { askHook, hookServers } from '../../agent/lifecycleHooks';
import { ModelError, type Logger, type ModelClient, type ToolHost } from '../../agent/ports';
import { applyEvent, emptyReplayState, type ReplayState } from '../../agent/replayState';
import type { AgentSettings } from '../../agent/settings';
import { STOP_EVIDENCE_MAX_CALLS, runStopGate, type PromptGate } from '../../agent/stopGate';
import { postToolUse, preToolUse } from '../../agent/toolHooks';
import type { ToolInfo } from '../../agent/messages';
import { nodeClock } from '../../platform/nodeClock';
import type { BridgeSessionState } from './bridgeState';

export interface BridgeRun {
  call: BridgeCall;
  settings: AgentSettings;
  tools: ToolHost;
  state: BridgeSessionState;
  signal: AbortSignal;
  logger?: Logger;
}

/** The bridge calls hooks only; a model call from it would be a bug, said as such. */
const NO_MODEL: ModelClient = { complete: () => Promise.reject(new ModelError('config', 'the hook bridge calls no model')) };

/** The subagent a `_SubagentStop` payload names (claudeFamily.ts: agent_id, agent_type). */
function subagentOf(call: BridgeCall): { id: string; name: string } | undefined {
  if (call.hook !== '_SubagentStop') return undefined;
  const agent = call.fields.agent as { id?: unknown; name?: unknown } | undefined;
  const name = typeof agent?.name === 'string' ? agent.name : 'subagent';
  return { id: typeof agent?.id === 'string' ? agent.id : name, name };
}

function bridgeContext(run: BridgeRun): { ctx: CoreContext; timeouts: Map<string, number> } {
  const subagent = subagentOf(run.call);
  const used = subagent === undefined ? run.state.rejectionsUsed : (run.state.subagents[subagent.id]?.rejectionsUsed ?? 0);
  let replay: ReplayState = { ...emptyReplayState(), rejectionsUsed: used };
  const timeouts = new Map(Object.entries(run.state.timeouts));
  // The events only carry the budget used back into the state; nobody watches a bridge's event stream.
  const emit = (event: AgentEvent): void => {
    replay = applyEvent(replay, event);
  };
  const hookCaller = new HookCaller({ tools: run.tools, clock: nodeClock, emit, timeoutMs: () => run.settings.hooks.timeoutMs, timeouts, logger: run.logger });
  const ctx: CoreContext = {
    sessionId: run.call.sessionId,
    settings: () => run.settings,
    model: NO_MODEL,
    tools: run.tools,
    clock: nodeClock,
    logger: run.logger,
    hookCaller,
    emit,
    state: () => replay,
    hintedServers: new Set(),
    lifecycle: { sessionStart: null, promptRan: true, ended: false },
    ...(subagent === undefined ? {} : { subagent }),
  };
  return { ctx, timeouts };
}

/** A new prompt of the agent's: the gate and the denials start afresh, and a prompt-scoped budget too. */
function newPrompt(state: BridgeSessionState, settings: AgentSettings): void {
  state.afterObjection = false;
  state.pending = null;
  state.denialsUsed = 0;
  state.toolCalls = [];
  if (settings.hooks.stopBudgetScope === 'prompt') state.rejectionsUsed = 0;
}

const CAUSE: Record<NonNullable<Outcome['unresolved']>['cause'], string> = {
  declined: 'the agent finished without acting on it',
  budget_exhausted: 'the objection budget is spent',
  max_rounds: 'the round cap came first',
};

function unresolvedNotice(unresolved: NonNullable<Outcome['unresolved']>): string {
  const lines = unresolved.objections.map((o) => `${o.server}: ${o.text}`);
  return [`Sprout: the turn ended with a hook objection unresolved (${CAUSE[unresolved.cause]}).`, ...lines].join('\n');
}

async function stopEvent(run: BridgeRun, ctx: CoreContext, tools: ToolInfo[]): Promise<SproutAnswer> {
  const { state, call, settings } = run;
  // The agent says this end of turn is not a continuation, but the last one drew an objection: the
  // agent ended that turn some other way (its own cap, the user), so this is a new prompt.
  if (call.afterObjection === false && state.afterObjection) newPrompt(state, settings);
  const gate: PromptGate = { afterObjection: state.afterObjection, pending: state.pending };
  const lastAssistantText = typeof call.fields.lastAssistantText === 'string' ? call.fields.lastAssistantText : '';
  const prompt = typeof call.fields.prompt === 'string' ? { prompt: call.fields.prompt } : {};
  const decided = await runStopGate(ctx, gate, tools, run.signal, { toolCalls: state.toolCalls, lastAssistantText, ...prompt });
  state.rejectionsUsed = ctx.state().rejectionsUsed;
  state.afterObjection = gate.afterObjection;
  state.pending = gate.pending;
  if (decided.kind === 'continue') return { kind: 'object', text: hookOutputText('_Stop', gate.pending ?? []) };
  // The turn is over: the next end of turn belongs to the next prompt.
  newPrompt(state, settings);
  return decided.kind === 'finish' && decided.unresolved !== undefined ? { kind: 'none', notice: unresolvedNotice(decided.unresolved) } : { kind: 'none' };
}

/**
 * A subagent's end of turn: the same gate over that subagent's own state (its budget, its decline),
 * kept beside the session's; its tool calls are the session's evidence (the agent's tool events do not
 * say whose they are).
 */
async function subagentStopEvent(run: BridgeRun, ctx: CoreContext, tools: ToolInfo[]): Promise<SproutAnswer> {
  const id = ctx.subagent?.id ?? 'subagent';
  const own = run.state.subagents[id] ?? { rejectionsUsed: 0, afterObjection: false, pending: null };
  if (run.call.afterObjection === false && own.afterObjection) Object.assign(own, { afterObjection: false, pending: null });
  const gate: PromptGate = { afterObjection: own.afterObjection, pending: own.pending };
  const lastAssistantText = typeof run.call.fields.lastAssistantText === 'string' ? run.call.fields.lastAssistantText : '';
  const decided = await runStopGate(ctx, gate, tools, run.signal, { toolCalls: run.state.toolCalls, lastAssistantText });
  if (decided.kind === 'continue') {
    run.state.subagents[id] = { rejectionsUsed: ctx.state().rejectionsUsed, afterObjection: true, pending: gate.pending };
    return { kind: 'object', text: hookOutputText('_SubagentStop', gate.pending ?? []) };
  }
  // The subagent is done: its gate is forgotten.
  delete run.state.subagents[id];
  return decided.kind === 'finish' && decided.unresolved !== undefined ? { kind: 'none', notice: unresolvedNotice(decided.unresolved) } : { kind: 'none' };
}

function toolOf(call: BridgeCall): { info: ToolInfo; args: Record<string, unknown>; id: string } {
  const f = call.fields;
  const info: ToolInfo = { server: String(f.server), bareName: String(f.toolName), qualifiedName: String(f.tool), description: '', inputSchema: {}, annotations: {}, isHook: false };
  return { info, args: (f.arguments ?? {}) as Record<string, unknown>, id: String(f.callId ?? '') };
}

async function preToolEvent(run: BridgeRun, ctx: CoreContext, tools: ToolInfo[]): Promise<SproutAnswer> {
  const { info, args, id } = toolOf(run.call);
  const denials = { used: run.state.denialsUsed };
  const call = { id, name: info.qualifiedName, arguments: JSON.stringify(args) };
  const result = await preToolUse(ctx, hookServers(ctx, tools, '_PreToolUse'), call, info, args, denials, run.signal);
  run.state.denialsUsed = denials.used;
  return result !== undefined && !run.signal.aborted ? { kind: 'deny', text: `${HOOK_OUTPUT_PREAMBLE}\n${result.text}` } : { kind: 'none' };
}

async function postToolEvent(run: BridgeRun, ctx: CoreContext, tools: ToolInfo[]): Promise<SproutAnswer> {
  const { info, args, id } = toolOf(run.call);
  const isError = run.call.fields.isError === true;
  const ran = { call: { id, name: info.qualifiedName, arguments: JSON.stringify(args) }, tool: info, args, isError, result: String(run.call.fields.result ?? ''), durationMs: 0 };
  const texts = await postToolUse(ctx, hookServers(ctx, tools, '_PostToolUse'), ran, run.signal);
  // A tool ran: the agent is working on what was said, so the next end of turn is asked afresh.
  const state = run.state;
  state.toolCalls = [...state.toolCalls, { tool: info.qualifiedName, isError }].slice(-STOP_EVIDENCE_MAX_CALLS);
  state.afterObjection = false;
  state.pending = null;
  for (const sub of Object.values(state.subagents)) Object.assign(sub, { afterObjection: false, pending: null });
  return texts.length > 0 ? { kind: 'inject', text: hookOutputText('_PostToolUse', texts) } : { kind: 'none' };
}

async function injectingEvent(run: BridgeRun, ctx: CoreContext, tools: ToolInfo[], hook: HookName): Promise<SproutAnswer> {
  const f = run.call.fields;
  const fields =
    hook === '_UserPromptSubmit'
      ? { prompt: capHookField(typeof f.prompt === 'string' ? f.prompt : '') }
      : hook === '_PostCompact'
        ? { rejectionsUsed: run.state.rejectionsUsed, rejectionBudget: run.settings.hooks.stopMaxRejections, afterObjection: false }
        : f;
  const texts = await askHook(ctx, hookServers(ctx, tools, hook), hook, fields, run.signal);
  if (hook === '_SessionEnd' || texts.length === 0) return { kind: 'none' };
  return { kind: 'inject', text: hookOutputText(hook, texts) };
}

/** Runs the event's hook and says what the agent should be told; `run.state` is updated. */
export async function runBridgeCall(run: BridgeRun): Promise<SproutAnswer> {
  if (run.call.hook === '_UserPromptSubmit') newPrompt(run.state, run.settings);
  if (run.call.hook === '_PreToolUse') run.state.afterObjection = false;
  const { ctx, timeouts } = bridgeContext(run);
  // Warm servers whose lists are current (the hook host's) answer at once, as a round of Sprout's own does.
  const tools = run.tools.cachedTools?.() ?? (await run.tools.listTools(run.signal, { waitMs: run.settings.firstPromptServerWaitMs }));
  let answer: SproutAnswer;
  if (run.call.hook === '_Stop') answer = await stopEvent(run, ctx, tools);
  else if (run.call.hook === '_SubagentStop') answer = await subagentStopEvent(run, ctx, tools);
  else if (run.call.hook === '_PreToolUse') answer = await preToolEvent(run, ctx, tools);
  else if (run.call.hook === '_PostToolUse') answer = await postToolEvent(run, ctx, tools);
  else answer = await injectingEvent(run, ctx, tools, run.call.hook);
  run.state.timeouts = Object.fromEntries(timeouts);
  return answer;
}
