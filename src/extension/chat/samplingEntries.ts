/**
 * The chat's card for a server's MCP sampling request (src/mcp/clientFeatures.ts emits the events):
 * made when the server asks, updated when it ends with the model that answered and its tokens. The
 * tokens also count in the chat's usage meter (ChatViewState), apart from the context they do not use.
 */
import type { AgentEvent } from '../../agent/events';
import type { SamplingRequest } from '../../agent/messages';
import type { ChatEntry, ContextUsage } from '../../shared/protocol';

export type SamplingEntry = Extract<ChatEntry, { kind: 'sampling' }>;

export function samplingEntryId(requestId: string): string {
  return `s-${requestId}`;
}

function firstLine(text: string, max = 200): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export function askedEntry(request: SamplingRequest): SamplingEntry {
  return {
    kind: 'sampling',
    id: samplingEntryId(request.id),
    server: request.server,
    prompt: firstLine(request.messages[0]?.text ?? ''),
    maxTokens: request.maxTokens,
    ...(request.cappedTo === undefined ? {} : { cappedTo: request.cappedTo }),
    status: 'asked',
  };
}

/** The card once the request ended; `entry` is the card made when it was asked (undefined: none was, a bare one is made). */
export function answeredEntry(entry: SamplingEntry | undefined, event: Extract<AgentEvent, { type: 'sampling_answered' }>): SamplingEntry {
  const base: SamplingEntry = entry ?? { kind: 'sampling', id: samplingEntryId(event.id), server: event.server, prompt: '', maxTokens: 0, status: 'asked' };
  const status = event.outcome === 'answered' ? 'answered' : event.outcome === 'failed' ? 'failed' : event.by === 'abort' ? 'withdrawn' : 'refused';
  const usage = event.usage;
  return {
    ...base,
    status,
    ...(event.model === undefined ? {} : { model: event.model }),
    ...(usage === undefined ? {} : { tokens: { prompt: usage.promptTokens, completion: usage.completionTokens, total: usage.totalTokens } }),
    ...(event.message === undefined ? {} : { note: event.message }),
  };
}

type SamplingEvent = Extract<AgentEvent, { type: 'sampling_requested' | 'sampling_answered' }>;

/** A chat's sampling cards and the tokens they spent, folded from the events for ChatViewState. */
export class SamplingCards {
  private sampled = 0;

  /** The card an event makes or updates (`isNew`: not in `entries` yet), and the tokens it adds to the meter. */
  fold(entries: readonly ChatEntry[], event: SamplingEvent): { entry: SamplingEntry; isNew: boolean; tokens: number } {
    if (event.type === 'sampling_requested') return { entry: askedEntry(event.request), isNew: true, tokens: 0 };
    const asked = entries.find((e): e is SamplingEntry => e.kind === 'sampling' && e.id === samplingEntryId(event.id));
    const tokens = event.usage?.totalTokens ?? 0;
    this.sampled += tokens;
    return { entry: answeredEntry(asked, event), isNew: asked === undefined, tokens };
  }

  /** The usage meter's state: the last model call's context, with the chat's sampling tokens apart (absent while none). */
  meter(usage: ContextUsage): ContextUsage {
    const { sampled: _old, ...context } = usage;
    return this.sampled === 0 ? context : { ...context, sampled: this.sampled };
  }
}
