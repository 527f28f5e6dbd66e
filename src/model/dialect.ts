/**
 * The one place that knows how OpenAI-compatible servers differ on the request side. A dialect is a
 * small value of rules (send `stream_options`? which tool-call id policy? which provider fields go
 * back?), picked from the setting `sprout.model.compatibility` or, on `auto`, from the base URL's host,
 * and then adjusted by what the endpoint itself says: a rejection that names a rule (`stream_options`
 * refused, Mistral's id format, DeepSeek's missing `reasoning_content`, Gemini's missing
 * `thought_signature`) changes that rule for the endpoint and the request is retried once, and on an
 * unknown host the provider fields a reply carries are sent back from then on (a relay in front of
 * DeepSeek or Gemini). Reading the stream needs no dialect: every server's streaming quirks are
 * handled for all. Pure; the sources for each rule are in docs/model-servers.md.
 */
import { ConfigError } from '../agent/settings';

export const COMPATIBILITY_VALUES = ['auto', 'openai', 'azure', 'mistral', 'deepseek', 'gemini', 'ollama', 'generic'] as const;
export type Compatibility = (typeof COMPATIBILITY_VALUES)[number];
export type DialectName = Exclude<Compatibility, 'auto'>;

/** `openai`: any id up to 40 characters (longer ones are rejected); `mistral`: exactly 9 of [A-Za-z0-9]. */
export type IdPolicy = 'openai' | 'mistral';

/** Where the model's thinking goes back on an assistant message, if anywhere. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/** What the wire mapping needs. A new object whenever a rule changes, so identity can key a cache. */
export interface WireRules {
  readonly idPolicy: IdPolicy;
  /** DeepSeek thinking mode rejects tool rounds whose assistant messages lack `reasoning_content`. */
  readonly echoReasoning?: ReasoningField;
  /** Gemini 3 rejects tool calls sent back without their `extra_content` (the thought signature). */
  readonly echoProviderData: boolean;
}

export interface DialectRules extends WireRules {
  readonly name: DialectName;
  /** Ask for the usage chunk with `stream_options.include_usage` (Mistral's API refuses the field). */
  readonly streamUsage: boolean;
  /** Start sending back the provider fields replies carry (an unknown server may relay DeepSeek or Gemini). */
  readonly learnFromReplies: boolean;
}

const OPENAI: DialectRules = { name: 'openai', streamUsage: true, idPolicy: 'openai', echoProviderData: false, learnFromReplies: false };

const DIALECTS: Record<DialectName, DialectRules> = {
  openai: OPENAI,
  // Older api-versions refuse stream_options with a 400; that is learned, so newer ones keep usage.
  azure: { ...OPENAI, name: 'azure' },
  mistral: { ...OPENAI, name: 'mistral', streamUsage: false, idPolicy: 'mistral' },
  deepseek: { ...OPENAI, name: 'deepseek', echoReasoning: 'reasoning_content' },
  gemini: { ...OPENAI, name: 'gemini', echoProviderData: true },
  // Ollama's quirks are all in how it streams, which every dialect reads; the name says which server it is.
  ollama: { ...OPENAI, name: 'ollama', learnFromReplies: true },
  generic: { ...OPENAI, name: 'generic', learnFromReplies: true },
};

const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;

export function isAzureHost(hostname: string): boolean {
  return AZURE_HOST.test(hostname);
}

/** The dialect `auto` picks for a base URL: by host, then Ollama's default port; anything else is generic. */
export function detectDialect(url: URL): DialectName {
  const host = url.hostname.toLowerCase();
  if (host === 'api.openai.com') return 'openai';
  if (isAzureHost(host)) return 'azure';
  if (host === 'mistral.ai' || host.endsWith('.mistral.ai')) return 'mistral';
  if (host === 'api.deepseek.com') return 'deepseek';
  if (host === 'generativelanguage.googleapis.com' || host.endsWith('aiplatform.googleapis.com')) return 'gemini';
  if (url.port === '11434') return 'ollama';
  return 'generic';
}

export function parseCompatibility(value: string, setting = 'sprout.model.compatibility'): Compatibility {
  const v = value.trim().toLowerCase();
  if ((COMPATIBILITY_VALUES as readonly string[]).includes(v)) return v as Compatibility;
  throw new ConfigError(setting, `${setting}: expected one of ${COMPATIBILITY_VALUES.join(', ')}, got "${value}". Use "auto" unless a server is misdetected.`);
}

