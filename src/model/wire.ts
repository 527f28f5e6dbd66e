/**
 * Pure mappers from the core's request shape to OpenAI Chat Completions parameters. They keep the
 * wire rules the real API enforces (content null only next to tool calls, no empty `tool_calls` or
 * `tools` arrays) and apply the endpoint's WireRules: tool-call ids in the endpoint's id policy, the
 * provider fields kept on assistant messages sent back only to the dialects that need them
 * (DeepSeek's `reasoning_content`, Gemini's `extra_content`), `""` or null as the content of a turn
 * that only calls tools, the instructions folded into the first user message for templates without
 * a system role, reduced tool schemas for strict APIs, and images as parts or notes (wireImages.ts).
 * Under the default rules a history with no such fields maps to exactly what a plain SDK user would send.
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
import { completeToolSchema, reduceToolSchema } from './toolSchemas';
import { wireCallId } from './toolCallIds';
import { toolContent, userContent, withToolImages } from './wireImages';
import { WireNames } from './wireNames';

/** A real tool name's alias on the wire (wireNames.ts); the name itself where no aliases are kept. */
export type AliasOf = (realName: string) => string;
const AS_IS: AliasOf = (name) => name;

export const DEFAULT_WIRE_RULES: WireRules = { idPolicy: 'openai', echoProviderData: false, instructions: 'system', toolTurnContent: 'null', toolSchemas: 'full', images: 'parts', toolNames: 'openai' };

/**
 * Gemini 3 checks the first call of each step for a thought signature; calls no Gemini model made
 * (the synthetic hook pairs, a history from another model) carry the value Google documents for them.
 */
const UNSIGNED_CALL = { google: { thought_signature: 'skip_thought_signature_validator' } };

function wireCall(call: ToolCall, first: boolean, rules: WireRules, alias: AliasOf): ChatCompletionMessageFunctionToolCall {
  const wire: ChatCompletionMessageFunctionToolCall = { id: wireCallId(call.id, rules.idPolicy), type: 'function', function: { name: alias(call.name), arguments: call.arguments } };
  if (!rules.echoProviderData) return wire;
  const extra = call.providerData ?? (first ? UNSIGNED_CALL : undefined);
  return extra === undefined ? wire : Object.assign(wire, { extra_content: extra });
}

/** A turn that only calls tools: null as OpenAI documents it, or `""` for servers that refuse null. */
function toolTurnContent(content: string | null, rules: WireRules): string | null {
  if (content !== null && content !== '') return content;
  return rules.toolTurnContent === 'empty' ? '' : null;
}

function assistantMessage(message: Extract<ChatMessage, { role: 'assistant' }>, rules: WireRules, alias: AliasOf): ChatCompletionMessageParam {
  const calls = message.toolCalls ?? [];
  const wire: ChatCompletionMessageParam =
    calls.length === 0
      ? { role: 'assistant', content: message.content ?? '' }
      : { role: 'assistant', content: toolTurnContent(message.content, rules), tool_calls: calls.map((call, i) => wireCall(call, i === 0, rules, alias)) };
  // DeepSeek needs it on every assistant message between two user messages with a tool call in between
  // and ignores it elsewhere, so every one carries it, empty where there was no thinking.
  if (rules.echoReasoning !== undefined) Object.assign(wire, { [rules.echoReasoning]: message.reasoning ?? '' });
  return wire;
}

/** `alias`: the tool names of calls sent back, as the request's tools are named (toStreamingParams). */
export function toWireMessage(message: ChatMessage, rules: WireRules = DEFAULT_WIRE_RULES, alias: AliasOf = AS_IS): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: userContent(message, rules) };
    case 'tool':
      return { role: 'tool', tool_call_id: wireCallId(message.toolCallId, rules.idPolicy), content: toolContent(message, rules) };
    case 'assistant':
      return assistantMessage(message, rules, alias);
  }
}

/** One wire message per message (a tool's images are carried by toStreamingParams, wireImages.ts). */
export function toWireMessages(messages: readonly ChatMessage[], rules: WireRules = DEFAULT_WIRE_RULES, alias: AliasOf = AS_IS): ChatCompletionMessageParam[] {
  return messages.map((message) => toWireMessage(message, rules, alias));
}

