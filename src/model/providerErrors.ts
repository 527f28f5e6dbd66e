/**
 * What an error body says, whatever shape the server gave it: OpenAI's `{error: {message}}`,
 * Mistral's `{object: "error", message}` (whose message may itself be a pydantic `{detail: [...]}`),
 * Gemini's array `[{error: {code, message, status}}]`, FastAPI's `{detail}`, plain text, or an HTML
 * page (a wrong URL, a proxy's login page). The result is the provider's own message, trimmed, plus
 * a status when the body names one (for relays that answer HTTP 200 with an error). Pure.
 */

export type BodyKind = 'json' | 'html' | 'text' | 'empty';

export interface ProviderBody {
  kind: BodyKind;
  /** The provider's message, whitespace collapsed and capped; a description for HTML and empty bodies. */
  message: string;
  /** An HTTP status the body itself names (`code: 429`, `status: "UNAVAILABLE"`), if any. */
  status?: number;
  type?: string;
  code?: string;
  /** The start of the body, for recognising a rejection of one request field. */
  raw: string;
}

const MESSAGE_MAX = 400;
const RAW_MAX = 2000;

/** Google's status names (Gemini, Vertex) as HTTP statuses. */
const GOOGLE_STATUS: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

export function trimMessage(text: string, max = MESSAGE_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A pydantic/FastAPI detail entry: `{loc: ["body", "stream_options"], msg: "Extra inputs are not permitted"}`. */
function detailText(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (!isObject(entry) || typeof entry.msg !== 'string') return undefined;
  const loc = Array.isArray(entry.loc) ? entry.loc.map(String).join('.') : '';
  return loc === '' ? entry.msg : `${loc}: ${entry.msg}`;
}

function messageOf(value: unknown, depth = 0): string | undefined {
  if (depth > 4) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (Array.isArray(value)) {
    const parts = value.slice(0, 3).map((v) => detailText(v) ?? messageOf(v, depth + 1)).filter((m): m is string => m !== undefined);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
  if (!isObject(value)) return undefined;
  for (const key of ['error', 'message', 'detail', 'error_description', 'msg']) {
    if (key in value) {
      const found = messageOf(value[key], depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The object that holds the message: `body.error`, `body[0].error`, or the body itself. */
function errorObject(body: unknown): Json | undefined {
  const first = Array.isArray(body) ? (body[0] as unknown) : body;
  if (!isObject(first)) return undefined;
  return isObject(first.error) ? first.error : first;
}

function statusOf(error: Json | undefined): number | undefined {
  if (error === undefined) return undefined;
  for (const value of [error.code, error.status]) {
    if (typeof value === 'number' && value >= 400 && value <= 599) return value;
    if (typeof value === 'string' && /^\d{3}$/.test(value) && Number(value) >= 400) return Number(value);
    if (typeof value === 'string' && value in GOOGLE_STATUS) return GOOGLE_STATUS[value];
  }
  return undefined;
}

function htmlMessage(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(text)?.[1];
  const decoded = title?.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').trim();
  return decoded ? `an HTML page ("${trimMessage(decoded, 120)}")` : 'an HTML page';
}

function looksLikeHtml(text: string, contentType: string): boolean {
  return /text\/html/i.test(contentType) || /^\s*(<!doctype html|<html|<head|<body)/i.test(text);
}

export function describeBody(text: string, contentType: string | null = null): ProviderBody {
  const raw = text.slice(0, RAW_MAX);
  if (text.trim() === '') return { kind: 'empty', message: 'an empty body', raw };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (looksLikeHtml(text, contentType ?? '')) return { kind: 'html', message: htmlMessage(text), raw };
    return { kind: 'text', message: trimMessage(text), raw };
  }
  const error = errorObject(parsed);
  const message = messageOf(parsed);
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const code = typeof error?.code === 'string' || typeof error?.code === 'number' ? String(error.code) : undefined;
  const status = statusOf(error);
  return {
    kind: 'json',
    message: message === undefined ? trimMessage(text) : trimMessage(message),
    raw,
    ...(status === undefined ? {} : { status }),
    ...(type === undefined ? {} : { type }),
    ...(code === undefined ? {} : { code }),
  };
}

/** Whether a parsed 200 body is an error rather than an answer (relays that report failures with 200). */
export function isErrorBody(body: unknown): boolean {
  const first = Array.isArray(body) ? (body[0] as unknown) : body;
  if (!isObject(first)) return false;
  if ('error' in first && first.error !== null && first.error !== undefined) return true;
  return first.object === 'error';
}

/** Whether a 404 body is about the model (wrong model name) rather than the URL (not an API route at all). */
export function isModelNotFound(body: Pick<ProviderBody, 'kind' | 'message' | 'code'>): boolean {
  if (body.kind !== 'json') return false;
  return body.code === 'model_not_found' || /\bmodels?\b/i.test(body.message);
}