/** A rejected request as the adapter saw it: the HTTP status and every text the body held. */
export interface Rejection {
  status: number | undefined;
  text: string;
}

interface Adaptation {
  matches(rejection: Rejection): boolean;
  applies(rules: DialectRules): boolean;
  apply(rules: DialectRules): DialectRules;
  /** For the retry notice. */
  reason: string;
}

const refusedField = (field: RegExp) => (r: Rejection): boolean =>
  field.test(r.text) && /extra_forbidden|extra inputs are not permitted|unrecognized request argument|unknown (parameter|field)|not permitted/i.test(r.text);

/** Checked in order; the first that matches and applies wins. */
const ADAPTATIONS: readonly Adaptation[] = [
  {
    // Mistral: 422 extra_forbidden on stream_options; older Azure api-versions: 400 "Unrecognized request argument supplied: stream_options".
    matches: (r) => (r.status === 400 || r.status === 422) && /stream_options/i.test(r.text),
    applies: (rules) => rules.streamUsage,
    apply: (rules) => ({ ...rules, streamUsage: false }),
    reason: 'the endpoint does not accept stream_options; sending the request without it (usage is estimated)',
  },
  {
    matches: refusedField(/reasoning_content|"reasoning"/),
    applies: (rules) => rules.echoReasoning !== undefined,
    apply: (rules) => ({ ...rules, echoReasoning: undefined }),
    reason: 'the endpoint does not accept reasoning fields on assistant messages; sending the history without them',
  },
  {
    matches: refusedField(/extra_content/),
    applies: (rules) => rules.echoProviderData,
    apply: (rules) => ({ ...rules, echoProviderData: false }),
    reason: 'the endpoint does not accept extra_content on tool calls; sending the history without it',
  },
  {
    // "Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9."
    matches: (r) => /tool call id was .* must be a-z, A-Z, 0-9, with a length of 9/i.test(r.text),
    applies: (rules) => rules.idPolicy !== 'mistral',
    apply: (rules) => ({ ...rules, idPolicy: 'mistral' }),
    reason: 'the endpoint requires tool-call ids of 9 letters and digits (Mistral); sending them in that form',
  },
  {
    // "Missing `reasoning_content` field in the assistant message at message index 2" / "must be passed back".
    matches: (r) => /reasoning_content/i.test(r.text) && /missing|passed back/i.test(r.text),
    applies: (rules) => rules.echoReasoning !== 'reasoning_content',
    apply: (rules) => ({ ...rules, echoReasoning: 'reasoning_content' }),
    reason: 'the endpoint needs the model\'s reasoning_content back with tool rounds (DeepSeek thinking mode); sending it',
  },
  {
    // "Function call is missing a thought_signature in functionCall parts."
    matches: (r) => /thought_signature/i.test(r.text),
    applies: (rules) => !rules.echoProviderData,
    apply: (rules) => ({ ...rules, echoProviderData: true }),
    reason: 'the endpoint needs each tool call\'s thought signature back (Gemini); sending it',
  },
];

/** What one reply carried that tells an unknown server's family apart. */
export interface ReplyTraits {
  reasoningField: ReasoningField | undefined;
  hadToolCalls: boolean;
  hadProviderData: boolean;
}

/** The rules in force for one endpoint: the configured or detected dialect plus what the endpoint taught. */
export class EndpointDialect {
  private current: DialectRules;

  constructor(
    readonly compatibility: Compatibility,
    url: URL,
  ) {
    this.current = DIALECTS[compatibility === 'auto' ? detectDialect(url) : compatibility];
  }

  get rules(): DialectRules {
    return this.current;
  }

  /** Changes the rule a rejection names; returns why (for the retry notice), or undefined when none applies. */
  adaptTo(rejection: Rejection): string | undefined {
    const adaptation = ADAPTATIONS.find((a) => a.matches(rejection) && a.applies(this.current));
    if (adaptation === undefined) return undefined;
    this.current = adaptation.apply(this.current);
    return adaptation.reason;
  }

  /** On an unknown server, provider fields that came with tool calls are sent back from now on. */
  noteReply(traits: ReplyTraits): void {
    const rules = this.current;
    if (!rules.learnFromReplies || !traits.hadToolCalls) return;
    const echoReasoning = rules.echoReasoning ?? traits.reasoningField;
    const echoProviderData = rules.echoProviderData || traits.hadProviderData;
    if (echoReasoning !== rules.echoReasoning || echoProviderData !== rules.echoProviderData) {
      this.current = { ...rules, echoReasoning, echoProviderData };
    }
  }
}
