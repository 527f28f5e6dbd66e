/**
 * MCP sampling (`sampling/createMessage`), the pure parts: a server's request read into a
 * SamplingRequest (text only; `maxTokens` capped at SAMPLING_MAX_TOKENS, the cap said), and the
 * one-call model request that answers it (the chat's model, no tools, no loop). The hub's handler
 * (clientFeatures.ts) asks the host's permission, calls the model and reports both as events.
 */
import type { ChatMessage, SamplingRequest } from '../agent/messages';
import type { ModelRequest } from '../agent/ports';

/** The most tokens a server's sampling request gets, whatever it asks for. */
export const SAMPLING_MAX_TOKENS = 4096;

/** The JSON-RPC code a refused sampling request gets (the spec's "User rejected sampling request" example). */
export const SAMPLING_REFUSED_CODE = -1;

interface ContentBlock {
  type: string;
  text?: string;
}

interface RawParams {
  messages: readonly { role: string; content: ContentBlock | readonly ContentBlock[] }[];
  systemPrompt?: string;
  maxTokens: number;
  modelPreferences?: { hints?: readonly { name?: string }[] };
}

/** The server's request as Sprout answers it, or why it cannot (said to the server). */
export function samplingRequestOf(id: string, server: string, params: RawParams): SamplingRequest | { error: string } {
  const messages: SamplingRequest['messages'] = [];
  for (const [i, message] of params.messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') return { error: `message ${i} has role "${message.role}"; only user and assistant messages can be sampled` };
    const blocks = Array.isArray(message.content) ? (message.content as readonly ContentBlock[]) : [message.content as ContentBlock];
    const other = blocks.find((b) => b.type !== 'text');
    if (other !== undefined) return { error: `message ${i} holds ${other.type} content; Sprout samples text only` };
    messages.push({ role: message.role, text: blocks.map((b) => b.text ?? '').join('\n') });
  }
  if (messages.length === 0) return { error: 'the request has no messages' };
  const asked = Math.floor(params.maxTokens);
  if (!Number.isFinite(asked) || asked < 1) return { error: `maxTokens must be a positive integer (got ${String(params.maxTokens)})` };
  const hints = (params.modelPreferences?.hints ?? []).flatMap((h) => (typeof h.name === 'string' && h.name !== '' ? [h.name] : []));
  return {
    id,
    server,
    messages,
    ...(params.systemPrompt !== undefined && params.systemPrompt !== '' ? { systemPrompt: params.systemPrompt } : {}),
    maxTokens: asked,
    ...(asked > SAMPLING_MAX_TOKENS ? { cappedTo: SAMPLING_MAX_TOKENS } : {}),
    ...(hints.length > 0 ? { modelHints: hints } : {}),
  };
}

/** The single model call that answers a request: the chat's model, the server's messages, no tools. */
export function samplingModelRequest(request: SamplingRequest, model: string): ModelRequest {
  const history: ChatMessage[] = [
    ...(request.systemPrompt === undefined ? [] : [{ role: 'system' as const, content: request.systemPrompt }]),
    ...request.messages.map((m): ChatMessage => (m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text })),
  ];
  return { model, messages: history, tools: [], maxTokens: request.cappedTo ?? request.maxTokens };
}

/** A note for the server's answer and the user: the cap, and that the hints were not followed. */
export function samplingNote(request: SamplingRequest, model: string): string | undefined {
  const notes = [
    ...(request.cappedTo === undefined ? [] : [`maxTokens ${request.maxTokens} was capped to ${request.cappedTo}`]),
    ...(request.modelHints === undefined || request.modelHints.includes(model) ? [] : [`the chat's model ${model} answered (the server preferred ${request.modelHints.join(', ')})`]),
  ];
  return notes.length === 0 ? undefined : notes.join('; ');
}

/** MCP's stop reason for a reply's finish reason. */
export function stopReasonOf(finishReason: string): string {
  if (finishReason === 'stop') return 'endTurn';
  if (finishReason === 'length') return 'maxTokens';
  return finishReason;
}
