/**
 * Turns one scripted FakeResponse into bytes on the wire: a Chat Completions SSE stream (built by
 * sseReply.ts, quirks included), a `chat.completion` object, an HTTP error (JSON or any raw body), a
 * hang or a destroyed socket. Waits stop early once the client is gone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAiErrorBody, type FakeReplyResponse, type FakeResponse } from './fakeOpenAiTypes';
import { finishOf, sseEvents, textOf, usageOf, wireCalls, type ReplyContext } from './sseReply';

export type { ReplyContext } from './sseReply';

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

async function writeStream(res: ServerResponse, reply: FakeReplyResponse, ctx: ReplyContext): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...reply.headers });
  res.flushHeaders();
  const chunks = sseEvents(reply, ctx);
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
  const text = textOf(reply);
  const message = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
    ...(reply.reasoning !== undefined && reply.reasoningAs !== 'think_tags' ? { [reply.reasoningAs ?? 'reasoning_content']: reply.reasoning } : {}),
    ...(calls.length > 0
      ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments }, ...(c.extra ? { extra_content: c.extra } : {}) })) }
      : {}),
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
      if (response.text !== undefined) {
        if (gone(res)) return;
        res.writeHead(response.status, { 'content-type': response.contentType ?? 'text/plain; charset=utf-8', ...response.headers });
        res.end(response.text);
        return;
      }
      const kind = response.status >= 500 ? 'server_error' : 'invalid_request_error';
      const body = response.body ?? openAiErrorBody(response.message ?? `fake error ${response.status}`, kind);
      writeJson(res, response.status, body, response.headers);
      return;
    }
    case 'scenario':
      if (gone(res)) return;
      res.writeHead(response.status ?? 200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...response.headers });
      for (const event of response.events) {
        if (gone(res)) return;
        const block = typeof event !== 'string' ? `data: ${JSON.stringify(event)}` : event === '[DONE]' ? 'data: [DONE]' : event;
        await new Promise<void>((resolve) => res.write(`${block}\n\n`, () => resolve()));
      }
      res.end();
      return;
    case 'reply':
      await wait(response.delayMs, res);
      if (gone(res)) return;
      if (ctx.stream && !response.ignoreStream) await writeStream(res, response, ctx);
      else writeCompletion(res, response, ctx);
      return;
  }
}
