/**
 * Tool-call ids at the wire boundary. The history keeps every id as it was first written (the
 * model's, an invented one, or a synthetic hook id); what goes on the wire follows the endpoint's id
 * policy: OpenAI takes any id up to 40 characters, Mistral only exactly 9 letters and digits. An id the
 * policy refuses is replaced by a digest of itself, so the same history id gives the same wire id in
 * every request and a tool message still answers its call. Two ids meet on the same digest with odds
 * near 2^-53 per pair. Replies get ids that are new in the history: a missing one is invented, and a
 * server that says `call_0` every round gets a fresh one instead of a duplicate the API would refuse.
 */
import type { IdPolicy } from './dialect';

export const OPENAI_ID_MAX_LENGTH = 40;
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A 53-bit digest of `text` (two multiplicative 32-bit lanes mixed at the end), as a safe integer. */
export function digest53(text: string): number {
  let a = 0x2545f491;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x85ebca6b);
    b = Math.imul(b ^ c, 0xc2b2ae35);
    a ^= a >>> 13;
    b ^= b >>> 16;
  }
  a = Math.imul(a ^ (b >>> 15), 0x27d4eb2f);
  b = Math.imul(b ^ (a >>> 13), 0x165667b1);
  return (b >>> 0) * 0x200000 + ((a >>> 0) & 0x1fffff);
}

/** `length` base-62 digits of `n` (leading zeros kept), so the result has a fixed length. */
function base62(n: number, length: number): string {
  let out = '';
  let rest = n;
  for (let i = 0; i < length; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** The id to send for history id `id` under `policy`; the id itself whenever the policy accepts it. */
export function wireCallId(id: string, policy: IdPolicy): string {
  if (policy === 'mistral') return MISTRAL_ID.test(id) ? id : base62(digest53(id), 9);
  return id.length > 0 && id.length <= OPENAI_ID_MAX_LENGTH ? id : `call_${base62(digest53(id), 9)}`;
}

let invented = 0;

/** An id for a call the server sent without one (or with one already used); unique in the process. */
export function inventCallId(): string {
  invented += 1;
  return `call_${invented.toString(36)}${base62(Math.floor(Math.random() * 62 ** 6), 6)}`;
}

/** Gives every call an id that is neither empty, nor `taken`, nor used by an earlier call of the same reply. */
export function uniqueCallIds<T extends { id: string }>(calls: T[], taken: (id: string) => boolean): T[] {
  const used = new Set<string>();
  return calls.map((call) => {
    let id = call.id;
    while (id === '' || taken(id) || used.has(id)) id = inventCallId();
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
