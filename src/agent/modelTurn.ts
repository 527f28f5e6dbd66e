/**
 * One model call as the loop sees it: streamed text forwarded as `text_delta`, retries as `retry`,
 * and every way it can end turned into a value (reply, cancelled with whatever text had streamed,
 * error with the adapter's message). A cancel returns at once, even if the adapter is slow to notice.
 */
import { type CoreContext, CancelledError, raceAbort } from './context';
import { ModelError, type ModelReply, type ModelRequest } from './ports';
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
  try {
    const reply = await raceAbort(
      ctx.model.complete(request, {
        signal,
        onTextDelta,
        onRetry: (info) => ctx.emit({ type: 'retry', attempt: info.attempt, delayMs: info.delayMs, reason: info.reason }),
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
