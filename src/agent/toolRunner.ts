/**
 * Runs one round's tool calls: in parallel up to `maxParallelTools`, each with the tool timeout (which
 * starts once the host has authorized the call, so a pending approval is not tool time), and
 * appends the results in call order so the history stays valid whatever happens. Each call passes
 * `_PreToolUse` before approval and `_PostToolUse` after it ran (toolHooks.ts). Hooks and unknown
 * tools never reach a server; bad arguments, failures, timeouts and cancels become error results the
 * model can read. Results are capped with a marker saying how much was cut.
 */
import { CancelledError, raceAbort } from './cancellation';
import { type CoreContext, appendMessage } from './context';
import { CANCELLED_TOOL_RESULT } from './historyValidity';
import { hookServers, injectHookTexts } from './lifecycleHooks';
import { type DenialCount, postToolUse, preToolUse } from './toolHooks';
import type { HookReply } from './events';
import type { ImagePart, ToolCall, ToolCallResult, ToolInfo } from './messages';
import { toolResultImages } from './imageParts';
import type { ToolProgress } from './ports';
import { errorMessage } from './errorMessage';
import { invalidArgumentsResult, parseToolArguments } from './toolArguments';
import { runWithIdleTimeout } from './toolTimeout';
import { answerSearchCall, usesSearch } from './toolSearch';
import { answerSkillCall } from './skills';
import { answerResourceCall } from './resources';
import { type Mode, modeAllows, modeRefusal } from './modes';
import { type ToolSelection, selectedTools, selectionAllows, selectionRefusal } from './toolSelection';
import { DELEGATE_TOOL_NAME, runSubagent } from './subagents';
import type { RoundChoice } from './roundRequest';
import { type AgentProfile, agentAllows, agentRefusal } from './agentProfiles';
import { sessionMeta } from './sessionMeta';

/**
 * A server's `isError` result, as the model reads it: marked, so an error text cannot pass for
 * success ("File written" from a failing tool, say).
 */
export function markToolError(text: string): string {
  return /^error\b/i.test(text.trimStart()) ? text : `Error: ${text === '' ? 'the tool reported an error without a message' : text}`;
}

