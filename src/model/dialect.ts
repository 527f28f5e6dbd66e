/**
 * The server families Sprout knows on the request side, as values of rules: send `stream_options`?
 * which tool-call id policy? which provider fields go back? where do the instructions go? what does
 * an assistant turn with only tool calls carry as content? full or reduced tool schemas? which header
 * carries the key (per request, endpoint.ts)? A family is picked from `sprout.model.compatibility` or, on `auto`, from the base
 * URL's host; a forced value applies its family's rules up front. What an endpoint itself teaches
 * (adaptations.ts, learned from rejections and replies) is applied on top, per endpoint and model
 * (endpointDialect.ts). Reading the stream needs no dialect. Pure; sources in docs/model-servers.md.
 */
import { ConfigError } from '../agent/settings';
import type { ToolNameRule } from './wireNames';

export const COMPATIBILITY_VALUES = ['auto', 'openai', 'azure', 'mistral', 'deepseek', 'gemini', 'ollama', 'lmstudio', 'gemma', 'generic'] as const;
export type Compatibility = (typeof COMPATIBILITY_VALUES)[number];
export type DialectName = Exclude<Compatibility, 'auto'>;

/** `openai`: any id up to 40 characters (longer ones are rejected); `mistral`: exactly 9 of [A-Za-z0-9]. */
export type IdPolicy = 'openai' | 'mistral';

/** Where the model's thinking goes back on an assistant message, if anywhere. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/** What the wire mapping needs. A new object whenever a rule changes, so identity can key a cache. */
export interface WireRules {
  readonly idPolicy: IdPolicy;
  /** DeepSeek and Kimi thinking modes reject tool rounds whose assistant messages lack `reasoning_content`. */
  readonly echoReasoning?: ReasoningField;
  /** Gemini 3 rejects tool calls sent back without their `extra_content` (the thought signature). */
  readonly echoProviderData: boolean;
  /** `system`, or folded into the first user message for chat templates without a system role (Gemma). */
  readonly instructions: 'system' | 'first_user';
  /** The content of an assistant turn that only calls tools: `null` (OpenAI's own), or `""` (Ollama, LM Studio). */
  readonly toolTurnContent: 'null' | 'empty';
  /** Tool parameter schemas as the servers wrote them, or reduced to the subset strict APIs accept (Gemini). */
  readonly toolSchemas: 'full' | 'reduced';
  /** Images as `image_url` parts, or a note in the text for a model that refused them (wireImages.ts). */
  readonly images: 'parts' | 'note';
  /** Which tool names the endpoint accepts; any other goes as an alias (wireNames.ts). */
  readonly toolNames: ToolNameRule;
  /**
   * Consecutive messages of one role merged into one (an assistant's text and the call after it, two
   * user messages), for gateways whose templates insist that user and assistant turns alternate.
   */
  readonly mergeTurns?: boolean;
}

export interface DialectRules extends WireRules {
  readonly name: DialectName;
  /** The header that carries the key: `Authorization: Bearer`, or Azure's `api-key` (gateways in front of Azure too). */
  readonly keyHeader: 'bearer' | 'api-key';
  /** Ask for the usage chunk with `stream_options.include_usage` (Mistral's API refuses the field). */
  readonly streamUsage: boolean;
  /** Start sending back the provider fields replies carry (an unknown server may relay DeepSeek or Gemini). */
  readonly learnFromReplies: boolean;
}

const OPENAI: DialectRules = {
  name: 'openai',
  streamUsage: true,
  idPolicy: 'openai',
  echoProviderData: false,
  learnFromReplies: false,
  instructions: 'system',
  toolTurnContent: 'null',
  toolSchemas: 'full',
  images: 'parts',
  toolNames: 'openai',
  keyHeader: 'bearer',
};
const GENERIC: DialectRules = { ...OPENAI, name: 'generic', learnFromReplies: true };

const DIALECTS: Record<DialectName, DialectRules> = {
  openai: OPENAI,
  // Azure reads a Bearer header as an Entra token; older api-versions' stream_options 400 is learned.
  azure: { ...OPENAI, name: 'azure', keyHeader: 'api-key' },
  mistral: { ...OPENAI, name: 'mistral', streamUsage: false, idPolicy: 'mistral' },
  deepseek: { ...OPENAI, name: 'deepseek', echoReasoning: 'reasoning_content' },
  // Gemini: "Must start with a letter or an underscore" (https://github.com/google-gemini/gemini-cli/issues/2966).
  gemini: { ...OPENAI, name: 'gemini', echoProviderData: true, toolSchemas: 'reduced', toolNames: 'letter_first' },
  ollama: { ...GENERIC, name: 'ollama', toolTurnContent: 'empty' },
  lmstudio: { ...GENERIC, name: 'lmstudio', toolTurnContent: 'empty' },
  gemma: { ...GENERIC, name: 'gemma', instructions: 'first_user' },
  generic: GENERIC,
};

export function dialectRules(name: DialectName): DialectRules {
  return DIALECTS[name];
}

/** Azure OpenAI and Azure AI Foundry hosts, and Azure API Management gateways in front of them. */
const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com|azure-api\.net)$/i;

export function isAzureHost(hostname: string): boolean {
  return AZURE_HOST.test(hostname);
}

/** The dialect `auto` picks for a base URL: by host, then Ollama's and LM Studio's default ports; anything else is generic. */
export function detectDialect(url: URL): DialectName {
  const host = url.hostname.toLowerCase();
  if (host === 'api.openai.com') return 'openai';
  if (isAzureHost(host)) return 'azure';
  if (host === 'mistral.ai' || host.endsWith('.mistral.ai')) return 'mistral';
  if (host === 'api.deepseek.com') return 'deepseek';
  if (host === 'generativelanguage.googleapis.com' || host.endsWith('aiplatform.googleapis.com')) return 'gemini';
  if (url.port === '11434') return 'ollama';
  if (url.port === '1234') return 'lmstudio';
  return 'generic';
}

/** The family whose rules an endpoint starts from: the setting's, or on `auto` the host's. */
export function familyOf(compatibility: Compatibility, url: URL): DialectName {
  return compatibility === 'auto' ? detectDialect(url) : compatibility;
}

export function parseCompatibility(value: string, setting = 'sprout.model.compatibility'): Compatibility {
  const v = value.trim().toLowerCase();
  if ((COMPATIBILITY_VALUES as readonly string[]).includes(v)) return v as Compatibility;
  throw new ConfigError(setting, `${setting}: expected one of ${COMPATIBILITY_VALUES.join(', ')}, got "${value}". Use "auto" unless a server is misdetected.`);
}
