/**
 * What an image's first bytes say: its type (PNG, JPEG, GIF, WebP; or a kind models do not take,
 * named so the refusal can say "a BMP image") and its pixel size when the header holds it. Reads only
 * the start of the base64 (a JPEG's size may sit after its EXIF block, so up to 256 KB), decoded here:
 * the core has no Buffer and no atob.
 */

export type ImageHeader =
  | { kind: 'image'; mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; width?: number; height?: number }
  | { kind: 'other'; name: string }
  | { kind: 'unknown' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/** The first bytes of valid base64 (at most `maxBytes`, rounded down to whole groups). */
export function decodeBase64Prefix(data: string, maxBytes: number): Uint8Array {
  const chars = Math.min(data.length, Math.ceil(maxBytes / 3) * 4);
  const out: number[] = [];
  for (let i = 0; i + 3 < chars; i += 4) {
    const a = VALUE.get(data[i] ?? '') ?? 0;
    const b = VALUE.get(data[i + 1] ?? '') ?? 0;
    const c = VALUE.get(data[i + 2] ?? '');
    const d = VALUE.get(data[i + 3] ?? '');
    out.push((a << 2) | (b >> 4));
    if (c !== undefined) out.push(((b & 15) << 4) | (c >> 2));
    if (c !== undefined && d !== undefined) out.push(((c & 3) << 6) | d);
  }
  return Uint8Array.from(out);
}

const HEADER_BYTES = 256 * 1024;

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (bytes: Uint8Array, at: number, length: number): string => String.fromCharCode(...bytes.subarray(at, at + length));
const be16 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const le16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const be32 = (b: Uint8Array, at: number): number => be16(b, at) * 65536 + be16(b, at + 2);
const le24 = (b: Uint8Array, at: number): number => le16(b, at) + (b[at + 2] ?? 0) * 65536;

/** Pixel size when both are known and positive. */
function sized(width: number, height: number): { width?: number; height?: number } {
  return width > 0 && height > 0 ? { width, height } : {};
}

/** A baseline or progressive JPEG's size is in its first SOF segment (not DHT, JPG or DAC, which share the range). */
function jpegSize(b: Uint8Array): { width?: number; height?: number } {
  let at = 2;
  while (at + 9 < b.length && b[at] === 0xff) {
    const marker = b[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return sized(be16(b, at + 7), be16(b, at + 5));
    at += 2 + be16(b, at + 2);
  }
  return {};
}

function webpSize(b: Uint8Array): { width?: number; height?: number } {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') return sized(le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff);
  if (chunk === 'VP8X') return sized(le24(b, 24) + 1, le24(b, 27) + 1);
  if (chunk !== 'VP8L') return {};
  const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
  return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
}

/** Kinds a user may well attach that no model takes, by their magic bytes. */
function otherKind(b: Uint8Array): string | undefined {
  if (startsWith(b, [0x42, 0x4d])) return 'BMP';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'TIFF';
  if (startsWith(b, [0x00, 0x00, 0x01, 0x00])) return 'ICO';
  if (ascii(b, 0, 5) === '%PDF-') return 'PDF';
  if (ascii(b, 4, 4) === 'ftyp') {
    const brand = ascii(b, 8, 4);
    if (brand.startsWith('avi')) return 'AVIF';
    if (/^(hei|hev|mif1|msf1)/.test(brand)) return 'HEIC';
  }
  const text = ascii(b, 0, 256).trimStart().toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'SVG';
  return undefined;
}

export function imageHeader(base64: string): ImageHeader {
  const b = decodeBase64Prefix(base64, HEADER_BYTES);
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mimeType: 'image/png', ...sized(be32(b, 16), be32(b, 20)) };
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { kind: 'image', mimeType: 'image/jpeg', ...jpegSize(b) };
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return { kind: 'image', mimeType: 'image/gif', ...sized(le16(b, 6), le16(b, 8)) };
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return { kind: 'image', mimeType: 'image/webp', ...webpSize(b) };
  const other = otherKind(b);
  return other === undefined ? { kind: 'unknown' } : { kind: 'other', name: other };
}
