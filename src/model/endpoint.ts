/**
 * One OpenAI-compatible endpoint as the client talks to it: the validated base URL, the SDK
 * instance (no retries of its own, no key or organisation picked up from the environment, the
 * response guard as its fetch, Azure's key header and api-version query) and the dialect rules in
 * force for it, which the endpoint's own replies may adjust for the rest of the client's life.
 */
import OpenAI from 'openai';
import { ModelError } from '../agent/ports';
import { type Compatibility, EndpointDialect, isAzureHost } from './dialect';
import { guardedFetch } from './responseGuard';

export interface EndpointOptions {
  baseUrl: string;
  apiKey?: string;
  compatibility?: Compatibility;
  requestTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
}

export interface Endpoint {
  sdk: OpenAI;
  baseUrl: string;
  dialect: EndpointDialect;
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
  const azure = isAzureHost(url.hostname);
  const headers: Record<string, string | null> = { ...options.defaultHeaders };
  // The SDK insists on a key; a null header keeps the placeholder off the wire. Azure takes its key
  // in `api-key` and reads a Bearer header as an Entra token, so the key goes only there.
  if (!key || azure) headers.Authorization = null;
  if (key && azure) headers['api-key'] = key;
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
  return { sdk, baseUrl: root, dialect: new EndpointDialect(options.compatibility ?? 'auto', url) };
}
