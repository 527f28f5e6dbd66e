/**
 * Flattens an MCP `tools/call` result to the core's `{ isError, text, images }`. Text blocks are joined
 * with newlines; other blocks are described in one short line (`[image: image/png, 1234 bytes]`) so the
 * hook gate and a model without vision see that something was returned. Image blocks also travel as
 * they came, unchecked: the core checks them (imageParts.ts) and the model layer sends them to a model
 * that takes images.
 */
import type { ImagePart, ToolCallResult } from '../agent/messages';

/** The parts of a CallToolResult we read; loose because servers are untrusted and may be sloppy. */
export interface RawToolResult {
  content?: unknown;
  isError?: unknown;
  structuredContent?: unknown;
  /** Pre-2024-11 servers return `toolResult` instead of `content`. */
  toolResult?: unknown;
}

/** Decoded size of base64 data, computed without decoding it. */
export function base64DecodedBytes(data: string): number {
  const clean = data.replace(/[\s]/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function describeResource(resource: Record<string, unknown>): string {
  if (typeof resource.text === 'string') return resource.text;
  const uri = str(resource.uri, 'unknown');
  const mime = str(resource.mimeType, 'unknown type');
  return `[resource: ${uri}, ${mime}]`;
}

/** A link keeps what the model needs to use it: the URI, its name (or title) and its type. */
function describeLink(link: Record<string, unknown>): string {
  const name = typeof link.name === 'string' && link.name !== '' ? link.name : typeof link.title === 'string' ? link.title : undefined;
  const details = [name, typeof link.mimeType === 'string' ? link.mimeType : undefined].filter((part) => part !== undefined);
  return `[resource link: ${str(link.uri, 'unknown')}${details.length > 0 ? ` (${details.join(', ')})` : ''}]`;
}

export function describeBlock(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '[unknown content]';
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return str(b.text, '');
    case 'image':
    case 'audio':
      return `[${b.type}: ${str(b.mimeType, 'unknown type')}, ${base64DecodedBytes(str(b.data, ''))} bytes]`;
    case 'resource':
      return typeof b.resource === 'object' && b.resource !== null
        ? describeResource(b.resource as Record<string, unknown>)
        : '[resource]';
    case 'resource_link':
      return describeLink(b);
    default:
      return `[${typeof b.type === 'string' ? b.type : 'unknown'} content]`;
  }
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The image blocks, as they came (`name` is the core's to give). */
function imageBlocks(content: readonly unknown[]): ImagePart[] {
  return content.flatMap((block) => {
    const b = block as Record<string, unknown> | null;
    return b?.type === 'image' && typeof b.data === 'string' ? [{ mimeType: str(b.mimeType, ''), data: b.data, name: '' }] : [];
  });
}

export function flattenToolResult(result: RawToolResult): ToolCallResult {
  const isError = result.isError === true;
  const content = Array.isArray(result.content) ? result.content : [];
  const structured = typeof result.structuredContent === 'object' && result.structuredContent !== null ? { structured: result.structuredContent } : {};
  const images = imageBlocks(content);
  if (content.length > 0) return { isError, text: content.map(describeBlock).join('\n'), ...(images.length > 0 ? { images } : {}), ...structured };
  if (result.structuredContent !== undefined) return { isError, text: stringify(result.structuredContent), ...structured };
  if (result.toolResult !== undefined) return { isError, text: stringify(result.toolResult) };
  return { isError, text: '' };
}
