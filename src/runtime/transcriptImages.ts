/**
 * Images kept beside a transcript, not in it: the JSON lines stay small and readable, and an image
 * sent in every round of a chat is stored once. Each image is a private file named by the SHA-256 of
 * its bytes in `<transcript>.images/` (`chat.jsonl` keeps them in `chat.images/`), and the line holds
 * its reference (`file`) where the base64 was. Loading puts the bytes back; a file that is gone
 * (deleted by hand, or no image any more) leaves a note in the message's text rather than a broken
 * image. A reference is read only when it is exactly such a name, so a transcript cannot point the
 * reader elsewhere.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, readFileSync, rmSync, writeSync } from 'node:fs';
import type { AgentEvent } from '../agent/events';
import { imageHeader } from '../agent/imageHeader';
import type { ChatMessage, ImagePart } from '../agent/messages';
import { ensurePrivateDir, openPrivateFile } from '../platform/privateState';
import { join } from 'node:path';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const STORED_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

/** An image as the transcript line holds it: everything but the bytes, and the file that has them. */
type StoredImage = Omit<ImagePart, 'data'> & { data?: string; file?: string };

/** The folder of a transcript's images. */
export function imageDirOf(transcriptPath: string): string {
  return `${transcriptPath.replace(/\.jsonl$/, '')}.images`;
}

/** Deletes a transcript's images (with the chat). */
export function removeTranscriptImages(transcriptPath: string): void {
  rmSync(imageDirOf(transcriptPath), { recursive: true, force: true });
}

function mapImages(event: AgentEvent, each: (message: ChatMessage) => ChatMessage): AgentEvent {
  if (event.type === 'message') {
    const message = each(event.message);
    return message === event.message ? event : { ...event, message };
  }
  if (event.type === 'compaction' && event.history.some((m) => (m.role === 'user' || m.role === 'tool') && m.images !== undefined)) {
    return { ...event, history: event.history.map(each) };
  }
  return event;
}

function withImages(message: ChatMessage, images: unknown[]): ChatMessage {
  return { ...message, images } as ChatMessage;
}

function writeImage(dir: string, image: ImagePart): string {
  const bytes = Buffer.from(image.data, 'base64');
  const file = `${createHash('sha256').update(bytes).digest('hex')}.${EXTENSIONS[image.mimeType] ?? 'png'}`;
  const path = join(dir, file);
  if (existsSync(path)) return file;
  const fd = openPrivateFile(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** The event as the line holds it: each image's bytes in its file. Throws when a file cannot be written. */
export function storeImages(event: AgentEvent, dir: string): AgentEvent {
  return mapImages(event, (message) => {
    if ((message.role !== 'user' && message.role !== 'tool') || message.images === undefined) return message;
    ensurePrivateDir(dir);
    return withImages(
      message,
      message.images.map(({ data, ...rest }): StoredImage => ({ ...rest, file: writeImage(dir, { ...rest, data }) })),
    );
  });
}

/** The image with its type read from its bytes, or undefined when they are no image models take. */
function truthful(image: Omit<ImagePart, 'data'>, data: string): ImagePart | undefined {
  const header = imageHeader(data);
  return header.kind === 'image' ? { ...image, mimeType: header.mimeType, data } : undefined;
}

function readImage(dir: string, image: StoredImage): ImagePart | undefined {
  if (typeof image.data === 'string' && image.data !== '') return truthful(image, image.data);
  if (typeof image.file !== 'string' || !STORED_NAME.test(image.file)) return undefined;
  try {
    const fd = openPrivateFile(join(dir, image.file), constants.O_RDONLY);
    try {
      const { file: _file, ...rest } = image;
      // The type is read from the bytes again: the line's word for it is not taken.
      return truthful(rest, readFileSync(fd).toString('base64'));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The event with each image's bytes back; an image whose file is gone becomes a line of the text. */
export function loadImages(event: AgentEvent, dir: string): AgentEvent {
  return mapImages(event, (message) => {
    if ((message.role !== 'user' && message.role !== 'tool') || !Array.isArray(message.images)) return message;
    const stored = message.images as StoredImage[];
    const loaded = stored.map((image) => readImage(dir, image));
    const missing = stored.filter((_, i) => loaded[i] === undefined).map((image) => `[image no longer available: ${String(image.name)}]`);
    const images = loaded.filter((image): image is ImagePart => image !== undefined);
    const content = missing.length === 0 ? message.content : [message.content, ...missing].filter((s) => s !== '').join('\n');
    const { images: _images, ...rest } = message;
    return (images.length > 0 ? { ...rest, content, images } : { ...rest, content }) as ChatMessage;
  });
}

/** The event with each image's bytes replaced by their count (`--json` output: a line per event, not megabytes). */
export function withoutImageBytes(event: AgentEvent): AgentEvent {
  return mapImages(event, (message) => {
    if ((message.role !== 'user' && message.role !== 'tool') || message.images === undefined) return message;
    return withImages(message, message.images.map(({ data, ...rest }) => ({ ...rest, bytes: Buffer.from(data, 'base64').length })));
  });
}
