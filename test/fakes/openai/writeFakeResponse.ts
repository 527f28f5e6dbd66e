/**
 * Turns one scripted FakeResponse into bytes on the wire: a Chat Completions SSE stream (text and
 * tool-call deltas split into pieces, finish chunk, usage chunk, `[DONE]`), a `chat.completion`
 * object, an HTTP error, a hang or a destroyed socket. Waits stop early once the client is gone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAiErrorBody, type FakeReplyResponse, type FakeResponse, type FakeUsage } from './fakeOpenAiTypes';

export interface ReplyContext {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  /** Size of the request body, for made-up prompt token counts. */
  requestChars: number;
  nextCallId: () => string;
}

interface WireCall {
  id: string;
  name: string;
  arguments: string;
}

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

function wait(ms: number | undefined, res: ServerResponse): Promise<void> {
  if (!ms || gone(res)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
    res.once('close', done);
  });
}

function wireCalls(reply: FakeReplyResponse, ctx: ReplyContext): WireCall[] {
  return (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? ctx.nextCallId(),
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
}

function usageOf(reply: FakeReplyResponse, ctx: ReplyContext, calls: WireCall[]): Required<FakeUsage> {
  if (reply.usage) {
    const u = reply.usage;
    return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens };
  }
  const outChars = (reply.text ?? '').length + calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt = Math.ceil(ctx.requestChars / 4);
  const completion = Math.ceil(outChars / 4) + 1;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function finishOf(reply: FakeReplyResponse, calls: WireCall[]): string {
  return reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
}

/** The deltas of one reply, in order: role, text pieces, then tool-call pieces (by index). */
function deltas(reply: FakeReplyResponse, calls: WireCall[]): Record<string, unknown>[] {
  const size = Math.max(1, reply.deltaSize ?? 3);
  const out: Record<string, unknown>[] = [{ role: 'assistant', content: '', refusal: null }];
  for (const piece of split(reply.text ?? '', size)) out.push({ content: piece });
  const perCall = calls.map((call, index) => {
    const pieces = split(call.arguments, size);
    const first = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    return [first, ...pieces.map((p) => ({ index, function: { arguments: p } }))];
  });
  if (reply.interleaveToolCalls) {
    const longest = Math.max(0, ...perCall.map((p) => p.length));
    for (let i = 0; i < longest; i++) for (const p of perCall) if (p[i]) out.push({ tool_calls: [p[i]] });
  } else {
    for (const p of perCall) for (const d of p) out.push({ tool_calls: [d] });
  }
  return out;
}

function sseChunks(reply: FakeReplyResponse, ctx: ReplyContext): string[] {
  const calls = wireCalls(reply, ctx);
  const id = `chatcmpl-fake${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const usageField = ctx.includeUsage ? { usage: null } : {};
  const chunk = (choices: unknown[], extra: Record<string, unknown> = usageField): string =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model: ctx.model, system_fingerprint: 'fp_fake', choices, ...extra });
  const out = deltas(reply, calls).map((delta) => chunk([{ index: 0, delta, logprobs: null, finish_reason: null }]));
  out.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishOf(reply, calls) }]));
  if (ctx.includeUsage) out.push(chunk([], { usage: usageOf(reply, ctx, calls) }));
  return out.map((data) => `data: ${data}\n\n`).concat('data: [DONE]\n\n');
}

async function writeStream(res: ServerResponse, reply: FakeReplyResponse, ctx: ReplyContext): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...reply.headers });
  res.flushHeaders();
  const chunks = sseChunks(reply, ctx);
  for (const [i, data] of chunks.entries()) {
    if (gone(res)) return;
    if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (reply.hangAfterChunks !== undefined && i >= reply.hangAfterChunks) return; // left open until the client leaves
    if (i > 0) await wait(reply.chunkDelayMs, res);
    if (gone(res)) return;
    // Waiting for each write to reach the socket makes a later cut land after these bytes, not before.
    await new Promise<void>((resolve) => res.write(data, () => resolve()));
  }
  res.end();
}

function writeCompletion(res: ServerResponse, reply: FakeReplyResponse, ctx: ReplyContext): void {
  const calls = wireCalls(reply, ctx);
  const message = {
    role: 'assistant',
    content: reply.text ?? null,
    refusal: null,
    ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}),
  };
  const body = {
    id: `chatcmpl-fake${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishOf(reply, calls) }],
    usage: usageOf(reply, ctx, calls),
  };
  res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify(body));
}

export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (gone(res)) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Writes one scripted response; resolves when it is fully written (or the client left). */
export async function writeFakeResponse(req: IncomingMessage, res: ServerResponse, response: FakeResponse, ctx: ReplyContext): Promise<void> {
  switch (response.type) {
    case 'hang':
      return;
    case 'destroy':
      await wait(response.delayMs, res);
      req.socket.destroy();
      return;
    case 'error': {
      await wait(response.delayMs, res);
      const kind = response.status >= 500 ? 'server_error' : 'invalid_request_error';
      const body = response.body ?? openAiErrorBody(response.message ?? `fake error ${response.status}`, kind);
      writeJson(res, response.status, body, response.headers);
      return;
    }
    case 'reply':
      await wait(response.delayMs, res);
      if (gone(res)) return;
      if (ctx.stream) await writeStream(res, response, ctx);
      else writeCompletion(res, response, ctx);
      return;
  }
}
