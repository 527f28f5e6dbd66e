/**
 * The request transformations an endpoint can teach, by name. Each changes one rule of the dialect
 * (dialect.ts) and says in one line what changed, for the note the user sees once. The names are
 * what is remembered per endpoint and model (adaptationMemory.ts), so they stay stable across
 * versions; a remembered name this version does not know is ignored. Which rejection teaches which
 * transformation is rejectionSignatures.ts; a reply can teach the provider fields (`fromReply`). Pure.
 */
import type { DialectRules, ReasoningField } from './dialect';

export const ADAPTATION_IDS = [
  'no-stream-options',
  'mistral-tool-call-ids',
  'send-reasoning-content',
  'send-reasoning',
  'no-reasoning-field',
  'send-thought-signatures',
  'no-extra-content',
  'instructions-as-user',
  'merge-consecutive-turns',
  'tool-turn-empty-string',
  'tool-turn-null',
  'reduced-tool-schemas',
  'key-in-api-key-header',
  'no-images',
] as const;
export type AdaptationId = (typeof ADAPTATION_IDS)[number];

export interface Adaptation {
  /** Whether the rules do not follow it yet (a transformation is never applied twice). */
  applies(rules: DialectRules): boolean;
  apply(rules: DialectRules): DialectRules;
  /** What changed, in words, for the note and the `model_adapted` event. */
  change: string;
}

const echo = (field: ReasoningField, who: string): Adaptation => ({
  applies: (r) => r.echoReasoning !== field,
  apply: (r) => ({ ...r, echoReasoning: field }),
  change: `sending the model's ${field} back with tool rounds (${who})`,
});

export const ADAPTATIONS: Record<AdaptationId, Adaptation> = {
  'no-stream-options': {
    applies: (r) => r.streamUsage,
    apply: (r) => ({ ...r, streamUsage: false }),
    change: 'sending requests without stream_options (usage is estimated)',
  },
  'mistral-tool-call-ids': {
    applies: (r) => r.idPolicy !== 'mistral',
    apply: (r) => ({ ...r, idPolicy: 'mistral' }),
    change: 'sending tool-call ids as 9 letters and digits (Mistral)',
  },
  'send-reasoning-content': echo('reasoning_content', 'DeepSeek and Kimi thinking modes'),
  'send-reasoning': echo('reasoning', 'a relay that streams it'),
  'no-reasoning-field': {
    applies: (r) => r.echoReasoning !== undefined,
    apply: (r) => ({ ...r, echoReasoning: undefined }),
    change: 'sending the history without reasoning fields on assistant messages',
  },
  'send-thought-signatures': {
    applies: (r) => !r.echoProviderData,
    apply: (r) => ({ ...r, echoProviderData: true }),
    change: "sending each tool call's thought signature back (Gemini)",
  },
  'no-extra-content': {
    applies: (r) => r.echoProviderData,
    apply: (r) => ({ ...r, echoProviderData: false }),
    change: 'sending the history without extra_content on tool calls',
  },
  'instructions-as-user': {
    applies: (r) => r.instructions !== 'first_user',
    apply: (r) => ({ ...r, instructions: 'first_user' }),
    change: "sending Sprout's instructions as the start of the first user message (the chat template has no system role)",
  },
  'merge-consecutive-turns': {
    applies: (r) => r.mergeTurns !== true,
    apply: (r) => ({ ...r, mergeTurns: true }),
    change: "merging consecutive messages of one role (an answer and the call after it) into one, so user and assistant turns alternate as the endpoint's chat template requires",
  },
  'tool-turn-empty-string': {
    applies: (r) => r.toolTurnContent !== 'empty',
    apply: (r) => ({ ...r, toolTurnContent: 'empty' }),
    change: 'sending "" instead of null as the content of assistant turns that only call tools',
  },
  'tool-turn-null': {
    applies: (r) => r.toolTurnContent !== 'null',
    apply: (r) => ({ ...r, toolTurnContent: 'null' }),
    change: 'sending null instead of "" as the content of assistant turns that only call tools',
  },
  'reduced-tool-schemas': {
    applies: (r) => r.toolSchemas !== 'reduced',
    apply: (r) => ({ ...r, toolSchemas: 'reduced' }),
    change: 'sending tool parameter schemas reduced to plain types, properties and enums (no $schema, $ref, additionalProperties, format, ...)',
  },
  // The key was not refused but missing where the gateway looks: it goes to the same origin, in Azure's header.
  'key-in-api-key-header': {
    applies: (r) => r.keyHeader !== 'api-key',
    apply: (r) => ({ ...r, keyHeader: 'api-key' }),
    change: 'sending the API key in the api-key header, as Azure and its API Management gateways take it',
  },
  // The model reads text only: each image becomes a line saying it was not sent (wireImages.ts).
  'no-images': {
    applies: (r) => r.images !== 'note',
    apply: (r) => ({ ...r, images: 'note' }),
    change: 'sending images as a note in the text (this model does not take images)',
  },
};

/**
 * What keeps a lesson from being undone back and forth: a field the endpoint refused is never sent
 * again (whatever a later reply or rejection seems to ask), and `""` and null for a tool-only turn
 * are each learned at most once. A refusal itself is always learned: the endpoint's word wins.
 */
const BLOCKED_BY: Partial<Record<AdaptationId, readonly AdaptationId[]>> = {
  'send-reasoning-content': ['no-reasoning-field'],
  'send-reasoning': ['no-reasoning-field'],
  'send-thought-signatures': ['no-extra-content'],
  'tool-turn-empty-string': ['tool-turn-null'],
  'tool-turn-null': ['tool-turn-empty-string'],
};

/** Whether `id` would undo something the endpoint already taught. */
export function undoesLearned(id: AdaptationId, learned: readonly AdaptationId[]): boolean {
  return (BLOCKED_BY[id] ?? []).some((other) => learned.includes(other));
}

export function isAdaptationId(value: unknown): value is AdaptationId {
  return typeof value === 'string' && (ADAPTATION_IDS as readonly string[]).includes(value);
}

/** The rules with each adaptation of `ids` applied in order (one that no longer applies changes nothing). */
export function applyAdaptations(rules: DialectRules, ids: readonly AdaptationId[]): DialectRules {
  return ids.reduce((current, id) => (ADAPTATIONS[id].applies(current) ? ADAPTATIONS[id].apply(current) : current), rules);
}

/** What one reply carried that tells an unknown server's family apart. */
export interface ReplyTraits {
  reasoningField: ReasoningField | undefined;
  hadToolCalls: boolean;
  hadProviderData: boolean;
}

/** On a server that learns from replies: provider fields that came with tool calls are sent back from then on. */
export function fromReply(rules: DialectRules, traits: ReplyTraits): AdaptationId[] {
  if (!rules.learnFromReplies || !traits.hadToolCalls) return [];
  const ids: AdaptationId[] = [];
  if (rules.echoReasoning === undefined && traits.reasoningField !== undefined) ids.push(traits.reasoningField === 'reasoning' ? 'send-reasoning' : 'send-reasoning-content');
  if (!rules.echoProviderData && traits.hadProviderData) ids.push('send-thought-signatures');
  return ids;
}