/** Undefined for no tools: the real API rejects an empty `tools` array. */
export function toWireTools(tools: readonly ToolSpec[], rules: Pick<WireRules, 'toolSchemas'> = DEFAULT_WIRE_RULES, alias: AliasOf = AS_IS): ChatCompletionFunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: alias(tool.name), description: tool.description, parameters: rules.toolSchemas === 'reduced' ? reduceToolSchema(tool.parameters) : completeToolSchema(tool.parameters) },
  }));
}

/**
 * For chat templates without a system role: the system messages' text goes at the start of the first
 * user message (one message, so templates that insist on user/assistant alternation accept it too).
 */
export function foldInstructions(messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer');
  if (system.length === 0) return messages;
  const text = system.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''))).join('\n\n');
  const rest = messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
  const first = rest.findIndex((m) => m.role === 'user');
  if (first < 0) return [{ role: 'user', content: text }, ...rest];
  const user = rest[first] as Extract<ChatCompletionMessageParam, { role: 'user' }>;
  const content = typeof user.content === 'string' ? `${text}\n\n${user.content}` : [{ type: 'text' as const, text }, ...user.content];
  return rest.map((m, i) => (i === first ? { ...user, content } : m));
}

function textOf(content: ChatCompletionMessageParam['content']): string {
  if (content === null || content === undefined) return '';
  return typeof content === 'string' ? content : content.map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * For gateways that refuse two messages of one role in a row (Bedrock's Converse behind LiteLLM,
 * Mistral templates): an assistant's text and the tool calls after it become one assistant message
 * (as OpenAI's own replies carry both), and two user messages one. Tool answers stay as they are.
 */
export function mergeConsecutiveTurns(messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (last?.role === 'assistant' && message.role === 'assistant') {
      const text = [textOf(last.content ?? null), textOf(message.content ?? null)].filter((t) => t !== '').join('\n\n');
      const calls = [...(last.tool_calls ?? []), ...(message.tool_calls ?? [])];
      out[out.length - 1] = { ...last, ...message, content: text === '' ? (message.content ?? last.content ?? null) : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    } else if (last?.role === 'user' && message.role === 'user') {
      const parts = (m: typeof message) => (typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content);
      const both = typeof last.content === 'string' && typeof message.content === 'string' ? `${last.content}\n\n${message.content}` : [...parts(last), ...parts(message)];
      out[out.length - 1] = { ...last, content: both };
    } else out.push(message);
  }
  return out;
}

export interface StreamingOptions {
  /** Ask for the usage chunk (`stream_options.include_usage`); off for endpoints that refuse the field. */
  streamUsage?: boolean;
  /** The request-level rules (instructions, tool schemas); the default rules when omitted. */
  rules?: WireRules;
  /** The conversation's aliases under `rules.toolNames`; a fresh table when omitted. */
  names?: WireNames;
}

/** Every tool name a request carries: its tools', then its history's calls'. */
export function namesOf(request: Pick<ModelRequest, 'tools' | 'messages'>): string[] {
  const names = request.tools.map((t) => t.name);
  // Every round passes over the whole history: one loop, no array per message.
  for (const m of request.messages) if (m.role === 'assistant' && m.toolCalls !== undefined) for (const c of m.toolCalls) names.push(c.name);
  return names;
}

/**
 * `mapMessages` may answer `toWireMessages` from a cache (WireHistory); it is given the alias of each
 * tool name, the same the request's tools carry.
 */
export function toStreamingParams(
  request: ModelRequest,
  mapMessages?: (messages: readonly ChatMessage[], alias: AliasOf) => ChatCompletionMessageParam[],
  options: StreamingOptions = {},
): ChatCompletionCreateParamsStreaming {
  const rules = options.rules ?? DEFAULT_WIRE_RULES;
  const names = options.names ?? new WireNames(rules.toolNames);
  names.claim(namesOf(request));
  const alias: AliasOf = (name) => names.wire(name);
  const tools = toWireTools(request.tools, rules, alias);
  const mapped = mapMessages ? mapMessages(request.messages, alias) : toWireMessages(request.messages, rules, alias);
  const messages = withToolImages(request.messages, mapped, rules);
  const folded = rules.instructions === 'first_user' ? foldInstructions(messages) : messages;
  return {
    model: request.model,
    messages: rules.mergeTurns === true ? mergeConsecutiveTurns(folded) : folded,
    ...(tools ? { tools } : {}),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    stream: true,
    ...(options.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
  };
}
