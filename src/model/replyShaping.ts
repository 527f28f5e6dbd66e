/**
 * Turns a streamed reply into one the history can keep and any provider can be sent again: tool
 * names made real (an alias back to the tool's real name, wireNames.ts; gpt-oss on vLLM or sglang writes `functions.<name>`, sometimes with a Harmony
 * `<|channel|>` tail) and never a name the API would refuse; ids new in the history; a finish reason
 * in the loop's words (finishReasons.ts); usage estimated at four characters a token when none came.
 */
import type { ModelReply } from '../agent/ports';
import type { ToolCall, Usage } from '../agent/messages';
import type { PendingCall, RawReply } from './streamAccumulator';
import { loopFinishReason } from './finishReasons';
import { uniqueCallIds } from './toolCallIds';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const CHARS_PER_TOKEN = 4;

export interface ShapingContext {
  /** The names of the tools the request offered, as the wire named them. */
  toolNames: readonly string[];
  /** The real name behind a wire name the conversation sent (wireNames.ts); undefined for any other. */
  realName?: (wireName: string) => string | undefined;
  /** Whether an id is already used by a call in the request's history. */
  isTaken: (id: string) => boolean;
  /** The characters the request carried, for an estimate when the server reports no usage. */
  promptChars: () => number;
}

/** The tool a model meant, or a name the provider accepts if it meant none we offered. */
export function realToolName(name: string, offered: readonly string[]): string {
  if (offered.includes(name)) return name;
  const bare = name.replace(/<\|.*$/s, '').replace(/^functions\./, '').trim();
  if (offered.includes(bare)) return bare;
  if (TOOL_NAME.test(bare)) return bare;
  const safe = bare.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64);
  return safe === '' ? 'unnamed_tool' : safe;
}

function estimateUsage(raw: RawReply, calls: readonly PendingCall[], promptChars: number): Usage {
  const out = (raw.content ?? '').length + (raw.reasoning ?? '').length + calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const promptTokens = Math.ceil(promptChars / CHARS_PER_TOKEN);
  const completionTokens = Math.ceil(out / CHARS_PER_TOKEN);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}

function toToolCall(call: PendingCall, ctx: ShapingContext): ToolCall {
  const wireName = realToolName(call.name, ctx.toolNames);
  return {
    id: call.id,
    name: ctx.realName?.(wireName) ?? wireName,
    arguments: call.arguments,
    ...(call.providerData === undefined ? {} : { providerData: call.providerData }),
  };
}

export function shapeReply(raw: RawReply, ctx: ShapingContext): ModelReply {
  const toolCalls = uniqueCallIds(
    raw.calls.map((call) => toToolCall(call, ctx)),
    ctx.isTaken,
  );
  return {
    content: raw.content,
    toolCalls,
    ...(raw.reasoning === null ? {} : { reasoning: raw.reasoning }),
    finishReason: loopFinishReason(raw.finishReason, toolCalls.length),
    usage: raw.usage ?? estimateUsage(raw, raw.calls, ctx.promptChars()),
  };
}
