/**
 * The hooks around a model-requested tool call. `_PreToolUse` runs before the call and before anyone
 * is asked to approve it: the first denier (in configuration order) answers the call with its envelope,
 * within a per-prompt denial budget, so a hostile policy server can refuse at most that many calls.
 * `_PostToolUse` runs after a call that ran (result or error), and what it says is injected after the
 * round's tool messages. Hooks never see calls to hooks or unknown tools: those never reach a server.
 */
import type { CoreContext } from './context';
import { CANCELLED_TOOL_RESULT } from './historyValidity';
import { capHookField, hookEnvelopeContent } from './hookEnvelope';
import { askHook } from './lifecycleHooks';
import type { HookReply } from './events';
import type { ToolCall, ToolCallResult, ToolInfo } from './messages';

/** The `_PreToolUse` denials of one prompt; shared by the round's parallel calls. */
export interface DenialCount {
  used: number;
}

/** The call as every tool hook describes it in `_meta`. */
function callFields(call: ToolCall, tool: ToolInfo, args: Record<string, unknown>): Record<string, unknown> {
  return { tool: call.name, server: tool.server, toolName: tool.bareName, arguments: args, callId: call.id };
}

/**
 * `_PreToolUse` for one call: a result (the first denier's envelope, or cancelled) stands in for the
 * call; undefined lets it go on to approval and the server. Not called once the budget is spent.
 */
export async function preToolUse(
  ctx: CoreContext,
  servers: readonly string[],
  call: ToolCall,
  tool: ToolInfo,
  args: Record<string, unknown>,
  denials: DenialCount,
  signal: AbortSignal,
): Promise<ToolCallResult | undefined> {
  const budget = ctx.settings().hooks.preToolUseMaxDenials;
  if (denials.used >= budget || servers.length === 0) return undefined;
  const fields = { ...callFields(call, tool, args), denialsUsed: denials.used, denialBudget: budget };
  const [denier] = await askHook(ctx, servers, '_PreToolUse', fields, signal);
  if (signal.aborted) return { isError: true, text: CANCELLED_TOOL_RESULT };
  // A parallel call of the same round may have spent the last denial while this one was asked.
  if (denier === undefined || denials.used >= budget) return undefined;
  denials.used += 1;
  ctx.emit({ type: 'tool_denied', callId: call.id, name: call.name, server: denier.server, text: denier.text, denialsUsed: denials.used, denialBudget: budget });
  return { isError: true, text: hookEnvelopeContent('_PreToolUse', denier.server, denier.text) };
}

/** What `_PostToolUse` is told about a call that ran: its result as the model will see it, and how long the tool took. */
export interface RanCall {
  call: ToolCall;
  tool: ToolInfo;
  args: Record<string, unknown>;
  isError: boolean;
  result: string;
  durationMs: number;
}

/** `_PostToolUse` for one call that ran; the texts to inject, in configuration order. */
export async function postToolUse(ctx: CoreContext, servers: readonly string[], ran: RanCall, signal: AbortSignal): Promise<HookReply[]> {
  const fields = { ...callFields(ran.call, ran.tool, ran.args), isError: ran.isError, durationMs: ran.durationMs, result: capHookField(ran.result) };
  return askHook(ctx, servers, '_PostToolUse', fields, signal);
}
