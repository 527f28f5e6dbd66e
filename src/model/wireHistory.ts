/**
 * The wire form of the messages of successive requests, kept from one call to the next. A session
 * sends its whole history every round and the history only grows between compactions, so nearly
 * every message was mapped for the previous request: a slot holding the very same message object as
 * last time reuses its wire object, anything else is mapped afresh. Messages are never mutated once
 * they are in a history (the transcript holds them as written), so identity is enough; the wire
 * objects are only ever serialised, never changed.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../agent/messages';
import { toWireMessage } from './wire';

export class WireHistory {
  private readonly sent: ChatMessage[] = [];
  private readonly wire: ChatCompletionMessageParam[] = [];

  /** Same result as `toWireMessages(messages)`; the returned array is the caller's own. */
  map(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
    const { sent, wire } = this;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as ChatMessage;
      if (sent[i] === message) continue;
      sent[i] = message;
      wire[i] = toWireMessage(message);
    }
    // A shorter request (after a compaction, or a summary call) must not keep the rest alive.
    if (sent.length > messages.length) {
      sent.length = messages.length;
      wire.length = messages.length;
    }
    return wire.slice();
  }
}
