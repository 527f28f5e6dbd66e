/**
 * The wire form of the messages of successive requests, kept from one call to the next. A session
 * sends its whole history every round and the history only grows between compactions, so nearly
 * every message was mapped for the previous request: a slot holding the very same message object as
 * last time reuses its wire object, anything else is mapped afresh. Messages are never mutated once
 * they are in a history (the transcript holds them as written), so identity is enough; the wire
 * objects are only ever serialised, never changed. New WireRules (the endpoint taught a rule) drop
 * the cache. It also counts the tool-call ids of the last request's history, so a reply's ids can be
 * checked against it without another pass.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../agent/messages';
import type { WireRules } from './dialect';
import { DEFAULT_WIRE_RULES, toWireMessage, type AliasOf } from './wire';

export class WireHistory {
  private readonly sent: ChatMessage[] = [];
  private readonly wire: ChatCompletionMessageParam[] = [];
  private readonly callIds = new Map<string, number>();
  private rules: WireRules = DEFAULT_WIRE_RULES;

  /**
   * Same result as `toWireMessages(messages, rules, alias)`; the returned array is the caller's own.
   * `alias` must be the conversation's (wireNames.ts: a name keeps its alias for the conversation).
   */
  map(messages: readonly ChatMessage[], rules: WireRules = DEFAULT_WIRE_RULES, alias: AliasOf = (name) => name): ChatCompletionMessageParam[] {
    const { sent, wire } = this;
    if (rules !== this.rules) {
      this.rules = rules;
      this.truncate(0);
    }
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as ChatMessage;
      if (sent[i] === message) continue;
      if (i < sent.length) this.count(sent[i] as ChatMessage, -1);
      this.count(message, 1);
      sent[i] = message;
      wire[i] = toWireMessage(message, rules, alias);
    }
    // A shorter request (after a compaction, or a summary call) must not keep the rest alive.
    if (sent.length > messages.length) this.truncate(messages.length);
    return wire.slice();
  }

  /** Whether a tool call of the last mapped request already has this id. */
  hasCallId(id: string): boolean {
    return this.callIds.has(id);
  }

  private truncate(length: number): void {
    for (let i = length; i < this.sent.length; i++) this.count(this.sent[i] as ChatMessage, -1);
    this.sent.length = length;
    this.wire.length = length;
  }

  private count(message: ChatMessage, by: 1 | -1): void {
    if (message.role !== 'assistant' || message.toolCalls === undefined) return;
    for (const call of message.toolCalls) {
      const n = (this.callIds.get(call.id) ?? 0) + by;
      if (n > 0) this.callIds.set(call.id, n);
      else this.callIds.delete(call.id);
    }
  }
}
