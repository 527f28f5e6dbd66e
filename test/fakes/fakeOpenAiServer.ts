/**
 * FakeOpenAiServer: a real HTTP server on 127.0.0.1 speaking OpenAI Chat Completions (streaming and
 * not) and `GET /v1/models`, playing scripted responses (a queue or a responder function) with the
 * streaming quirks of real servers as switches. It rejects what the real API rejects, with the real
 * 400/401 error shapes, plus, when it plays Mistral, DeepSeek, Kimi or Gemini, what those reject (see
 * FakeProvider) and, rule by rule, what other servers reject (serverRules.ts), and records every request, so a test can end with `requests.every((r) => r.valid)`.
 *
 * Importing this file gives `startFakeOpenAi`; running it (`node --import tsx fakeOpenAiServer.ts
 * --script responses.json [--log requests.jsonl]`) starts one and prints its URL on stdout.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  openAiErrorBody,
  type FakeOpenAiOptions,
  type FakeRequestRecord,
  type FakeResponder,
  type FakeResponse,
} from './openai/fakeOpenAiTypes';
import { providerHistoryRejection, providerRequestRejection, type IssuedProviderData } from './openai/providerRules';
import { apimRejection, serverRuleRejection } from './openai/serverRules';
import { authRejection, validateChatRequest, type Rejection } from './openai/validateChatRequest';
import { writeFakeResponse, writeJson } from './openai/writeFakeResponse';

export * from './openai/fakeOpenAiTypes';
export { imagePartsOf } from './openai/contentParts';

export interface FakeOpenAi {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Every request received, in arrival order. */
  requests: FakeRequestRecord[];
  /** Only the `POST /v1/chat/completions` requests. */
  chatRequests(): FakeRequestRecord[];
  enqueue(...responses: FakeResponse[]): void;
  /** Replaces the queue: called for each chat request with its 0-based index among chat requests. */
  setResponder(responder: FakeResponder | undefined): void;
  /** Scripted responses not yet used. */
  pending(): number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

class FakeOpenAiState {
  readonly requests: FakeRequestRecord[] = [];
  private readonly queue: FakeResponse[];
  private responder: FakeResponder | undefined;
  private chatCount = 0;
  private callCount = 0;
  private modelListings = 0;
  private readonly issued: IssuedProviderData = { reasoning: new Map(), signatures: new Map() };

  constructor(private readonly options: FakeOpenAiOptions) {
    this.queue = [...(options.responses ?? [])];
  }

  enqueue(responses: FakeResponse[]): void {
    this.queue.push(...responses);
  }

  setResponder(responder: FakeResponder | undefined): void {
    this.responder = responder;
  }

  pending(): number {
    return this.queue.length;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const record: FakeRequestRecord = { seq: this.requests.length, method: req.method ?? 'GET', path, url: req.url ?? '/', headers: { ...req.headers }, body: parseJson(rawBody), rawBody, valid: true };
    this.requests.push(record);
    try {
      await this.route(req, res, record);
    } finally {
      this.options.onRequest?.(record);
    }
  }

  private rejectWith(res: ServerResponse, record: FakeRequestRecord, rejection: Rejection): void {
    record.valid = false;
    record.error = rejection.message;
    record.outcome = 'rejected';
    writeJson(res, rejection.status, rejection.body);
  }

  private get rules(): NonNullable<FakeOpenAiOptions['rules']> {
    return this.options.rules ?? [];
  }

  private get provider(): NonNullable<FakeOpenAiOptions['provider']> {
    return this.options.provider ?? 'openai';
  }

  /** Mistral has 9-character ids; the others the fake's own readable ones. */
  private nextCallId(): string {
    this.callCount += 1;
    return this.provider === 'mistral' ? `fk${this.callCount.toString(36).padStart(7, '0')}` : `call_fake_${this.callCount}`;
  }

  private async route(req: IncomingMessage, res: ServerResponse, record: FakeRequestRecord): Promise<void> {
    const auth = this.rules.includes('apim-api-key')
      ? apimRejection(req.headers, this.options.apiKey)
      : this.options.apiKey === undefined
        ? undefined
        : authRejection(req.headers.authorization, this.options.apiKey);
    if (auth) return this.rejectWith(res, record, auth);
    if (record.method === 'GET' && record.path === '/v1/models') {
      this.modelListings += 1;
      if (this.modelListings <= (this.options.modelsUnavailable ?? 0)) {
        record.outcome = 'unavailable';
        return writeJson(res, 503, openAiErrorBody('The server is loading its models.', 'server_error'));
      }
      record.outcome = 'models';
      const data = (this.options.models ?? ['fake-model']).map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' }));
      return writeJson(res, 200, { object: 'list', data });
    }
    if (record.method === 'POST' && record.path === '/v1/chat/completions') return this.chat(req, res, record);
    record.outcome = 'not_found';
    record.error = `no route ${record.method} ${record.path}`;
    writeJson(res, 404, openAiErrorBody(`Invalid URL (${record.method} ${record.path})`, 'invalid_request_error'));
  }

  private async chat(req: IncomingMessage, res: ServerResponse, record: FakeRequestRecord): Promise<void> {
    const rejection =
      providerRequestRejection(this.provider, record.body) ??
      serverRuleRejection(this.rules, record.body) ??
      validateChatRequest(record.body, this.options.maxTools) ??
      providerHistoryRejection(this.provider, record.body, this.issued);
    if (rejection) return this.rejectWith(res, record, rejection);
    const index = this.chatCount++;
    const response = this.responder ? await this.responder(record, index) : this.queue.shift();
    if (!response) {
      record.outcome = 'unscripted';
      record.error = `fake server: no scripted response for request ${index + 1} (chat completion requests counted from 1)`;
      return writeJson(res, 500, openAiErrorBody(record.error, 'server_error'));
    }
    record.outcome = response.type;
    const body = record.body as { model: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
    await writeFakeResponse(req, res, response, {
      model: body.model,
      stream: body.stream === true,
      includeUsage: body.stream_options?.include_usage === true,
      requestChars: record.rawBody.length,
      nextCallId: () => this.nextCallId(),
      provider: this.provider,
      issued: this.issued,
    });
  }
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const state = new FakeOpenAiState(options);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    state.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) writeJson(res, 500, openAiErrorBody(`fake server crashed: ${String(error)}`, 'server_error'));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake OpenAI server has no TCP address');
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests: state.requests,
    chatRequests: () => state.requests.filter((r) => r.path === '/v1/chat/completions'),
    enqueue: (...responses) => state.enqueue(responses),
    setResponder: (responder) => state.setResponder(responder),
    pending: () => state.pending(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Standalone: the script file is either an array of responses or a FakeOpenAiOptions object. */
async function main(): Promise<void> {
  const scriptFile = argValue('--script');
  const logFile = argValue('--log');
  const script = scriptFile ? (JSON.parse(readFileSync(scriptFile, 'utf8')) as FakeResponse[] | FakeOpenAiOptions) : [];
  const options: FakeOpenAiOptions = Array.isArray(script) ? { responses: script } : script;
  // The key a client sent is kept out of the log file; a test only needs to know one was sent.
  const redacted = (record: FakeRequestRecord): FakeRequestRecord =>
    record.headers.authorization === undefined ? record : { ...record, headers: { ...record.headers, authorization: '[redacted]' } };
  if (logFile) options.onRequest = (record) => appendFileSync(logFile, `${JSON.stringify(redacted(record))}\n`);
  const fake = await startFakeOpenAi(options);
  const stop = (): void => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdout.write(`${fake.url}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`FakeOpenAiServer failed: ${String(error)}\n`);
    process.exit(1);
  });
}
