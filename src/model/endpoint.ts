/**
 * One OpenAI-compatible endpoint as the client talks to it: the validated base URL, the SDK
 * instance (no retries of its own, no key or organisation picked up from the environment, the
 * response guard as its fetch, the api-version query), the header the key travels in, the rules in force
 * for it per model (what it taught is remembered in the adaptation memory), and whether it has
 * answered a request yet (a proxy's error page means something else before and after that).
 */
import OpenAI from 'openai';
import { ModelError } from '../agent/ports';
import type { AdaptationMemory } from './adaptationMemory';
import type { Compatibility, DialectRules } from './dialect';
import { EndpointDialect } from './endpointDialect';
import { guardedFetch } from './responseGuard';

export interface EndpointOptions {
  baseUrl: string;
  apiKey?: string;
  compatibility?: Compatibility;
  requestTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  memory: AdaptationMemory;
}

export interface Endpoint {
  sdk: OpenAI;
  baseUrl: string;
  dialect: EndpointDialect;
  /** Set once a request got a real answer (a stream) from this endpoint. */
  answered: boolean;
  /** The key's header for a request under these rules (none without a key). */
  keyHeaders(rules: Pick<DialectRules, 'keyHeader'>): Record<string, string>;
}

/**
 * `Authorization: Bearer`, or for Azure (and gateways in front of it) `api-key`: Azure reads a Bearer
 * header as an Entra token, so the key goes only in the one header the endpoint takes.
 */
function keyHeadersFor(key: string | undefined): Endpoint['keyHeaders'] {
  return (rules): Record<string, string> => {
    if (key === undefined) return {};
    return rules.keyHeader === 'api-key' ? { 'api-key': key } : { Authorization: `Bearer ${key}` };
  };
}

/** Built lazily by the client so a bad base URL surfaces as a ModelError from the call, not from construction. */
export function createEndpoint(options: EndpointOptions): Endpoint | ModelError {
  const baseUrl = options.baseUrl;
  if (!baseUrl) return new ModelError('config', 'No model base URL is configured. Set the base URL of an OpenAI-compatible endpoint (for example https://api.openai.com/v1).');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return new ModelError('config', `The model base URL "${baseUrl}" is not a valid URL. Use something like http://127.0.0.1:11434/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new ModelError('config', `The model base URL "${baseUrl}" must use http or https.`);
  }
  // The SDK appends paths to the base URL as text, so a query (Azure's api-version) must travel separately.
  const defaultQuery = Object.fromEntries(url.searchParams);
  const root = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const key = options.apiKey?.trim() || undefined;
  const compatibility = options.compatibility ?? 'auto';
  // The key goes per request, in the header the rules name (keyHeaders); the SDK's own Bearer header stays off.
  const headers: Record<string, string | null> = { ...options.defaultHeaders, Authorization: null };
  const sdk = new OpenAI({
    baseURL: root,
    apiKey: key ?? 'sprout-no-api-key',
    // Explicit nulls so nothing is picked up from the environment behind the user's back.
    adminAPIKey: null,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: options.requestTimeoutMs,
    defaultHeaders: headers,
    fetch: guardedFetch(),
    ...(Object.keys(defaultQuery).length > 0 ? { defaultQuery } : {}),
    logLevel: 'off',
  });
  return { sdk, baseUrl: root, dialect: new EndpointDialect(compatibility, url, options.memory, `${root}${url.search}`), answered: false, keyHeaders: keyHeadersFor(key) };
}
