/**
 * The ModelClient port over the `openai` package: one streamed Chat Completions call per
 * `complete`, against any OpenAI-compatible base URL. The SDK's own retries are off so that every
 * retry goes through `onRetry` (the UI shows it) and so that a retry never happens once text of that
 * attempt reached the user (it would be shown twice). Errors leave as ModelError, key-free.
 */
import OpenAI from 'openai';
import { onAbort } from '../agent/context';
import { DEFAULT_BASE_URL } from '../agent/settings';
import { ModelError, type Clock, type ModelCallOptions, type ModelClient, type ModelReply, type ModelRequest } from '../agent/ports';
import { nodeClock } from '../runtime/nodeClock';
import { classifyError, redact, StreamCutError, type ClassifiedError } from './modelErrors';
import { backoffDelayMs } from './retryPolicy';
import { IdleWatch, type WatchedStream } from './idleWatch';
import { StreamAccumulator } from './streamAccumulator';
import { toStreamingParams } from './wire';
import { WireHistory } from './wireHistory';

const DEFAULT_STREAM_IDLE_MS = 300_000;

export interface OpenAiModelClientOptions {
  baseUrl?: string;
  /** Omit for local endpoints (Ollama, LM Studio): then no Authorization header is sent. */
  apiKey?: string;
  /** Retries after the first attempt; default 4. */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Until the response headers arrive; default the SDK's 10 minutes. */
  requestTimeoutMs?: number;
  /** A stream silent this long after its headers counts as broken (cut within a quarter more); default 5 minutes (slow local models). */
  streamIdleTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  /** [0, 1) for the backoff jitter; tests pin it. */
  random?: () => number;
  /** Backoff waits; default the Node clock. */
  clock?: Clock;
}

interface Endpoint {
  sdk: OpenAI;
  baseUrl: string;
}

function cancelled(): ModelError {
  return new ModelError('cancelled', 'The model call was cancelled.');
}

function isAzure(url: URL): boolean {
  return /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i.test(url.hostname);
}

export class OpenAiModelClient implements ModelClient {
  private readonly options: OpenAiModelClientOptions;
  private endpoint: Endpoint | ModelError | undefined;
  /** The last request's messages in wire form: the next round's history repeats nearly all of them. */
  private readonly wireHistory = new WireHistory();
  private readonly idleWatch: IdleWatch;

  constructor(options: OpenAiModelClientOptions = {}) {
    this.options = { ...options };
    this.idleWatch = new IdleWatch(options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS);
  }

  get baseUrl(): string {
    return (this.options.baseUrl ?? DEFAULT_BASE_URL).trim();
  }

  /** Built lazily so a bad base URL surfaces as a ModelError from the call, not from construction. */
  private connect(): Endpoint {
    this.endpoint ??= this.createEndpoint();
    if (this.endpoint instanceof ModelError) throw this.endpoint;
    return this.endpoint;
  }

