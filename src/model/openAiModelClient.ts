/**
 * The ModelClient port over the `openai` package: one streamed Chat Completions call per `complete`,
 * against any OpenAI-compatible base URL, under the endpoint's rules for the model (endpointDialect.ts).
 * A rejection whose words name a request shape the endpoint needs (rejectionSignatures.ts) is learned,
 * remembered for the endpoint and model, said once (`onAdapted`) and the request sent again at once in
 * that shape. Every other retry names its cause (`onRetry`): rate limits, server failures, a proxy's
 * error page at an endpoint that answered before, transport breaks, and one more round after a tool
 * call the model malformed; billing and auth errors never retry. The SDK's own retries are off so
 * every retry goes through here, and none happens once text of that attempt reached the user (it
 * would be shown twice). One client serves many conversations at once: what it derives from a
 * conversation's history is kept per conversation. Errors leave as ModelError, key-free.
 */
import { historyChars } from '../agent/compactionRules';
import { DEFAULT_BASE_URL } from '../agent/settings';
import { ModelError, type Clock, type ModelCallOptions, type ModelClient, type ModelConversation, type ModelReply, type ModelRequest } from '../agent/ports';
import { nodeClock } from '../platform/nodeClock';
import { ADAPTATIONS } from './adaptations';
import { processAdaptationMemory, type AdaptationMemory } from './adaptationMemory';
import type { Compatibility, DialectRules } from './dialect';
import { createEndpoint, type Endpoint } from './endpoint';
import { IdleWatch } from './idleWatch';
import { classifyError, redact, rejectionOf, type ClassifiedError } from './modelErrors';
import { shapeReply } from './replyShaping';
import { backoffDelayMs } from './retryPolicy';
import { cancelled, streamReply, type Delivered } from './streamAttempt';
import type { StreamAccumulator } from './streamAccumulator';
import { toolCountError } from './toolCountRefusal';
import { toStreamingParams } from './wire';
import { WireHistory } from './wireHistory';
import { WireNames, type ToolNameRule } from './wireNames';
import { sendsImages } from './wireImages';

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
  /** Which server family's rules to follow; `auto` (default) picks by host and learns from the endpoint. */
  compatibility?: Compatibility;
  /** Where what endpoints taught is remembered (the hosts keep it as user state); default: this process only. */
  memory?: AdaptationMemory;
  /** [0, 1) for the backoff jitter; tests pin it. */
  random?: () => number;
  /** Backoff waits; default the Node clock. */
  clock?: Clock;
}

/** Rejections that name a shape the endpoint needs: each is learned once, and a call learns at most this many. */
const MAX_ADAPTATIONS = 6;

/** The size of a request, for a usage estimate when the endpoint reports none. */
function requestChars(request: ModelRequest): number {
  return historyChars(request.messages) + (request.tools.length > 0 ? JSON.stringify(request.tools).length : 0);
}

/** What the client keeps of one conversation. */
interface ConversationState {
  /** Its last request's messages in wire form (the next round repeats nearly all of them) and their tool-call ids. */
  wire: WireHistory;
  /** Models whose remembered adaptations at this client's endpoint this conversation was told about. */
  told: Set<string>;
  /** Its tools' aliases on the wire, per name rule (wireNames.ts): a name keeps its alias for the conversation. */
  names: Map<ToolNameRule, WireNames>;
}

function namesFor(conversation: ConversationState, rule: ToolNameRule): WireNames {
  let names = conversation.names.get(rule);
  if (names === undefined) conversation.names.set(rule, (names = new WireNames(rule)));
  return names;
}

/** Where one call stands between attempts. */
interface CallState {
  failures: number;
  adaptations: number;
  roundRetried: boolean;
}

export class OpenAiModelClient implements ModelClient {
  private readonly options: OpenAiModelClientOptions;
  private readonly memory: AdaptationMemory;
  private endpoint: Endpoint | ModelError | undefined;
  /** Never shared between conversations; it goes when the conversation does. */
  private readonly conversations = new WeakMap<ModelConversation, ConversationState>();
  private readonly idleWatch: IdleWatch;

  constructor(options: OpenAiModelClientOptions = {}) {
    this.options = { ...options };
    this.memory = options.memory ?? processAdaptationMemory();
    this.idleWatch = new IdleWatch(options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS);
  }

  get baseUrl(): string {
    return (this.options.baseUrl ?? DEFAULT_BASE_URL).trim();
  }

  /** Built lazily so a bad base URL surfaces as a ModelError from the call, not from construction. */
  private connect(): Endpoint {
    this.endpoint ??= createEndpoint({ ...this.options, baseUrl: this.baseUrl, memory: this.memory });
    if (this.endpoint instanceof ModelError) throw this.endpoint;
    return this.endpoint;
  }

  /** The rules in force for a model (after what the endpoint taught), or undefined before the first call. */
  rulesFor(model: string): DialectRules | undefined {
    return this.endpoint instanceof ModelError || this.endpoint === undefined ? undefined : this.endpoint.dialect.rules(model);
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    if (options.signal.aborted) throw cancelled();
    if (!request.model.trim()) {
      throw new ModelError('config', `No model name is configured for ${this.baseUrl}. Set the model name (list the endpoint's models to pick one).`);
    }
    const endpoint = this.connect();
    const conversation = this.conversationOf(options.conversation);
    this.tellRecalled(endpoint, request.model, conversation, options);
    const call: CallState = { failures: 0, adaptations: 0, roundRetried: false };
    for (;;) {
      const delivered: Delivered = { text: false };
      try {
        const rules = endpoint.dialect.rules(request.model);
        const names = namesFor(conversation, rules.toolNames);
        const params = toStreamingParams(request, (messages, alias) => conversation.wire.map(messages, rules, alias), { streamUsage: rules.streamUsage, rules, names });
        const accumulator = await streamReply(endpoint, params, endpoint.keyHeaders(rules), options, this.idleWatch, delivered);
        return this.shape(endpoint, conversation.wire, request, accumulator, options, names);
      } catch (raw) {
        if (options.signal.aborted) throw cancelled();
        await this.recover(raw, { endpoint, request, options, call, delivered });
      }
    }
  }

