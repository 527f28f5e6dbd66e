/**
 * Folds a Chat Completions chunk stream into one ModelReply. Tool calls are accumulated by their
 * `index` (id and name come in the first delta of an index, arguments arrive in fragments and may
 * interleave across indices); usage comes from the final chunk that `include_usage` adds. Whether a
 * finish reason was seen tells the client a cut stream from a complete one.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelReply } from '../agent/ports';
import type { ToolCall, Usage } from '../agent/messages';

type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

export class StreamAccumulator {
  private text = '';
  private sawText = false;
  private readonly calls = new Map<number, ToolCall>();
  private lastIndex = -1;
  private finishReason: string | null = null;
  private usage: Usage | null = null;

  /** Adds one chunk; returns the visible text it carried ('' for none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) {
      const u = chunk.usage;
      this.usage = { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0, totalTokens: u.total_tokens ?? 0 };
    }
    let visible = '';
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== undefined && choice.index !== 0) continue; // we ask for one choice
      const delta = choice.delta ?? {};
      // A refusal is what the user gets to read instead of an answer, so it streams like text.
      const piece = (delta.content ?? '') + (delta.refusal ?? '');
      if (piece) {
        this.text += piece;
        this.sawText = true;
        visible += piece;
      }
      const calls = delta.tool_calls;
      if (calls) for (const call of calls) this.addToolCall(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return visible;
  }

  private addToolCall(delta: ToolCallDelta): void {
    const index = this.indexOf(delta);
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  /** Some compatible servers omit `index`; then a new id opens a new call and no id continues the last. */
  private indexOf(delta: ToolCallDelta): number {
    if (typeof delta.index === 'number') return delta.index;
    if (delta.id) {
      for (const [index, call] of this.calls) if (call.id === delta.id) return index;
      return this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
    }
    return Math.max(this.lastIndex, 0);
  }

  get finished(): boolean {
    return this.finishReason !== null;
  }

  /** True once any text was delivered: a retry from here would show it twice. */
  get hasText(): boolean {
    return this.sawText;
  }

  reply(): ModelReply {
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        // An id is what ties the tool result to its call; invent one if the server sent none.
        id: call.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
        name: call.name,
        arguments: call.arguments,
      }));
    return {
      content: this.sawText ? this.text : null,
      toolCalls,
      finishReason: this.finishReason ?? 'unknown',
      usage: this.usage,
    };
  }
}
