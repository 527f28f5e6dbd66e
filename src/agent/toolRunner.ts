/**
 * Runs one round's tool calls: in parallel up to `maxParallelTools`, each with the tool timeout (which
 * starts once the host has authorized the call, so a pending approval is not tool time), and
 * appends the results in call order so the history stays valid whatever happens. Hooks and unknown
 * tools never reach a server; bad arguments, failures, timeouts and cancels become error results the
 * model can read. Results are capped with a marker saying how much was cut.
 */
import { type CoreContext, CancelledError, appendMessage, raceAbort } from './context';
import { CANCELLED_TOOL_RESULT } from './historyValidity';
import type { ToolCall, ToolCallResult, ToolInfo } from './messages';
import type { ToolProgress } from './ports';
import { errorMessage } from './errorMessage';
import { runWithIdleTimeout } from './toolTimeout';

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

export function parseToolArguments(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Some models send an empty string for a call without arguments.
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `the arguments are not valid JSON (${errorMessage(error)})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the arguments must be a JSON object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
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

async function executeCall(ctx: CoreContext, call: ToolCall, tool: ToolInfo | undefined, signal: AbortSignal): Promise<ToolCallResult> {
  if (tool === undefined) return { isError: true, text: `unknown tool: ${call.name}` };
  const args = parseToolArguments(call.arguments);
  if (!args.ok) return { isError: true, text: `invalid arguments for ${call.name}: ${args.error}. Call it again with a JSON object.` };
  const refusal = await authorize(ctx, tool, args.value, signal);
  if (refusal !== undefined) return refusal;
  const { toolTimeoutMs: idleMs, toolMaxTotalMs: maxTotalMs } = ctx.settings();
  const progress = progressReporter(ctx, call);
  const result = await runWithIdleTimeout(
    ctx.clock,
    { idleMs, maxTotalMs },
    (s, touch) => ctx.tools.callTool(tool.server, tool.bareName, args.value, { signal: s, callId: call.id, onProgress: (p) => (touch(), progress(p)) }),
    signal,
  );
  switch (result.kind) {
    case 'done':
      return result.value.isError ? { isError: true, text: markToolError(result.value.text) } : result.value;
    case 'failed':
      return { isError: true, text: `tool ${call.name} failed: ${result.message}` };
    case 'timeout':
      return {
        isError: true,
        text:
          result.why === 'idle'
            ? `tool ${call.name} timed out after ${idleMs} ms and was cancelled`
            : `tool ${call.name} was still running after ${Math.max(idleMs, maxTotalMs)} ms (the most progress may extend it) and was cancelled`,
      };
    case 'cancelled':
      return { isError: true, text: CANCELLED_TOOL_RESULT };
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

async function runOne(ctx: CoreContext, call: ToolCall, tool: ToolInfo | undefined, signal: AbortSignal): Promise<string> {
  const started = ctx.clock.now();
  ctx.emit({ type: 'tool_started', callId: call.id, name: call.name, arguments: call.arguments });
  const result = signal.aborted ? { isError: true, text: CANCELLED_TOOL_RESULT } : await executeCall(ctx, call, tool, signal);
  const text = truncateToolResult(result.text, ctx.settings().toolResultMaxChars);
  ctx.emit({ type: 'tool_finished', callId: call.id, name: call.name, isError: result.isError, text, durationMs: ctx.clock.now() - started });
  return text;
}

/** Runs `calls` and appends one tool message per call, in call order (also when cancelled). */
export async function runToolCalls(ctx: CoreContext, calls: readonly ToolCall[], tools: readonly ToolInfo[], signal: AbortSignal): Promise<void> {
  // Hooks are absent from the map, so a model calling one gets `unknown tool` and no server is touched.
  const byName = new Map(tools.filter((t) => !t.isHook).map((t) => [t.qualifiedName, t]));
  const results: string[] = calls.map(() => CANCELLED_TOOL_RESULT);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls.length) {
      const index = next;
      next += 1;
      const call = calls[index];
      if (call !== undefined) results[index] = await runOne(ctx, call, byName.get(call.name), signal);
    }
  };
  const width = Math.max(1, Math.min(ctx.settings().maxParallelTools, calls.length));
  await Promise.all(Array.from({ length: width }, worker));
  calls.forEach((call, index) => appendMessage(ctx, { role: 'tool', toolCallId: call.id, content: results[index] ?? CANCELLED_TOOL_RESULT }));
}

/** Answers calls that will not run (the reply was cut off or filtered) so the history stays valid. */
export function answerUnrun(ctx: CoreContext, calls: readonly ToolCall[], why: string): void {
  for (const call of calls) appendMessage(ctx, { role: 'tool', toolCallId: call.id, content: `not run: ${why}` });
}
