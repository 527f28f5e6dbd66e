/**
 * One streamed request and its reply read to the end: the text and thinking forwarded as they come,
 * the stream dropped (and reported cut) when it goes silent for the idle time, a user cancel told
 * apart from that. Resolves with the folded reply; whether to try again is the client's business.
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { onAbort } from '../agent/cancellation';
import { ModelError, type ModelCallOptions } from '../agent/ports';
import type { Endpoint } from './endpoint';
import type { IdleWatch, WatchedStream } from './idleWatch';
import { StreamCutError } from './modelErrors';
import { callSignalOption } from './responseGuard';
import { StreamAccumulator, StreamErrorEvent } from './streamAccumulator';

export interface Delivered {
  /** Answer text of this attempt reached the user: a retry would show it twice. */
  text: boolean;
}

export function cancelled(): ModelError {
  return new ModelError('cancelled', 'The model call was cancelled.');
}

function deliver(accumulator: StreamAccumulator, text: string, options: ModelCallOptions, delivered: Delivered): void {
  if (accumulator.reclassifiedPiece) options.onTextReclassified?.(accumulator.reclassifiedPiece);
  if (accumulator.reasoningPiece) options.onReasoningDelta?.(accumulator.reasoningPiece);
  if (text) {
    delivered.text = true;
    options.onTextDelta?.(text);
  }
}

export async function streamReply(
  endpoint: Endpoint,
  params: ChatCompletionCreateParamsStreaming,
  headers: Record<string, string>,
  options: ModelCallOptions,
  idleWatch: IdleWatch,
  delivered: Delivered,
): Promise<StreamAccumulator> {
  // Our own controller, so a stream that goes silent can be dropped without looking like a user cancel.
  const controller = new AbortController();
  const stopForwarding = onAbort(options.signal, () => controller.abort());
  let idle = false;
  let watched: WatchedStream | undefined;
  const silent = (): StreamCutError => new StreamCutError(`the response stream sent nothing for ${idleWatch.idleMs} ms`);
  try {
    // Not the SDK's `signal` (it would compose it by AbortSignal.any per request): the guarded fetch joins it (responseGuard.ts).
    const stream = await endpoint.sdk.chat.completions.create(params, { headers, fetchOptions: callSignalOption(controller.signal) });
    endpoint.answered = true;
    const accumulator = new StreamAccumulator();
    watched = idleWatch.watch(() => ((idle = true), controller.abort()));
    for await (const chunk of stream) {
      watched.touch();
      deliver(accumulator, accumulator.add(chunk), options, delivered);
    }
    // The SDK ends the iteration quietly on abort, ours (a silent stream) included.
    if (options.signal.aborted) throw cancelled();
    if (idle) throw silent();
    deliver(accumulator, accumulator.flush(), options, delivered);
    if (!accumulator.complete) throw new StreamCutError();
    const failed = accumulator.endedInFailure;
    if (failed !== undefined) throw new StreamErrorEvent(`the provider ended the reply with finish_reason "${failed}" and nothing in it`, undefined);
    return accumulator;
  } catch (error) {
    if (idle && !options.signal.aborted) throw silent();
    throw error;
  } finally {
    watched?.stop();
    stopForwarding();
  }
}
