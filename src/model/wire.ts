/**
 * Pure mappers from the core's request shape to OpenAI Chat Completions parameters. They keep the
 * wire rules the real API enforces (content null only next to tool calls, no empty `tool_calls` or
 * `tools` arrays) and apply the endpoint's WireRules: tool-call ids in the endpoint's id policy, and
 * the provider fields kept on assistant messages sent back only to the dialects that need them
 * (DeepSeek's `reasoning_content`, Gemini's `extra_content`). Under the default rules a history with
 * no such fields maps to exactly what a plain SDK user would send.
 */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ModelRequest, ToolSpec } from '../agent/ports';
import type { ChatMessage, ToolCall } from '../agent/messages';
import type { WireRules } from './dialect';
import { wireCallId } from './toolCallIds';

export const DEFAULT_WIRE_RULES: WireRules = { idPolicy: 'openai', echoProviderData: false };

/**
 * Gemini 3 checks the first call of each step for a thought signature; calls no Gemini model made
 * (the synthetic hook pairs, a history from another model) carry the value Google documents for them.
 */
const UNSIGNED_CALL = { google: { thought_signature: 'skip_thought_signature_validator' } };

function wireCall(call: ToolCall, first: boolean, rules: WireRules): ChatCompletionMessageFunctionToolCall {
  const wire: ChatCompletionMessageFunctionToolCall = { id: wireCallId(call.id, rules.idPolicy), type: 'function', function: { name: call.name, arguments: call.arguments } };
  if (!rules.echoProviderData) return wire;
  const extra = call.providerData ?? (first ? UNSIGNED_CALL : undefined);
  return extra === undefined ? wire : Object.assign(wire, { extra_content: extra });
}

function assistantMessage(message: Extract<ChatMessage, { role: 'assistant' }>, rules: WireRules): ChatCompletionMessageParam {
  const calls = message.toolCalls ?? [];
  const wire: ChatCompletionMessageParam =
    calls.length === 0
      ? { role: 'assistant', content: message.content ?? '' }
      : { role: 'assistant', content: message.content, tool_calls: calls.map((call, i) => wireCall(call, i === 0, rules)) };
  // DeepSeek needs it on every assistant message between two user messages with a tool call in between
  // and ignores it elsewhere, so every one carries it, empty where there was no thinking.
  if (rules.echoReasoning !== undefined) Object.assign(wire, { [rules.echoReasoning]: message.reasoning ?? '' });
  return wire;
}

export function toWireMessage(message: ChatMessage, rules: WireRules = DEFAULT_WIRE_RULES): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: wireCallId(message.toolCallId, rules.idPolicy), content: message.content };
    case 'assistant':
      return assistantMessage(message, rules);
  }
}

export function toWireMessages(messages: readonly ChatMessage[], rules: WireRules = DEFAULT_WIRE_RULES): ChatCompletionMessageParam[] {
  return messages.map((message) => toWireMessage(message, rules));
}

/** Undefined for no tools: the real API rejects an empty `tools` array. */
export function toWireTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export interface StreamingOptions {
  /** Ask for the usage chunk (`stream_options.include_usage`); off for endpoints that refuse the field. */
  streamUsage?: boolean;
}

/** `mapMessages` may answer `toWireMessages` from a cache (WireHistory). */
export function toStreamingParams(
  request: ModelRequest,
  mapMessages: (messages: readonly ChatMessage[]) => ChatCompletionMessageParam[] = toWireMessages,
  options: StreamingOptions = {},
): ChatCompletionCreateParamsStreaming {
  const tools = toWireTools(request.tools);
  return {
    model: request.model,
    messages: mapMessages(request.messages),
    ...(tools ? { tools } : {}),
    stream: true,
    ...(options.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
  };
}
