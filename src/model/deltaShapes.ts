/**
 * The places and shapes in which servers put a chunk's text, thinking and usage, read for every
 * dialect without configuration (sources in docs/model-servers.md): `delta.content` as a string or
 * as an array of typed parts (Mistral's Magistral: `text` parts and `thinking` parts whose `thinking`
 * is itself a list of text parts); thinking as `reasoning_content`, `reasoning`, or OpenRouter's
 * `reasoning_details` list (read only when no plain field came, as OpenRouter sends both); usage at
 * the top level, inside the choice (Moonshot's Kimi) or inside a provider's own object at the top
 * (Groq's `x_groq.usage`), with OpenAI's field names or the
 * `input_tokens`/`output_tokens` of Anthropic-style relays. A part of a type nobody knows is skipped,
 * never shown as `[object Object]`. Pure.
 */
import type { Usage } from '../agent/messages';
import type { ReasoningField } from './dialect';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a part, of a list of parts, or of a string. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('');
  if (isObject(value) && typeof value.text === 'string') return value.text;
  return '';
}

export interface ContentPieces {
  text: string;
  thinking: string;
}

/** A `delta.content` that is a list of typed parts: answer text and thinking apart. */
export function contentParts(parts: readonly unknown[]): ContentPieces {
  let text = '';
  let thinking = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else if (!isObject(part)) continue;
    else if (part.type === 'thinking' || part.type === 'reasoning') thinking += textOf(part.thinking ?? part.reasoning ?? part.text);
    else if (part.type === 'text' || part.type === undefined) text += textOf(part.text);
  }
  return { text, thinking };
}

export interface ReasoningPiece {
  field: ReasoningField;
  text: string;
}

/** OpenRouter's `reasoning_details`: `reasoning.text` entries carry text, `reasoning.summary` a summary. */
function detailsText(details: unknown): string {
  if (!Array.isArray(details)) return '';
  return details
    .map((d) => (isObject(d) ? (typeof d.text === 'string' ? d.text : typeof d.summary === 'string' ? d.summary : '') : ''))
    .join('');
}

/** The thinking a delta carries, and the field a server would want it back in. */
export function reasoningOf(delta: Json): ReasoningPiece | undefined {
  // vLLM may send the same text under both names; reasoning_content wins.
  if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') return { field: 'reasoning_content', text: delta.reasoning_content };
  if (typeof delta.reasoning === 'string' && delta.reasoning !== '') return { field: 'reasoning', text: delta.reasoning };
  const details = detailsText(delta.reasoning_details);
  return details === '' ? undefined : { field: 'reasoning', text: details };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A usage object in OpenAI's names or an Anthropic-style relay's; undefined when it is none of them. */
export function usageFrom(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = count(value.prompt_tokens) ?? count(value.input_tokens);
  const completion = count(value.completion_tokens) ?? count(value.output_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: count(value.total_tokens) ?? promptTokens + completionTokens };
}

/** The usage a chunk carries at its top level, or in a provider's own object there (Groq's `x_groq.usage`). */
export function chunkUsage(chunk: unknown): Usage | undefined {
  if (!isObject(chunk)) return undefined;
  const top = usageFrom(chunk.usage);
  if (top !== undefined) return top;
  for (const [key, value] of Object.entries(chunk)) {
    if (key === 'choices' || !isObject(value)) continue;
    const nested = usageFrom(value.usage);
    if (nested !== undefined) return nested;
  }
  return undefined;
}
