/**
 * OpenAI's rules for a message's content parts, as the fake applies them: a user message may hold
 * text, `image_url`, `input_audio` and `file` parts; an image only as an https URL or a base64 data URL
 * of PNG, JPEG, GIF or WebP whose bytes are one; every other role takes text only ("Image URLs are only
 * allowed for messages with role 'user'"). Worded as the real API words them (sources in
 * docs/model-servers.md), so an image the agent maps wrong fails a test as it would fail for real.
 */
import { openAiErrorBody } from './fakeOpenAiTypes';
import type { Rejection } from './validateChatRequest';

type Json = Record<string, unknown>;

const PART_TYPES = new Set(['text', 'image_url', 'input_audio', 'file']);
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const EXAMPLE = "(e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=')";

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reject(message: string, param: string | null, code: string | null = 'invalid_value'): Rejection {
  return { status: 400, body: openAiErrorBody(message, 'invalid_request_error', param, code), message };
}

/** Whether the bytes start as one of the four image formats do. */
function looksLikeImage(bytes: Buffer): boolean {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return true;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return true;
  const head = bytes.subarray(0, 12).toString('latin1');
  return head.startsWith('GIF87a') || head.startsWith('GIF89a') || (head.startsWith('RIFF') && head.slice(8) === 'WEBP');
}

function checkImageUrl(part: Json, param: string): Rejection | undefined {
  const url = isObject(part.image_url) ? part.image_url.url : undefined;
  if (typeof url !== 'string') return reject(`Missing required parameter: '${param}.image_url.url'.`, `${param}.image_url.url`, 'missing_required_parameter');
  if (url.startsWith('https://') || url.startsWith('http://')) return undefined;
  const expected = `Invalid '${param}.image_url.url'. Expected a base64-encoded data URL with an image MIME type ${EXAMPLE}, but got`;
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
  if (match === null) return reject(`${expected} a value without the 'data:' prefix.`, `${param}.image_url.url`);
  const [, mime = '', separator, data = ''] = match;
  if (!IMAGE_MIMES.has(mime)) return reject(`${expected} unsupported MIME type '${mime}'.`, `${param}.image_url.url`);
  if (separator === undefined) return reject(`${expected} a value without the ';base64' separator.`, `${param}.image_url.url`);
  if (data === '') return reject(`${expected} empty base64-encoded bytes.`, `${param}.image_url.url`);
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return reject(`${expected} an invalid base64-encoded value.`, `${param}.image_url.url`);
  if (!looksLikeImage(Buffer.from(data.slice(0, 64), 'base64'))) {
    return reject("You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].", null, 'invalid_image_format');
  }
  return undefined;
}

/** A user message's parts. */
function checkUserParts(parts: unknown[], i: number): Rejection | undefined {
  for (const [j, part] of parts.entries()) {
    const param = `messages[${i}].content[${j}]`;
    if (!isObject(part)) return reject(`Invalid type for '${param}': expected an object, but got a string instead.`, param, 'invalid_type');
    if (typeof part.type !== 'string' || !PART_TYPES.has(part.type)) {
      return reject(`Invalid value: '${String(part.type)}'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.`, `${param}.type`);
    }
    if (part.type === 'text' && typeof part.text !== 'string') return reject(`Missing required parameter: '${param}.text'.`, `${param}.text`, 'missing_required_parameter');
    if (part.type === 'image_url') {
      const bad = checkImageUrl(part, param);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** The content of message `i` (already known to be a string or an array where one is required). */
export function checkContentParts(message: Json, i: number): Rejection | undefined {
  if (!Array.isArray(message.content)) return undefined;
  if (message.role === 'user') return checkUserParts(message.content, i);
  const image = message.content.some((part) => isObject(part) && part.type === 'image_url');
  if (image) {
    return reject(`Invalid 'messages[${i}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${String(message.role)}' contains an image URL.`, `messages[${i}]`);
  }
  return undefined;
}

/** The image parts of a request, for tests: which message, the MIME type and the decoded size. */
export function imagePartsOf(body: unknown): { message: number; role: string; mimeType: string; bytes: number }[] {
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  return messages.flatMap((message: unknown, i: number) => {
    if (!isObject(message) || !Array.isArray(message.content)) return [];
    return message.content.flatMap((part: unknown) => {
      const url = isObject(part) && part.type === 'image_url' && isObject(part.image_url) ? part.image_url.url : undefined;
      const match = typeof url === 'string' ? /^data:([^;]+);base64,(.*)$/s.exec(url) : null;
      return match ? [{ message: i, role: String(message.role), mimeType: match[1] ?? '', bytes: Buffer.from(match[2] ?? '', 'base64').length }] : [];
    });
  });
}
