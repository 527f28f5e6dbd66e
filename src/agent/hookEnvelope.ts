/**
 * How hook output reaches the model (docs/hooks.md#how-hook-text-reaches-the-model). Hook text is untrusted and lower trust than user text, so
 * it is capped (16 KiB) and wrapped as a synthetic assistant tool call plus its tool result whose
 * content is compact JSON: hostile text (quotes, newlines, fake role headers) stays inside a JSON
 * string and cannot pose as another message. Ids come from one module counter so they are unique
 * across the whole process; a resumed session bumps the counter past the ids already in its history.
 */
import { NAME_SEPARATOR } from './toolNames';
import type { ChatMessage } from './messages';
import type { HookName } from './events';

export const HOOK_TEXT_MAX_BYTES = 16_384;
export const HOOK_TRUNCATION_MARKER = '\n[content truncated]';

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function capUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (bytes + size > maxBytes) return { text: text.slice(0, end), truncated: true };
    bytes += size;
    end += char.length;
  }
  return { text, truncated: false };
}

/**
 * The text of a hook reply as the model will see it: trimmed, capped at 16 KiB with a marker.
 * Returns '' when there is nothing after trimming, which means "no objection".
 */
export function normaliseHookText(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' ? '' : capHookField(trimmed);
}

/** A text the agent hands to a hook (a prompt, a tool result), cut to `maxBytes` UTF-8 bytes with the same marker. */
export function capHookField(text: string, maxBytes: number = HOOK_TEXT_MAX_BYTES): string {
  const capped = capUtf8(text, maxBytes);
  return capped.truncated ? capped.text + HOOK_TRUNCATION_MARKER : capped.text;
}

let hookCallCounter = 0;

const HOOK_ID_PATTERN = /^sprout_hook_.*_(\d+)$/;

/** Moves the id counter past every synthetic id already in `messages` (resumed sessions). */
export function reserveHookCallIds(messages: readonly ChatMessage[]): void {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      const match = HOOK_ID_PATTERN.exec(call.id);
      const n = match?.[1] === undefined ? 0 : Number(match[1]);
      if (Number.isSafeInteger(n) && n > hookCallCounter) hookCallCounter = n;
    }
  }
}

export function nextHookCallId(hook: HookName, server: string): string {
  hookCallCounter += 1;
  return `sprout_hook_${hook}_${server}_${hookCallCounter}`;
}

export function isSyntheticHookCallId(id: string): boolean {
  return HOOK_ID_PATTERN.test(id);
}

/** The tool message content: compact JSON with exactly the keys hook, server, text in that order. */
export function hookEnvelopeContent(hook: HookName, server: string, text: string): string {
  return JSON.stringify({ hook, server, text });
}

/** The synthetic assistant tool call and its answer that carry one hook's output into the history. */
export function buildHookPair(hook: HookName, server: string, text: string): [ChatMessage, ChatMessage] {
  const id = nextHookCallId(hook, server);
  return [
    { role: 'assistant', content: null, toolCalls: [{ id, name: `${server}${NAME_SEPARATOR}${hook}`, arguments: '{}' }] },
    { role: 'tool', toolCallId: id, content: hookEnvelopeContent(hook, server, text) },
  ];
}
