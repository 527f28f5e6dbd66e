/**
 * Folds a Chat Completions chunk stream into one raw reply, reading every shape OpenAI-compatible
 * servers are known to stream (sources in docs/model-servers.md): tool-call deltas by `index`, without
 * `index`, or all at `index: 0` with distinct ids (a new id at a used index opens a new call instead of
 * gluing arguments together); several entries of one delta without index or id as several calls; a
 * whole call in one delta; arguments a relay restated whole taken once (toolArguments.ts); id, name and type repeated, blanked or
 * (the name) sent in fragments in later deltas; `arguments` sent as a JSON object; content as a string
 * or as typed parts, thinking in any of its fields or as `<think>` text, usage anywhere it comes
 * (deltaShapes.ts); an error array instead of a chunk. Per chunk it only reads fields and appends
 * strings; anything unusual takes a side path.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Usage } from '../agent/messages';
import type { ReasoningField } from './dialect';
import { chunkUsage, contentParts, reasoningOf, usageFrom } from './deltaShapes';
import { finishedInFailure } from './finishReasons';
import { ThinkTagSplitter } from './thinkTags';
import { isWholeJson, oneCopyOfArguments } from './toolArguments';

type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

export interface PendingCall {
  id: string;
  name: string;
  arguments: string;
  providerData?: Record<string, unknown>;
}

/** A call being streamed and where it goes in the reply: by its index, then by first appearance. */
interface OpenCall extends PendingCall {
  order: number;
  seq: number;
}

/** The reply as streamed, before ids and names are made safe for the history (replyShaping). */
export interface RawReply {
  content: string | null;
  reasoning: string | null;
  reasoningField: ReasoningField | undefined;
  calls: PendingCall[];
  finishReason: string | null;
  usage: Usage | null;
}

/** An error the server sent inside the stream (`data: {"error": ...}` or Gemini's `[{"error": ...}]`). */
export class StreamErrorEvent extends Error {
  constructor(
    message: string,
    /** The HTTP status the body names (`code: 503`, Groq's `status_code: 400`), if any. */
    readonly code: number | undefined,
    readonly errorCode?: string,
    readonly errorType?: string,
  ) {
    super(message);
    this.name = 'StreamErrorEvent';
  }
}

function errorEventOf(value: unknown): StreamErrorEvent | undefined {
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  const error = (first as { error?: unknown } | null)?.error;
  if (error === undefined || error === null) return undefined;
  const body = typeof error === 'object' ? (error as { message?: unknown; code?: unknown; status_code?: unknown; type?: unknown }) : { message: error };
  const message = typeof body.message === 'string' && body.message.trim() !== '' ? body.message.trim() : JSON.stringify(error);
  const numeric = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && /^[45]\d\d$/.test(v) ? Number(v) : undefined);
  // LiteLLM names the status as a string (`code: "400"`).
  const status = numeric(body.code) ?? numeric(body.status_code);
  return new StreamErrorEvent(message, status, typeof body.code === 'string' ? body.code : undefined, typeof body.type === 'string' ? body.type : undefined);
}

/**
 * A name seen again: repeated whole (keep it), sent as a growing prefix (take the longer), or sent in
 * fragments (append). OpenAI sends it once, some servers in every delta, some relays in pieces.
 */
function mergedName(current: string, piece: string): string {
  if (current === '' || piece.startsWith(current)) return piece;
  return current.endsWith(piece) ? current : current + piece;
}

export class StreamAccumulator {
  /** The thinking text of the last `add` ('' for none). */
  reasoningPiece = '';
  /** Answer text of earlier `add`s that the last one showed to be thinking (a lone `</think>`); '' for none. */
  reclassifiedPiece = '';
  private text = '';
  private sawText = false;
  private reasoning = '';
  private reasoningField: ReasoningField | undefined;
  private readonly calls: OpenCall[] = [];
  private readonly byIndex = new Map<number, OpenCall>();
  private last: OpenCall | undefined;
  /** The calls the entries of the current delta went to. */
  private readonly inThisDelta = new Set<OpenCall>();
  private finishReason: string | null = null;
  private usage: Usage | null = null;
  private readonly think = new ThinkTagSplitter();

