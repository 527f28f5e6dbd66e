/**
 * Images on the Chat Completions wire. A user message's images go as `image_url` parts with data URLs
 * after its text. A tool message takes text only (OpenAI: "Image URLs are only allowed for messages
 * with role 'user'"), so a tool's images go the way peers send them (the Vercel AI SDK, opencode,
 * gateways in front of Anthropic): its text says they follow, and one user message after the run of
 * tool messages carries them, each headed by its label (merged into the user message that follows,
 * if one does, for templates that insist on alternating roles). A model that refused images
 * (`images: 'note'`, learned from its server's words) gets a line per image saying it was not sent.
 * Pure.
 */
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { imageLabel, imagesOf } from '../agent/imageParts';
import type { ChatMessage, ImagePart } from '../agent/messages';
import type { WireRules } from './dialect';

const NOT_TAKEN = '(this model does not take images)';

function dataUrl(image: ImagePart): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

function imagePart(image: ImagePart): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: dataUrl(image) } };
}

/** Each image as a line saying it was not sent (the VS Code models' mapping says it the same way). */
export function notes(images: readonly ImagePart[]): string {
  return images.map((image) => `[image not sent: ${image.name} ${NOT_TAKEN}]`).join('\n');
}

export function joined(text: string, more: string): string {
  return text === '' ? more : `${text}\n\n${more}`;
}

/** A user message's content: its text, then its images as parts (or as notes). */
export function userContent(message: Extract<ChatMessage, { role: 'user' }>, rules: Pick<WireRules, 'images'>): string | ChatCompletionContentPart[] {
  const images = message.images ?? [];
  if (images.length === 0) return message.content;
  if (rules.images === 'note') return joined(message.content, notes(images));
  const text: ChatCompletionContentPart[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
  return [...text, ...images.map(imagePart)];
}

/** A tool message's text, saying where its images went. */
export function toolContent(message: Extract<ChatMessage, { role: 'tool' }>, rules: Pick<WireRules, 'images'>): string {
  const images = message.images ?? [];
  if (images.length === 0) return message.content;
  if (rules.images === 'note') return `${message.content}\n${notes(images)}`;
  const what = images.length === 1 ? 'The image follows' : `The ${images.length} images follow`;
  return `${message.content}\n[${what} after the tool results.]`;
}

/** What heads a tool's image where it is carried. */
export function carriedLabel(image: ImagePart): string {
  return `${imageLabel(image)} returned by a tool above:`;
}

/** The parts of the user message that carries a run of tool results' images. */
function carriedImages(run: readonly ChatMessage[]): ChatCompletionContentPart[] {
  return run.flatMap(imagesOf).flatMap((image) => [{ type: 'text' as const, text: carriedLabel(image) }, imagePart(image)]);
}

function asParts(content: ChatCompletionMessageParam['content']): ChatCompletionContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return (content ?? []) as ChatCompletionContentPart[];
}

/**
 * `wire` (one message per message of `messages`, as mapped) with a user message carrying the images
 * after each run of tool messages that returned any. Returns `wire` itself when there are none.
 */
export function withToolImages(messages: readonly ChatMessage[], wire: ChatCompletionMessageParam[], rules: Pick<WireRules, 'images'>): ChatCompletionMessageParam[] {
  if (rules.images !== 'parts' || !messages.some((m) => m.role === 'tool' && (m.images?.length ?? 0) > 0)) return wire;
  const out: ChatCompletionMessageParam[] = [];
  for (let i = 0; i < wire.length; i++) {
    out.push(wire[i] as ChatCompletionMessageParam);
    if (messages[i]?.role !== 'tool' || messages[i + 1]?.role === 'tool') continue;
    let start = i;
    while (start > 0 && messages[start - 1]?.role === 'tool') start -= 1;
    const parts = carriedImages(messages.slice(start, i + 1));
    if (parts.length === 0) continue;
    const next = wire[i + 1];
    if (next?.role === 'user') {
      out.push({ ...next, content: [...parts, ...asParts(next.content)] });
      i += 1;
    } else out.push({ role: 'user', content: parts });
  }
  return out;
}

/** Whether the request as mapped carries any image part. */
export function sendsImages(messages: readonly ChatMessage[], rules: Pick<WireRules, 'images'>): boolean {
  return rules.images === 'parts' && messages.some((m) => imagesOf(m).length > 0);
}
