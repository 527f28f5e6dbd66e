/**
 * Image bytes for tests, made here rather than kept as files: a real PNG of any size and colour (it
 * decodes in a browser and in any image library), and the first bytes of the other kinds a user may
 * attach (JPEG, GIF, WebP, BMP, SVG), enough for a reader of headers. `bigPng` pads a real PNG with a
 * private ancillary chunk to reach a size (a 50 MB screenshot) without drawing one.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG, `width` x `height`, one colour. */
export function pngImage(width: number, height: number, rgb: [number, number, number] = [220, 60, 40], padTo = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels)];
  const size = parts.reduce((n, p) => n + p.length, 0) + 12;
  if (padTo > size + 12) parts.push(chunk('prVt', Buffer.alloc(padTo - size - 12)));
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A real PNG of about `bytes` bytes. */
export function bigPng(bytes: number): Buffer {
  return pngImage(8, 8, [0, 0, 0], bytes);
}

/** A JPEG's start: SOI, an APP0 segment, then a baseline SOF0 with the size. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

export function gifHeader(width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.from([width & 255, width >> 8, height & 255, height >> 8, 0, 0, 0])]);
}

/** An extended WebP (VP8X) header. */
export function webpHeader(width: number, height: number): Buffer {
  const le24 = (n: number): number[] => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
  const vp8x = Buffer.from([...Buffer.from('VP8X', 'ascii'), 10, 0, 0, 0, 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBP', 'ascii'), vp8x]);
}

export function bmpHeader(): Buffer {
  return Buffer.concat([Buffer.from('BM', 'ascii'), Buffer.alloc(52)]);
}

export const svgText = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

export const base64 = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64');