  /** After a failed attempt: learns a shape and goes again at once, waits and goes again, or throws. */
  private async recover(raw: unknown, at: { endpoint: Endpoint; request: ModelRequest; options: ModelCallOptions; call: CallState; delivered: Delivered }): Promise<void> {
    const { endpoint, request, options, call } = at;
    if (!at.delivered.text && call.adaptations < MAX_ADAPTATIONS && this.adapt(endpoint, request, raw, options)) {
      call.adaptations += 1;
      return;
    }
    call.failures += 1;
    const failure = classifyError(raw, { baseUrl: endpoint.baseUrl, model: request.model, apiKey: this.options.apiKey, answeredBefore: endpoint.answered });
    if (!failure.retryable) throw toolCountError(rejectionOf(raw)?.text ?? '', request.tools.map((t) => t.name), `The model endpoint ${endpoint.baseUrl} (${request.model})`, failure.error.status) ?? failure.error;
    if (at.delivered.text) throw this.afterText(failure);
    if (failure.cause === 'malformed_tool_call') {
      // The model usually gets it right the second time; a third try would only repeat the failure.
      if (call.roundRetried) throw new ModelError('bad_request', `${failure.error.message.replace(/\.$/, '')}, again after one more try. Send the prompt again, or use a model with more reliable tool calling.`, failure.error.status);
      call.roundRetried = true;
      options.onRetry?.({ attempt: call.failures, delayMs: 0, reason: `${failure.reason}; asking the model once more`, cause: failure.cause });
      return;
    }
    if (call.failures > Math.max(0, this.options.maxRetries ?? 4)) throw this.givenUp(failure, call.failures);
    const delayMs = backoffDelayMs(
      call.failures,
      { baseDelayMs: this.options.retryBaseDelayMs ?? 500, maxDelayMs: this.options.retryMaxDelayMs ?? 20_000, random: this.options.random },
      failure.serverDelayMs,
    );
    options.onRetry?.({ attempt: call.failures, delayMs, reason: failure.reason, cause: failure.cause });
    await (this.options.clock ?? nodeClock).sleep(delayMs, options.signal);
    if (options.signal.aborted) throw cancelled();
  }

  /** A rejection that names a shape the endpoint needs: learned for the endpoint and model, said once. */
  private adapt(endpoint: Endpoint, request: ModelRequest, raw: unknown, options: ModelCallOptions): boolean {
    const { model } = request;
    const rejection = rejectionOf(raw);
    const sentImages = sendsImages(request.messages, endpoint.dialect.rules(model));
    const id = rejection === undefined ? undefined : endpoint.dialect.adaptTo(model, { ...rejection, sentImages });
    if (id === undefined) return false;
    const said = redact(rejection?.text.split('\n')[0] ?? '', this.options.apiKey);
    options.onAdapted?.({ endpoint: endpoint.baseUrl, model, change: ADAPTATIONS[id].change, learnedFrom: 'rejection', said });
    return true;
  }

  private conversationOf(conversation: ModelConversation | undefined): ConversationState {
    if (conversation === undefined) return { wire: new WireHistory(), told: new Set(), names: new Map() };
    let state = this.conversations.get(conversation);
    if (state === undefined) this.conversations.set(conversation, (state = { wire: new WireHistory(), told: new Set(), names: new Map() }));
    return state;
  }

  /** What an earlier session taught this endpoint and model, said once per conversation. */
  private tellRecalled(endpoint: Endpoint, model: string, conversation: ConversationState, options: ModelCallOptions): void {
    if (conversation.told.has(model)) return;
    conversation.told.add(model);
    for (const id of endpoint.dialect.recalled(model)) {
      options.onAdapted?.({ endpoint: endpoint.baseUrl, model, change: ADAPTATIONS[id].change, learnedFrom: 'memory' });
    }
  }

  private shape(endpoint: Endpoint, wire: WireHistory, request: ModelRequest, accumulator: StreamAccumulator, options: ModelCallOptions, names: WireNames): ModelReply {
    const raw = accumulator.reply();
    const traits = { reasoningField: raw.reasoningField, hadToolCalls: raw.calls.length > 0, hadProviderData: raw.calls.some((c) => c.providerData !== undefined) };
    for (const id of endpoint.dialect.noteReply(request.model, traits)) {
      options.onAdapted?.({ endpoint: endpoint.baseUrl, model: request.model, change: ADAPTATIONS[id].change, learnedFrom: 'reply' });
    }
    return shapeReply(raw, {
      toolNames: request.tools.map((tool) => names.wire(tool.name)),
      realName: (alias) => names.real(alias),
      isTaken: (id) => wire.hasCallId(id),
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
      const page = await endpoint.sdk.models.list({ signal, headers: endpoint.keyHeaders(endpoint.dialect.rules('')) });
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