export function truncateToolResult(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n[result truncated: ${text.length - end} more characters]`;
}

/** The host's say before the call (an approval), untimed but cancellable: a result means the call does not run. */
async function authorize(ctx: CoreContext, tool: ToolInfo, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
  if (ctx.tools.authorize === undefined) return undefined;
  try {
    const refusal = await raceAbort(ctx.tools.authorize(tool.server, tool.bareName, args, signal), signal);
    // A host that answers a cancel with a denial still reads as cancelled.
    return signal.aborted ? { isError: true, text: CANCELLED_TOOL_RESULT } : refusal;
  } catch (error) {
    if (error instanceof CancelledError) return { isError: true, text: CANCELLED_TOOL_RESULT };
    return { isError: true, text: `tool ${tool.qualifiedName} was not run: ${errorMessage(error)}` };
  }
}

/** The tool hooks' view of one round: who has `_PreToolUse` / `_PostToolUse`, and the prompt's denials. */
interface ToolRound {
  preServers: string[];
  postServers: string[];
  denials: DenialCount;
  /** While the tool search is in use (toolSearch.ts): its answer to a call, or undefined to run the call. */
  search?: (call: ToolCall) => ToolCallResult | undefined;
  /** The prompt's mode: a call it forbids is refused before any hook or approval (modes.ts). */
  mode: Mode;
  /** The chat's tool selection: a call of a tool it turned off is refused the same way (toolSelection.ts). */
  selection?: ToolSelection;
  /** The agents `sprout__delegate` may name this prompt (subagents.ts); empty: the tool is not offered. */
  delegates: readonly AgentProfile[];
  /** The chat's custom agent: a call its tool filter forbids is refused the same way (agentProfiles.ts). */
  agent?: AgentProfile;
}

/** How a call ended; `ran` when it reached its server (the tool ran, whatever it answered). */
type Executed = { result: ToolCallResult; ran?: { tool: ToolInfo; args: Record<string, unknown>; durationMs: number } };

interface CallResult {
  text: string;
  isError: boolean;
  /** The result's images that passed the checks (imageParts.ts). */
  images?: ImagePart[];
  /** The `_PostToolUse` texts of a call that ran. */
  post?: Promise<HookReply[]>;
}

/** One call of the prompt as `_Stop`'s evidence lists it. */
export interface ToolCallRecord {
  tool: string;
  isError: boolean;
}

async function executeCall(ctx: CoreContext, call: ToolCall, tool: ToolInfo | undefined, round: ToolRound, signal: AbortSignal): Promise<Executed> {
  // Answered by the core (skills.ts), like the tool search: no server, so no hook and no approval.
  const skill = answerSkillCall(call, ctx.skills?.set);
  if (skill !== undefined) return { result: skill };
  // A delegation runs a child session (subagents.ts); its own tool calls pass their own hooks and approvals.
  if (call.name === DELEGATE_TOOL_NAME && round.delegates.length > 0 && ctx.subagents !== undefined) {
    return { result: await runSubagent({ ...ctx.subagents, emit: (e) => ctx.emit(e) }, call, round.delegates, signal, round.mode) };
  }
  const resource = await answerResourceCall(call, ctx.tools.resources, signal);
  if (resource !== undefined) return { result: resource };
  const searched = round.search?.(call);
  if (searched !== undefined) return { result: searched };
  if (tool === undefined) return { result: { isError: true, text: `unknown tool: ${call.name}` } };
  if (!selectionAllows(round.selection, tool)) return { result: { isError: true, text: selectionRefusal(call.name) } };
  if (!modeAllows(round.mode, tool)) return { result: { isError: true, text: modeRefusal(round.mode, call.name) } };
  if (round.agent !== undefined && !agentAllows(round.agent, tool)) return { result: { isError: true, text: agentRefusal(round.agent, call.name) } };
  const args = parseToolArguments(call.arguments);
  if (!args.ok) return { result: { isError: true, text: invalidArgumentsResult(call.name, call.arguments, args.error) } };
  // Policy first: a denied call is never put to the user for approval.
  const denial = await preToolUse(ctx, round.preServers, call, tool, args.value, round.denials, signal);
  if (denial !== undefined) return { result: denial };
  const refusal = await authorize(ctx, tool, args.value, signal);
  if (refusal !== undefined) return { result: refusal };
  const { toolTimeoutMs: idleMs, toolMaxTotalMs: maxTotalMs } = ctx.settings();
  const progress = progressReporter(ctx, call);
  const started = ctx.clock.now();
  const result = await runWithIdleTimeout(
    ctx.clock,
    { idleMs, maxTotalMs },
    // Every server is told the session (sessionMeta.ts): a server keeping a list per chat keys it by this.
    (s, touch) => ctx.tools.callTool(tool.server, tool.bareName, args.value, { signal: s, meta: sessionMeta(ctx.sessionId, ctx.subagent), callId: call.id, onProgress: (p) => (touch(), progress(p)) }),
    signal,
  );
  const ran = { tool, args: args.value, durationMs: ctx.clock.now() - started };
  switch (result.kind) {
    case 'done':
      return { result: result.value.isError ? { ...result.value, isError: true, text: markToolError(result.value.text) } : result.value, ran };
    case 'failed':
      return { result: { isError: true, text: `tool ${call.name} failed: ${result.message}` }, ran };
    case 'timeout':
      return {
        result: {
          isError: true,
          text:
            result.why === 'idle'
              ? `tool ${call.name} timed out after ${idleMs} ms and was cancelled`
              : `tool ${call.name} was still running after ${Math.max(idleMs, maxTotalMs)} ms (the most progress may extend it) and was cancelled`,
        },
        ran,
      };
    case 'cancelled':
      return { result: { isError: true, text: CANCELLED_TOOL_RESULT } };
  }
}

/** Emits `tool_progress` for a call, skipping repeats (a task polled every second says "working" each time). */
function progressReporter(ctx: CoreContext, call: ToolCall): (progress: ToolProgress) => void {
  let last = '';
  return (p) => {
    const key = `${p.progress ?? ''}|${p.total ?? ''}|${p.message ?? ''}`;
    if (key === last) return;
    last = key;
    ctx.emit({ type: 'tool_progress', callId: call.id, name: call.name, ...p });
  };
}

async function runOne(ctx: CoreContext, call: ToolCall, tool: ToolInfo | undefined, round: ToolRound, signal: AbortSignal): Promise<CallResult> {
  const started = ctx.clock.now();
  ctx.emit({ type: 'tool_started', callId: call.id, name: call.name, arguments: call.arguments });
  const executed: Executed = signal.aborted ? { result: { isError: true, text: CANCELLED_TOOL_RESULT } } : await executeCall(ctx, call, tool, round, signal);
  const { isError } = executed.result;
  const { images, notes } = toolResultImages(call.name, executed.result.images);
  const text = [truncateToolResult(executed.result.text, ctx.settings().toolResultMaxChars), ...notes].join('\n');
  ctx.emit({ type: 'tool_finished', callId: call.id, name: call.name, isError, text, durationMs: ctx.clock.now() - started });
  const ran = executed.ran;
  const result = { text, isError, ...(images.length > 0 ? { images } : {}) };
  if (ran === undefined || round.postServers.length === 0 || signal.aborted) return result;
  // Not awaited here: the round's other calls go on while the hooks answer.
  return { ...result, post: postToolUse(ctx, round.postServers, { call, ...ran, isError, result: text }, signal) };
}

/**
 * Runs `calls` and appends one tool message per call, in call order (also when cancelled), then the
 * `_PostToolUse` texts in call order, each call's in configuration order. Returns each call's record.
 */
export async function runToolCalls(
  ctx: CoreContext,
  calls: readonly ToolCall[],
  tools: readonly ToolInfo[],
  signal: AbortSignal,
  denials: DenialCount = { used: 0 },
  mode: Mode = 'agent',
  choice: RoundChoice = {},
): Promise<ToolCallRecord[]> {
  const { selection, delegates = [], agent } = choice;
  // Hooks are absent from the map, so a model calling one gets `unknown tool` and no server is touched.
  const byName = new Map(tools.filter((t) => !t.isHook).map((t) => [t.qualifiedName, t]));
  const round: ToolRound = { preServers: hookServers(ctx, tools, '_PreToolUse'), postServers: hookServers(ctx, tools, '_PostToolUse'), denials, mode, delegates, ...(selection ? { selection } : {}), ...(agent === undefined ? {} : { agent }) };
  // The search sees what the round offered: a tool turned off is neither found nor loaded.
  const searchable = selectedTools(selection, tools);
  const limit = ctx.settings().toolSearchThreshold;
  if (usesSearch(searchable, limit)) {
    round.search = (call) => answerSearchCall(call, searchable, ctx.state().loadedTools, (query, names) => ctx.emit({ type: 'tools_loaded', query, names }), limit);
  }
  const results: CallResult[] = calls.map(() => ({ text: CANCELLED_TOOL_RESULT, isError: true }));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls.length) {
      const index = next;
      next += 1;
      const call = calls[index];
      if (call !== undefined) results[index] = await runOne(ctx, call, byName.get(call.name), round, signal);
    }
  };
  const width = Math.max(1, Math.min(ctx.settings().maxParallelTools, calls.length));
  await Promise.all(Array.from({ length: width }, worker));
  calls.forEach((call, index) => {
    const images = results[index]?.images;
    appendMessage(ctx, { role: 'tool', toolCallId: call.id, content: results[index]?.text ?? CANCELLED_TOOL_RESULT, ...(images ? { images } : {}) });
  });
  await injectPostToolUse(ctx, results, signal);
  return calls.map((call, index) => ({ tool: call.name, isError: results[index]?.isError ?? true }));
}

async function injectPostToolUse(ctx: CoreContext, results: readonly CallResult[], signal: AbortSignal): Promise<void> {
  if (results.every((r) => r.post === undefined)) return;
  const texts = await Promise.all(results.map((r) => r.post ?? []));
  if (signal.aborted) return;
  for (const each of texts) injectHookTexts(ctx, '_PostToolUse', each);
}

/** Answers calls that will not run (the reply was cut off or filtered) so the history stays valid. */
export function answerUnrun(ctx: CoreContext, calls: readonly ToolCall[], why: string): void {
  for (const call of calls) appendMessage(ctx, { role: 'tool', toolCallId: call.id, content: `not run: ${why}` });
}
