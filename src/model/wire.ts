/**
 * Pure mappers from the core's request shape to OpenAI Chat Completions parameters. They keep the
 * wire rules the real API enforces (content null only next to tool calls, no empty `tool_calls` or
 * `tools` arrays) so any OpenAI-compatible endpoint accepts what the core sends.
 */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ModelRequest, ToolSpec } from '../agent/ports';
import type { ChatMessage } from '../agent/messages';

export function toWireMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content ?? '' };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      };
    }
  }
}

export function toWireMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map(toWireMessage);
}

/** Undefined for no tools: the real API rejects an empty `tools` array. */
export function toWireTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** `mapMessages` may answer `toWireMessages` from a cache (WireHistory). */
export function toStreamingParams(
  request: ModelRequest,
  mapMessages: (messages: readonly ChatMessage[]) => ChatCompletionMessageParam[] = toWireMessages,
): ChatCompletionCreateParamsStreaming {
  const tools = toWireTools(request.tools);
  return {
    model: request.model,
    messages: mapMessages(request.messages),
    ...(tools ? { tools } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}
