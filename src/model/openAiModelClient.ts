/**
 * The ModelClient port over the `openai` package: one streamed Chat Completions call per
 * `complete`, against any OpenAI-compatible base URL, under the endpoint's dialect (dialect.ts):
 * a rejection that names a rule the endpoint needs is learned and the request sent again at once.
 * The SDK's own retries are off so that every retry goes through `onRetry` (the UI shows it) and so
 * that a retry never happens once text of that attempt reached the user (it would be shown twice).
 * Thinking streams apart from the answer. Errors leave as ModelError, key-free.
 */
import { onAbort } from '../agent/cancellation';
import { historyChars } from '../agent/compactionRules';
import { DEFAULT_BASE_URL } from '../agent/settings';
import { ModelError, type Clock, type ModelCallOptions, type ModelClient, type ModelReply, type ModelRequest } from '../agent/ports';
import { nodeClock } from '../platform/nodeClock';
import type { Compatibility } from './dialect';
import { createEndpoint, type Endpoint } from './endpoint';
import { classifyError, redact, rejectionOf, StreamCutError, type ClassifiedError } from './modelErrors';
import { shapeReply } from './replyShaping';
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
  /** Which server family's rules to follow; `auto` (default) picks by host and learns from the replies. */
  compatibility?: Compatibility;
  /** [0, 1) for the backoff jitter; tests pin it. */
  random?: () => number;
  /** Backoff waits; default the Node clock. */
  clock?: Clock;
}

function cancelled(): ModelError {
  return new ModelError('cancelled', 'The model call was cancelled.');
}

/** Rejections that name a rule the endpoint needs (stream_options, id format, provider fields): each is learned once. */
const MAX_ADAPTATIONS = 4;

/** The size of a request, for a usage estimate when the endpoint reports none. */
function requestChars(request: ModelRequest): number {
  return historyChars(request.messages) + (request.tools.length > 0 ? JSON.stringify(request.tools).length : 0);
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
    this.endpoint ??= createEndpoint({ ...this.options, baseUrl: this.baseUrl });
    if (this.endpoint instanceof ModelError) throw this.endpoint;
    return this.endpoint;
  }

  /** The rules in force (after what the endpoint taught), or undefined before the first call. */
  get dialect(): Endpoint['dialect']['rules'] | undefined {
    return this.endpoint instanceof ModelError ? undefined : this.endpoint?.dialect.rules;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const { signal } = options;
    if (signal.aborted) throw cancelled();
    if (!request.model.trim()) {
      throw new ModelError('config', `No model name is configured for ${this.baseUrl}. Set the model name (list the endpoint's models to pick one).`);
    }
    const endpoint = this.connect();
    const maxRetries = Math.max(0, this.options.maxRetries ?? 4);
    let adaptations = 0;
    for (let failures = 0; ; ) {
      const delivered = { text: false };
      try {
        return await this.attempt(endpoint, request, options, delivered);
      } catch (raw) {
        if (signal.aborted) throw cancelled();
        // A rejection that names a rule (stream_options, Mistral's ids, DeepSeek's reasoning_content,
        // Gemini's signatures): learn it for the endpoint and send again at once.
        const learned = adaptations < MAX_ADAPTATIONS ? this.learnFrom(endpoint, raw) : undefined;
        if (learned !== undefined) {
          adaptations += 1;
          options.onRetry?.({ attempt: failures + 1, delayMs: 0, reason: learned });
          continue;
        }
        failures += 1;
        const failure = classifyError(raw, { baseUrl: endpoint.baseUrl, model: request.model, apiKey: this.options.apiKey });
        if (!failure.retryable) throw failure.error;
        if (delivered.text) throw this.afterText(failure);
        if (failures > maxRetries) throw this.givenUp(failure, failures);
        const delayMs = backoffDelayMs(
          failures,
          { baseDelayMs: this.options.retryBaseDelayMs ?? 500, maxDelayMs: this.options.retryMaxDelayMs ?? 20_000, random: this.options.random },
          failure.serverDelayMs,
        );
        options.onRetry?.({ attempt: failures, delayMs, reason: failure.reason });
        await (this.options.clock ?? nodeClock).sleep(delayMs, signal);
        if (signal.aborted) throw cancelled();
      }
    }
  }

  private learnFrom(endpoint: Endpoint, raw: unknown): string | undefined {
    const rejection = rejectionOf(raw);
    return rejection === undefined ? undefined : endpoint.dialect.adaptTo(rejection);
  }

  private async attempt(endpoint: Endpoint, request: ModelRequest, options: ModelCallOptions, delivered: { text: boolean }): Promise<ModelReply> {
    // Our own controller, so a stream that goes silent can be dropped without looking like a user cancel.
    const controller = new AbortController();
    const stopForwarding = onAbort(options.signal, () => controller.abort());
    let idle = false;
    let watched: WatchedStream | undefined;
    try {
      const rules = endpoint.dialect.rules;
      const params = toStreamingParams(request, (messages) => this.wireHistory.map(messages, rules), { streamUsage: rules.streamUsage });
      const stream = await endpoint.sdk.chat.completions.create(params, { signal: controller.signal });
      const accumulator = new StreamAccumulator();
      watched = this.idleWatch.watch(() => ((idle = true), controller.abort()));
      for await (const chunk of stream) {
        watched.touch();
        const text = accumulator.add(chunk);
        if (accumulator.reasoningPiece) options.onReasoningDelta?.(accumulator.reasoningPiece);
        if (text) {
          delivered.text = true;
          options.onTextDelta?.(text);
        }
      }
      // The SDK ends the iteration quietly on abort, ours (a silent stream) included.
      if (options.signal.aborted) throw cancelled();
      if (idle) throw new StreamCutError(`the response stream sent nothing for ${this.idleWatch.idleMs} ms`);
      const rest = accumulator.flush();
      if (accumulator.reasoningPiece) options.onReasoningDelta?.(accumulator.reasoningPiece);
      if (rest) {
        delivered.text = true;
        options.onTextDelta?.(rest);
      }
      if (!accumulator.complete) throw new StreamCutError();
      return this.shape(endpoint, request, accumulator);
    } catch (error) {
      if (idle && !options.signal.aborted) throw new StreamCutError(`the response stream sent nothing for ${this.idleWatch.idleMs} ms`);
      throw error;
    } finally {
      watched?.stop();
      stopForwarding();
    }
  }

  private shape(endpoint: Endpoint, request: ModelRequest, accumulator: StreamAccumulator): ModelReply {
    const raw = accumulator.reply();
    endpoint.dialect.noteReply({ reasoningField: raw.reasoningField, hadToolCalls: raw.calls.length > 0, hadProviderData: raw.calls.some((c) => c.providerData !== undefined) });
    return shapeReply(raw, {
      toolNames: request.tools.map((tool) => tool.name),
      isTaken: (id) => this.wireHistory.hasCallId(id),
      promptChars: () => requestChars(request),
    });
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
