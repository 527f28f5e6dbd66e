/**
 * One model call as the loop sees it: streamed text forwarded as `text_delta`, thinking as
 * `reasoning_delta` (never part of the answer; streamed text that turns out to have been thinking is
 * taken back by `text_reclassified`), retries as `retry`, a changed request shape as `model_adapted`, and every way it can end turned into a value (reply, cancelled with whatever text had streamed,
 * error with the adapter's message). A cancel returns at once, even if the adapter is slow to notice.
 */
import { CancelledError, raceAbort } from './cancellation';
import type { CoreContext } from './context';
import { ModelError, type ModelReply, type ModelRequest } from './ports';
import type { ChatMessage, ToolCall } from './messages';
import { errorMessage } from './errorMessage';

export type ModelTurn =
  | { kind: 'reply'; reply: ModelReply }
  | { kind: 'cancelled'; partialText: string }
  | { kind: 'error'; message: string; errorKind?: string };

export async function callModel(ctx: CoreContext, request: ModelRequest, signal: AbortSignal, streamText = true): Promise<ModelTurn> {
  let partial = '';
  const onTextDelta = (delta: string): void => {
    if (signal.aborted) return;
    partial += delta;
    if (streamText) ctx.emit({ type: 'text_delta', delta });
  };
  const onReasoningDelta = (delta: string): void => {
    if (streamText && !signal.aborted) ctx.emit({ type: 'reasoning_delta', delta });
  };
  // Text shown as answer that a lone `</think>` showed to be thinking: taken back, here and in the views.
  const onTextReclassified = (text: string): void => {
    if (signal.aborted || !partial.endsWith(text)) return;
    partial = partial.slice(0, partial.length - text.length);
    if (streamText) ctx.emit({ type: 'text_reclassified', text });
  };
  try {
    const reply = await raceAbort(
      ctx.model.complete(request, {
        signal,
        conversation: ctx.conversation,
        onTextDelta,
        onReasoningDelta,
        onTextReclassified,
        onRetry: (info) => ctx.emit({ type: 'retry', attempt: info.attempt, delayMs: info.delayMs, reason: info.reason, ...(info.cause === undefined ? {} : { cause: info.cause }) }),
        onAdapted: (note) => ctx.emit({ type: 'model_adapted', ...note }),
      }),
      signal,
    );
    if (signal.aborted) return { kind: 'cancelled', partialText: partial };
    return { kind: 'reply', reply: { ...reply, toolCalls: reply.toolCalls ?? [] } };
  } catch (error) {
    if (signal.aborted || error instanceof CancelledError || (error instanceof ModelError && error.kind === 'cancelled')) {
      return { kind: 'cancelled', partialText: partial };
    }
    if (error instanceof ModelError) return { kind: 'error', message: error.message, errorKind: error.kind };
    return { kind: 'error', message: `the model call failed: ${errorMessage(error)}` };
  }
}

/** The history message for a reply: the answer as content, the thinking kept apart for providers that need it back. */
export function replyMessage(reply: ModelReply, content: string | null, toolCalls?: ToolCall[]): ChatMessage {
  return {
    role: 'assistant',
    content,
    ...(toolCalls === undefined ? {} : { toolCalls }),
    ...(reply.reasoning === undefined || reply.reasoning === '' ? {} : { reasoning: reply.reasoning }),
  };
}
