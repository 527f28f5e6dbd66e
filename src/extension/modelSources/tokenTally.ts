/**
 * Usage for a model source that reports none (the Language Model API): the request and the reply
 * counted with the model's own tokenizer (`LanguageModelChat.countTokens`), so the core's compaction
 * estimate starts from the model's numbers rather than four characters a token. A history only grows
 * between compactions and its messages are never mutated, so each message is counted once per model
 * and cached by identity; the system prompt and the tool list, new objects every round, by their text.
 */
import type { ModelRequest } from '../../agent/ports';
import type { ChatMessage, ToolCall, Usage } from '../../agent/messages';
import { imagesOf, imageTokens } from '../../agent/imageParts';
import { countableText, toLmTools } from './lmMapping';

export type CountTokens = (text: string) => PromiseLike<number>;

interface Counted {
  model: string;
  tokens: number;
}

const TEXT_CACHE_SIZE = 16;

export class TokenTally {
  private readonly byMessage = new WeakMap<ChatMessage, Counted>();
  private readonly byText = new Map<string, Counted>();

  /** Tokens of the whole request: every message and the tool list. */
  async promptTokens(model: string, count: CountTokens, request: ModelRequest): Promise<number> {
    const parts = request.messages.map((message) => this.message(model, count, message));
    if (request.tools.length > 0) parts.push(this.text(model, count, JSON.stringify(toLmTools(request.tools))));
    return (await Promise.all(parts)).reduce((a, b) => a + b, 0);
  }

  /** The usage of one call, from its prompt count (already under way) and its reply. */
  async usage(model: string, count: CountTokens, prompt: Promise<number>, reply: { content: string; toolCalls: readonly ToolCall[] }): Promise<Usage> {
    const replyText = countableText({ role: 'assistant', content: reply.content, toolCalls: [...reply.toolCalls] });
    const [promptTokens, completionTokens] = await Promise.all([prompt, replyText === '' ? 0 : count(replyText)]);
    return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  }

  private async message(model: string, count: CountTokens, message: ChatMessage): Promise<number> {
    if (message.role === 'system') return this.text(model, count, message.content);
    const known = this.byMessage.get(message);
    if (known?.model === model) return known.tokens;
    const text = countableText(message);
    // The tokenizer counts text; an image counts by its pixels (imageParts.ts).
    const images = imagesOf(message).reduce((n, image) => n + imageTokens(image), 0);
    const tokens = (text === '' ? 0 : await count(text)) + images;
    this.byMessage.set(message, { model, tokens });
    return tokens;
  }

  private async text(model: string, count: CountTokens, text: string): Promise<number> {
    const known = this.byText.get(text);
    if (known?.model === model) return known.tokens;
    const tokens = await count(text);
    this.byText.delete(text);
    this.byText.set(text, { model, tokens });
    if (this.byText.size > TEXT_CACHE_SIZE) this.byText.delete(this.byText.keys().next().value as string);
    return tokens;
  }
}