  private createEndpoint(): Endpoint | ModelError {
    const baseUrl = this.baseUrl;
    if (!baseUrl) return new ModelError('config', 'No model base URL is configured. Set the base URL of an OpenAI-compatible endpoint (for example https://api.openai.com/v1).');
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return new ModelError('config', `The model base URL "${baseUrl}" is not a valid URL. Use something like http://127.0.0.1:11434/v1.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return new ModelError('config', `The model base URL "${baseUrl}" must use http or https.`);
    }
    // The SDK appends paths to the base URL as text, so a query (Azure's api-version) must travel separately.
    const defaultQuery = Object.fromEntries(url.searchParams);
    const root = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    const key = this.options.apiKey?.trim() || undefined;
    const headers: Record<string, string | null> = { ...this.options.defaultHeaders };
    // The SDK insists on a key; a null header keeps the placeholder off the wire. Azure takes its key
    // in `api-key` and reads a Bearer header as an Entra token, so the key goes only there.
    if (!key || isAzure(url)) headers.Authorization = null;
    if (key && isAzure(url)) headers['api-key'] = key;
    const sdk = new OpenAI({
      baseURL: root,
      apiKey: key ?? 'sprout-no-api-key',
      // Explicit nulls so nothing is picked up from the environment behind the user's back.
      adminAPIKey: null,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: this.options.requestTimeoutMs,
      defaultHeaders: headers,
      ...(Object.keys(defaultQuery).length > 0 ? { defaultQuery } : {}),
      logLevel: 'off',
    });
    return { sdk, baseUrl: root };
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const { signal } = options;
    if (signal.aborted) throw cancelled();
    if (!request.model.trim()) {
      throw new ModelError('config', `No model name is configured for ${this.baseUrl}. Set the model name (list the endpoint's models to pick one).`);
    }
    const endpoint = this.connect();
    const maxRetries = Math.max(0, this.options.maxRetries ?? 4);
    for (let attempt = 0; ; attempt++) {
      const delivered = { text: false };
      try {
        return await this.attempt(endpoint, request, options, delivered);
      } catch (raw) {
        if (signal.aborted) throw cancelled();
        const failure = classifyError(raw, { baseUrl: endpoint.baseUrl, model: request.model, apiKey: this.options.apiKey });
        if (!failure.retryable) throw failure.error;
        if (delivered.text) throw this.afterText(failure);
        if (attempt >= maxRetries) throw this.givenUp(failure, attempt + 1);
        const delayMs = backoffDelayMs(
          attempt + 1,
          { baseDelayMs: this.options.retryBaseDelayMs ?? 500, maxDelayMs: this.options.retryMaxDelayMs ?? 20_000, random: this.options.random },
          failure.serverDelayMs,
        );
        options.onRetry?.({ attempt: attempt + 1, delayMs, reason: failure.reason });
        await (this.options.clock ?? nodeClock).sleep(delayMs, signal);
        if (signal.aborted) throw cancelled();
      }
    }
  }

  private async attempt(endpoint: Endpoint, request: ModelRequest, options: ModelCallOptions, delivered: { text: boolean }): Promise<ModelReply> {
    // Our own controller, so a stream that goes silent can be dropped without looking like a user cancel.
    const controller = new AbortController();
    const stopForwarding = onAbort(options.signal, () => controller.abort());
    let idle = false;
    let watched: WatchedStream | undefined;
    try {
      const stream = await endpoint.sdk.chat.completions.create(toStreamingParams(request, (messages) => this.wireHistory.map(messages)), { signal: controller.signal });
      const accumulator = new StreamAccumulator();
      watched = this.idleWatch.watch(() => ((idle = true), controller.abort()));
      for await (const chunk of stream) {
        watched.touch();
        const text = accumulator.add(chunk);
        if (text) {
          delivered.text = true;
          options.onTextDelta?.(text);
        }
      }
      // The SDK ends the iteration quietly on abort; a stream without a finish reason was cut.
      if (options.signal.aborted) throw cancelled();
      if (!accumulator.finished) throw new StreamCutError();
      return accumulator.reply();
    } catch (error) {
      if (idle && !options.signal.aborted) throw new StreamCutError(`the response stream sent nothing for ${this.idleWatch.idleMs} ms`);
      throw error;
    } finally {
      watched?.stop();
      stopForwarding();
    }
  }

  private afterText(failure: ClassifiedError): ModelError {
    const message = `${failure.error.message.replace(/\.$/, '')} after part of the reply was shown. Not retried, so the text is not shown twice; send the prompt again to continue.`;
    return new ModelError('transport', message, failure.error.status);
  }

  private givenUp(failure: ClassifiedError, attempts: number): ModelError {
    const tail = attempts > 1 ? ` Gave up after ${attempts} attempts; try again later.` : ' Try again later.';
    return new ModelError(failure.error.kind, `${failure.error.message}${tail}`, failure.error.status);
  }

  /** Model ids the endpoint lists (`GET /models`), sorted, for a model picker. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    const endpoint = this.connect();
    try {
      const page = await endpoint.sdk.models.list({ signal });
      const ids = page.data.map((model) => model.id).filter((id): id is string => typeof id === 'string');
      return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
    } catch (raw) {
      if (signal?.aborted) throw cancelled();
      const failure = classifyError(raw, { baseUrl: endpoint.baseUrl, model: '(listing models)', apiKey: this.options.apiKey });
      if (failure.error.kind === 'config') {
        throw new ModelError('config', redact(`The endpoint ${endpoint.baseUrl} does not list models (HTTP 404). Check the base URL, or type the model name.`, this.options.apiKey), 404);
      }
      throw failure.error;
    }
  }
}
