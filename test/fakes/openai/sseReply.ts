/**
 * The events of one streamed reply, as the fake sends them: role, thinking, text pieces, tool-call
 * deltas, finish chunk, usage, `[DONE]`, shaped by the reply's quirk switches and by the provider the
 * fake plays (Mistral's 9-character ids and unasked usage, DeepSeek's `reasoning_content`, Gemini's
 * signed calls). What must come back (reasoning, signatures) is noted in `issued`.
 */
import type { FakeProvider, FakeReplyResponse, FakeUsage } from './fakeOpenAiTypes';
import { replyKey, type IssuedProviderData } from './providerRules';

export interface ReplyContext {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  /** Size of the request body, for made-up prompt token counts. */
  requestChars: number;
  nextCallId: () => string;
  provider: FakeProvider;
  issued: IssuedProviderData;
}

export interface WireCall {
  id: string;
  name: string;
  arguments: string;
  extra?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

export function wireCalls(reply: FakeReplyResponse, ctx: ReplyContext): WireCall[] {
  const calls = (reply.toolCalls ?? []).map((c): WireCall => ({
    id: c.id ?? ctx.nextCallId(),
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  // Gemini signs the first call of a step; the signature must come back with it.
  const first = calls[0];
  if (ctx.provider === 'gemini' && first !== undefined) {
    const signature = `sig_${first.id}_${ctx.issued.signatures.size + 1}`;
    ctx.issued.signatures.set(first.id, signature);
    first.extra = { google: { thought_signature: signature } };
  }
  return calls;
}

export function usageOf(reply: FakeReplyResponse, ctx: ReplyContext, calls: WireCall[]): Required<FakeUsage> {
  if (reply.usage) {
    const u = reply.usage;
    return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens };
  }
  const outChars = (reply.text ?? '').length + (reply.reasoning ?? '').length + calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt = Math.ceil(ctx.requestChars / 4);
  const completion = Math.ceil(outChars / 4) + 1;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function finishOf(reply: FakeReplyResponse, calls: WireCall[]): string {
  return reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
}

/** The reply's text as sent, with `<think>` tags around the thinking when the reply says so. */
export function textOf(reply: FakeReplyResponse): string {
  if (reply.reasoning !== undefined && reply.reasoningAs === 'think_tags') return `<think>${reply.reasoning}</think>\n\n${reply.text ?? ''}`;
  return reply.text ?? '';
}

function callDeltas(reply: FakeReplyResponse, call: WireCall, position: number, size: number): Json[] {
  const mode = reply.toolCallIndex ?? 'each';
  const index = mode === 'each' ? { index: position } : mode === 'zero' ? { index: 0 } : {};
  const idMode = reply.callIds ?? 'scripted';
  const id = idMode === 'omitted' ? {} : { id: idMode === 'empty' ? '' : call.id };
  const type = reply.omitCallType ? {} : { type: 'function' };
  const extra = call.extra === undefined ? {} : { extra_content: call.extra };
  const args: unknown = reply.argumentsAsObject ? (JSON.parse(call.arguments) as unknown) : call.arguments;
  if (reply.wholeToolCalls) return [{ ...index, ...id, ...type, function: { name: call.name, arguments: args }, ...extra }];
  const first = { ...index, ...id, ...type, function: { name: call.name, arguments: '' }, ...extra };
  const pieces: unknown[] = reply.argumentsAsObject ? [args] : split(call.arguments, size);
  const later = (piece: unknown): Json => {
    if (reply.repeatCallHeader) return { ...index, ...id, ...type, function: { name: call.name, arguments: piece } };
    if (reply.blankLaterHeaders) return { ...index, id: '', type: '', function: { name: '', arguments: piece } };
    return { ...index, function: { arguments: piece } };
  };
  return [first, ...pieces.map(later)];
}

/** One piece of thinking where the reply's switches put it: a field, OpenRouter's details list, or Magistral's typed parts. */
function thinkingDelta(reply: FakeReplyResponse, field: string, piece: string): Json {
  if (reply.contentParts) return { content: [{ type: 'thinking', thinking: [{ type: 'text', text: piece }] }] };
  if (field === 'reasoning_details') return { content: null, reasoning_details: [{ type: 'reasoning.text', text: piece, format: 'unknown', index: 0 }] };
  return { content: null, [field]: piece };
}

/** The deltas of one reply, in order: role, thinking, text pieces, then tool-call pieces. */
function deltas(reply: FakeReplyResponse, calls: WireCall[], ctx: ReplyContext): Json[] {
  const size = Math.max(1, reply.deltaSize ?? 3);
  const out: Json[] = [{ role: 'assistant', content: '', refusal: null }];
  const field = reply.reasoningAs ?? 'reasoning_content';
  if (reply.reasoning !== undefined && field !== 'think_tags') {
    for (const piece of split(reply.reasoning, size)) out.push(thinkingDelta(reply, field, piece));
    if (ctx.provider === 'deepseek' || ctx.provider === 'kimi') ctx.issued.reasoning.set(replyKey({ content: reply.text ?? null, tool_calls: calls }), reply.reasoning);
  }
  for (const piece of split(textOf(reply), size)) out.push({ content: reply.contentParts ? [{ type: 'text', text: piece }] : piece });
  const perCall = calls.map((call, position) => callDeltas(reply, call, position, size));
  if (reply.interleaveToolCalls) {
    const longest = Math.max(0, ...perCall.map((p) => p.length));
    for (let i = 0; i < longest; i++) for (const p of perCall) if (p[i]) out.push({ tool_calls: [p[i]] });
  } else {
    for (const p of perCall) for (const d of p) out.push({ tool_calls: [d] });
  }
  return out;
}

/** `data:` payloads (and comment lines) of one streamed reply, in order. */
export function sseEvents(reply: FakeReplyResponse, ctx: ReplyContext): string[] {
  const calls = wireCalls(reply, ctx);
  const id = `chatcmpl-fake${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = usageOf(reply, ctx, calls);
  const usageIn = reply.usageIn ?? (ctx.provider === 'kimi' ? 'choice' : 'final');
  const finalUsage = usageIn === 'final' && (ctx.includeUsage || ctx.provider === 'mistral');
  const usageField = ctx.includeUsage ? { usage: null } : {};
  const chunk = (choices: unknown[], extra: Json = usageField): string =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model: ctx.model, system_fingerprint: 'fp_fake', choices, ...extra });
  const all = deltas(reply, calls, ctx);
  const running = (n: number): Json => ({ usage: { ...usage, completion_tokens: n, total_tokens: usage.prompt_tokens + n } });
  const out = all.map((delta, i) => chunk([{ index: 0, delta, logprobs: null, finish_reason: null }], usageIn === 'every' ? running(i) : usageField));
  // Moonshot's Kimi puts the usage inside the finishing choice.
  const finish = [{ index: 0, delta: {}, logprobs: null, finish_reason: finishOf(reply, calls), ...(usageIn === 'choice' ? { usage } : {}) }];
  // Mistral puts the usage on the finish chunk; OpenAI sends it in its own chunk with no choices.
  if (!reply.omitFinish) out.push(chunk(finish, usageIn === 'every' || (finalUsage && ctx.provider === 'mistral') ? { usage } : usageField));
  if (finalUsage && ctx.provider !== 'mistral') out.push(chunk([], { usage }));
  const events = out.map((data) => `data: ${data}\n\n`);
  if (reply.errorAfterChunks !== undefined) {
    const error = reply.streamError ?? { error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } };
    events.splice(reply.errorAfterChunks, events.length, `${reply.namedErrorEvent ? 'event: error\n' : ''}data: ${JSON.stringify(error)}\n\n`);
    return events;
  }
  if (reply.sseComments) {
    for (let i = events.length - 1; i > 0; i--) events.splice(i, 0, i % 2 === 0 ? ': OPENROUTER PROCESSING\n\n' : ': keep-alive\n\n\n');
  }
  return reply.omitDone ? events : events.concat('data: [DONE]\n\n');
}
