/**
 * Images as the core takes them, one rule for every way in (a screenshot pasted in the chat, `--image`
 * on the CLI, an image an MCP tool returned): which types go to a model (PNG, JPEG, GIF and WebP, the
 * ones OpenAI, Anthropic and Gemini all take), the caps (bytes per image, images per message), the
 * check that turns a host's base64 into an ImagePart or a refusal saying what to do, and what an image
 * costs in tokens: by its pixels (OpenAI's tile rule), never by the length of its base64. Hosts read
 * files and clipboards; the decision is here. The type is read from the bytes, not from a file name
 * or a server's word, so a `.png` that is a BMP is named as one.
 */
import type { ChatMessage, ImagePart } from './messages';
import { imageHeader } from './imageHeader';

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Anthropic's per-image limit, and well under OpenAI's: a screenshot fits, and every round resends it. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Images one prompt (or one tool result) may carry. */
export const MAX_IMAGES_PER_MESSAGE = 10;

/** What an image of unknown size is counted as: a 1920x1080 screenshot under OpenAI's tile rule. */
export const UNKNOWN_IMAGE_TOKENS = 1105;

export type ImageCheck = { ok: true; image: ImagePart } | { ok: false; reason: string };

const TYPE_WORDS = 'PNG, JPEG, GIF or WebP';

/** `1.5 MB`, `120 KB`, `300 bytes`. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Base64 as the wire wants it: whitespace dropped (servers wrap lines), a `data:` prefix taken off. */
export function cleanBase64(data: string): string {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  return (comma >= 0 ? data.slice(comma + 1) : data).replace(/\s+/g, '');
}

/** Why an image of `bytes` is refused for its size, if it is (a host may ask before it reads the file). */
export function sizeRefusal(name: string, bytes: number): string | undefined {
  if (bytes <= MAX_IMAGE_BYTES) return undefined;
  return `${name} is ${byteSize(bytes)}; an image may be at most ${byteSize(MAX_IMAGE_BYTES)}. Crop or shrink it (or save it as JPEG) and attach it again.`;
}

/**
 * An image for a message, or why it cannot be one: empty, not base64, over the size cap, or not a type
 * models take (named when it is a known one: "a BMP image").
 */
export function checkImage(name: string, base64: string): ImageCheck {
  const data = cleanBase64(base64);
  if (data === '') return { ok: false, reason: `${name} is empty.` };
  const tooBig = sizeRefusal(name, base64Bytes(data));
  if (tooBig !== undefined) return { ok: false, reason: tooBig };
  if (data.length % 4 !== 0 || !BASE64.test(data)) return { ok: false, reason: `${name} is not readable image data (not valid base64).` };
  const header = imageHeader(data);
  if (header.kind === 'other') {
    const article = /^(SVG|ICO|AVIF)$/.test(header.name) ? 'an' : 'a';
    return { ok: false, reason: `${name} is ${article} ${header.name} image; models take ${TYPE_WORDS} images. Convert it and attach it again.` };
  }
  if (header.kind === 'unknown') return { ok: false, reason: `${name} is not a ${TYPE_WORDS} image, the types models take.` };
  const size = header.width !== undefined && header.height !== undefined ? { width: header.width, height: header.height } : {};
  return { ok: true, image: { mimeType: header.mimeType, data, name, ...size } };
}

/** Each image checked; more than the cap is one refusal naming the cap, and the extra ones are not checked. */
export function checkImages(images: readonly { name: string; data: string }[], what = 'A prompt'): { images: ImagePart[]; refusals: string[] } {
  const accepted: ImagePart[] = [];
  const refusals: string[] = [];
  for (const each of images.slice(0, MAX_IMAGES_PER_MESSAGE)) {
    const checked = checkImage(each.name, each.data);
    if (checked.ok) accepted.push(checked.image);
    else refusals.push(checked.reason);
  }
  if (images.length > MAX_IMAGES_PER_MESSAGE) {
    refusals.push(`${what} may carry at most ${MAX_IMAGES_PER_MESSAGE} images; ${images.length - MAX_IMAGES_PER_MESSAGE} more were left out.`);
  }
  return { images: accepted, refusals };
}

/**
 * The tokens an image costs, by OpenAI's high-detail rule (fit in 2048x2048, shortest side to 768,
 * 170 a 512-pixel tile plus 85); Anthropic's pixels/750 lands close for screenshot sizes.
 */
export function imageTokens(image: Pick<ImagePart, 'width' | 'height'>): number {
  const { width, height } = image;
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return UNKNOWN_IMAGE_TOKENS;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  const shortSide = Math.min(width, height) * fit;
  const scale = fit * Math.min(1, 768 / shortSide);
  const tiles = Math.ceil((width * scale) / 512) * Math.ceil((height * scale) / 512);
  return 85 + 170 * tiles;
}

/** The images of a message, if it has any. */
export function imagesOf(message: ChatMessage): readonly ImagePart[] {
  return (message.role === 'user' || message.role === 'tool') && message.images !== undefined ? message.images : [];
}

/** What a message's images weigh in the size estimate, in characters (`charsPerToken` each token). */
export function imageChars(message: ChatMessage, charsPerToken: number): number {
  const images = imagesOf(message);
  return images.length === 0 ? 0 : images.reduce((n, image) => n + imageTokens(image) * charsPerToken, 0);
}

/** `[image: screenshot.png, 1280x720]`: how an image reads where only text goes (summaries, notes). */
export function imageLabel(image: ImagePart): string {
  const size = image.width !== undefined && image.height !== undefined ? `, ${image.width}x${image.height}` : '';
  return `[image: ${image.name}${size}]`;
}

/**
 * A tool result's images, checked: each named after the call (`image 1 from browser__screenshot`), and
 * a line of text for each one refused, so the model reads that it was not sent and why.
 */
export function toolResultImages(callName: string, raw: readonly ImagePart[] | undefined): { images: ImagePart[]; notes: string[] } {
  if (raw === undefined || raw.length === 0) return { images: [], notes: [] };
  const named = raw.map((image, i) => ({ name: `image ${i + 1} from ${callName}`, data: image.data }));
  const { images, refusals } = checkImages(named, 'A tool result');
  return { images, notes: refusals.map((reason) => `[image not sent: ${reason}]`) };
}