  /** Adds one chunk; returns the answer text it carried ('' for none) and sets `reasoningPiece`. */
  add(chunk: ChatCompletionChunk): string {
    this.reasoningPiece = '';
    this.reclassifiedPiece = '';
    const choices = chunk.choices as ChatCompletionChunk['choices'] | undefined;
    if (!Array.isArray(choices)) return this.oddChunk(chunk);
    this.usage = chunkUsage(chunk) ?? this.usage;
    let visible = '';
    for (const choice of choices) {
      if (choice.index !== undefined && choice.index !== 0) continue; // we ask for one choice
      const delta = choice.delta as (ChatCompletionChunk.Choice.Delta & Record<string, unknown>) | undefined;
      if (delta) visible += this.addDelta(delta);
      // Moonshot's Kimi puts the usage inside the choice.
      const inChoice = (choice as { usage?: unknown }).usage;
      if (inChoice) this.noteUsage(inChoice);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    if (visible) {
      this.text += visible;
      this.sawText = true;
    }
    return visible;
  }

  /** One delta's answer text; its thinking and tool calls go where they belong. */
  private addDelta(delta: ChatCompletionChunk.Choice.Delta & Record<string, unknown>): string {
    const thinking = reasoningOf(delta);
    if (thinking) this.addReasoning(thinking.field, thinking.text);
    let visible = '';
    const content: unknown = delta.content;
    if (typeof content === 'string' && content) visible += this.think.answering ? content : this.splitThinking(content);
    else if (Array.isArray(content)) {
      // Mistral's Magistral: typed parts, thinking apart from the answer.
      const parts = contentParts(content);
      if (parts.thinking) this.addReasoning(undefined, parts.thinking);
      if (parts.text) visible += this.think.answering ? parts.text : this.splitThinking(parts.text);
    }
    // A refusal is what the user gets to read instead of an answer, so it streams like text.
    if (delta.refusal) visible += delta.refusal;
    const calls = delta.tool_calls;
    this.inThisDelta.clear();
    if (calls) for (const call of calls) this.addToolCall(call);
    return visible;
  }

  /** True once any answer text was delivered: a retry from here would show it twice. */
  get hasText(): boolean {
    return this.sawText;
  }

  /**
   * Whether the stream may be taken as the whole reply. The SDK consumes `[DONE]` itself and a broken
   * connection raises a transport error, so a stream that ended cleanly is complete when it carried a
   * finish reason or anything at all (some servers send `[DONE]` without a finish reason); a clean end
   * with nothing in it is treated as cut.
   */
  get complete(): boolean {
    return this.finishReason !== null || this.sawText || this.reasoning !== '' || this.calls.length > 0;
  }

  /**
   * The finish reason, when it says the server failed and the reply has nothing in it (OpenRouter's
   * `error` for a routed provider's failure, DeepSeek's `insufficient_system_resource`); else undefined.
   */
  get endedInFailure(): string | undefined {
    const said = this.finishReason;
    return finishedInFailure(said) && !this.sawText && this.calls.length === 0 ? (said ?? undefined) : undefined;
  }

  /** Releases text held back while a `<think>` tag might still be opening; call once at the end. */
  flush(): string {
    this.reasoningPiece = '';
    this.reclassifiedPiece = '';
    this.think.end();
    if (this.think.thought) this.appendReasoning(this.think.thought);
    const rest = this.think.answer;
    if (rest) {
      this.text += rest;
      this.sawText = true;
    }
    return rest;
  }

  reply(): RawReply {
    return {
      content: this.sawText ? this.text : null,
      reasoning: this.reasoning === '' ? null : this.reasoning,
      reasoningField: this.reasoningField,
      calls: this.calls
        .filter((c) => c.name !== '' || c.arguments !== '' || c.id !== '')
        .sort((a, b) => a.order - b.order || a.seq - b.seq)
        .map(({ order: _order, seq: _seq, ...call }) => ({ ...call, arguments: oneCopyOfArguments(call.arguments) })),
      finishReason: this.finishReason,
      usage: this.usage,
    };
  }

  private noteUsage(raw: unknown): void {
    // Some servers repeat a running total in every chunk; the last one is the reply's.
    this.usage = usageFrom(raw) ?? this.usage;
  }

  /** A chunk without `choices`: an error event, or a usage-only chunk from a server that left `choices` out. */
  private oddChunk(chunk: unknown): string {
    const error = errorEventOf(chunk);
    if (error) throw error;
    this.usage = chunkUsage(chunk) ?? this.usage;
    return '';
  }

  /** `field`: where the server would want it back; undefined for thinking that came as content parts. */
  private addReasoning(field: ReasoningField | undefined, piece: string): void {
    if (field !== undefined) this.reasoningField ??= field;
    this.appendReasoning(piece);
  }

  private appendReasoning(piece: string): void {
    this.reasoning += piece;
    this.reasoningPiece += piece;
  }

  private splitThinking(content: string): string {
    this.think.push(content);
    // A lone `</think>`: the answer so far was thinking. It leaves the answer (and the history the
    // model sees again) and joins the thinking; the stream already showed it as text, so it is
    // reported as reclassified, and the reasoning piece carries only what is new.
    const retracted = this.think.retracted;
    if (retracted) {
      this.text = this.text.slice(0, this.text.length - retracted.length);
      if (this.text === '') this.sawText = false;
      this.reclassifiedPiece += retracted;
      this.reasoning += retracted;
    }
    const thought = this.think.thought.slice(retracted.length);
    if (thought) this.appendReasoning(thought);
    return this.think.answer;
  }

  private addToolCall(delta: ToolCallDelta): void {
    const id = typeof delta.id === 'string' ? delta.id : '';
    const fn = delta.function as { name?: unknown; arguments?: unknown } | undefined;
    const name = typeof fn?.name === 'string' ? fn.name : '';
    const call = this.callFor(delta.index as number | undefined, id, name);
    this.inThisDelta.add(call);
    if (id !== '' && call.id === '') call.id = id;
    if (name !== '') call.name = mergedName(call.name, name);
    const args = fn?.arguments;
    if (typeof args === 'string') call.arguments += args;
    // Some llama.cpp builds send the arguments as a JSON object instead of a string.
    else if (args !== null && typeof args === 'object') call.arguments += JSON.stringify(args);
    const extra = (delta as { extra_content?: unknown }).extra_content;
    if (extra !== null && typeof extra === 'object' && !Array.isArray(extra)) call.providerData = extra as Record<string, unknown>;
  }

  private open(index = Number.MAX_SAFE_INTEGER): OpenCall {
    const call: OpenCall = { id: '', name: '', arguments: '', order: index, seq: this.calls.length };
    this.calls.push(call);
    return call;
  }

  /**
   * The call a delta belongs to. By index, unless the delta names another id than the call there (then
   * it is a new call); without an index, by id, else the last call, unless that call is already
   * another entry of this delta or is whole (named, with whole JSON arguments) and this entry names
   * a tool: then it is a new call.
   */
  private callFor(index: number | undefined, id: string, name: string): OpenCall {
    if (typeof index === 'number') {
      const at = this.byIndex.get(index);
      if (at !== undefined && (id === '' || at.id === '' || at.id === id)) return (this.last = at);
      const call = this.open(index);
      this.byIndex.set(index, call);
      return (this.last = call);
    }
    if (id !== '') return (this.last = this.calls.find((c) => c.id === id) ?? this.open());
    const last = this.last;
    const whole = last !== undefined && name !== '' && last.name !== '' && isWholeJson(last.arguments);
    return last === undefined || whole || this.inThisDelta.has(last) ? (this.last = this.open()) : last;
  }
}
