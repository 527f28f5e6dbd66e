/**
 * Every in-flight call ends when its stream does. On Streamable HTTP a server may answer a request
 * with an event stream; if that stream ends before the answer and left no event id to resume from
 * (the server restarted, a proxy cut it), the SDK has nothing to wait for and the call would wait
 * for its whole tool timeout. This fetch wrapper watches each POST answered with an event stream and,
 * when it ends with requests still unanswered and no event id, appends one JSON-RPC error per
 * unanswered request to the stream, so each such call ends at once with words saying what happened.
 * A stream that gave an event id is left to the SDK's resumption (a failed resume is a transport
 * error the connection handles: `lostCallStream` below words it). Streams pass through untouched
 * otherwise; only `data:` and `id:` lines are looked at.
 */

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The code the SDKs use for a connection that closed (python-sdk sends the same on a dropped stream). */
export const STREAM_ENDED_CODE = -32000;

export const STREAM_ENDED_WORDS = 'the server closed the event stream of this call before answering and left no event id to resume from, so the answer is lost (it may have run)';

/** The ids of the JSON-RPC requests (not notifications) a POST body carries. */
function requestIds(body: RequestInit['body']): Array<string | number> {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.flatMap((m) => {
      const id = (m as { id?: unknown; method?: unknown } | null)?.id;
      return (m as { method?: unknown }).method !== undefined && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
    });
  } catch {
    return [];
  }
}

/** The ids answered by the `data:` lines of `text`, and whether any `id:` line (a resume point) came. */
function scan(text: string, answered: Set<string | number>): boolean {
  let resumable = false;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('id:') && line.slice(3).trim() !== '') resumable = true;
    if (!line.startsWith('data:')) continue;
    try {
      const message = JSON.parse(line.slice(5)) as { id?: unknown; result?: unknown; error?: unknown };
      if ((message.result !== undefined || message.error !== undefined) && (typeof message.id === 'string' || typeof message.id === 'number')) answered.add(message.id);
    } catch {
      // Not a whole JSON line: multi-line data or a partial chunk; the answer then ends another way.
    }
  }
  return resumable;
}

function guardStream(body: ReadableStream<Uint8Array>, ids: Array<string | number>): ReadableStream<Uint8Array> {
  const answered = new Set<string | number>();
  let resumable = false;
  let pending = '';
  const decoder = new TextDecoder();
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        controller.error(error);
        return;
      }
      if (!next.done) {
        pending += decoder.decode(next.value, { stream: true });
        const cut = pending.lastIndexOf('\n');
        if (cut >= 0) {
          resumable = scan(pending.slice(0, cut), answered) || resumable;
          pending = pending.slice(cut + 1);
        }
        controller.enqueue(next.value);
        return;
      }
      resumable = scan(pending, answered) || resumable;
      if (!resumable) {
        const encoder = new TextEncoder();
        for (const id of ids.filter((i) => !answered.has(i))) {
          const error = { jsonrpc: '2.0', id, error: { code: STREAM_ENDED_CODE, message: STREAM_ENDED_WORDS } };
          controller.enqueue(encoder.encode(`\n\ndata: ${JSON.stringify(error)}\n\n`));
        }
      }
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * A JSON error answering a POST of one request but with `id: null` (a server that refused the
 * session with a bare `-32600 Invalid Request`) can only be that request's answer: it gets the
 * request's id, so the call ends with the server's words instead of waiting for an answer that
 * never comes.
 */
async function attributeBareError(response: Response, id: string | number): Promise<Response> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  const message = body as { id?: unknown; error?: unknown } | null;
  const bare = message !== null && typeof message === 'object' && !Array.isArray(message) && message.error !== undefined && (message.id === null || message.id === undefined);
  const fixed = bare ? JSON.stringify({ ...message, id }) : text;
  return new Response(fixed, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function callStreamGuard(inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || response.body === null) return response;
    const ids = requestIds(init?.body);
    if (ids.length === 0) return response;
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && ids.length === 1 && /^application\/json/i.test(type)) return attributeBareError(response, ids[0] as string | number);
    if (!/^text\/event-stream/i.test(type)) return response;
    return new Response(guardStream(response.body, ids), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * The words for a running call whose event stream is lost, from an error the Streamable HTTP transport
 * reported outside any request; undefined for any other error. When the stream of a running call is
 * cut the SDK resumes it; if the server refuses the resume (404: it forgot the session; 400 or 401: it
 * will not give it back) or resumes run out, the answers of the calls running on the connection cannot
 * arrive, so the caller drops the connection and each call ends now, with these words, rather than at
 * its tool timeout. Only resumes count (the caller asks only while calls run): a standalone stream the
 * server does not offer (its first GET refused) is no such loss. `target` names the server.
 */
export function lostCallStream(error: Error, target: string): string | undefined {
  const resume = /failed to reconnect sse stream: (.*(failed to open sse stream|unauthorized).*)|maximum reconnection attempts/i.exec(error.message);
  if (resume === null) return undefined;
  const refused = resume[1] ?? error.message;
  return /not found|\b404\b/i.test(refused)
    ? `${target} no longer knows this session (it answered the resume of a running call's event stream with ${refused.replace(/^.*failed to open sse stream: /i, 'HTTP 404 ')}), so the call's answer cannot arrive; it reconnects on next use.`
    : `${target} closed the event stream of a running call and refused to resume it (${refused}); it reconnects on next use.`;
}
