/**
 * The rules in force for one endpoint, per model: its family's rules (dialect.ts) plus what this
 * endpoint and model taught, from a rejection (rejectionSignatures.ts) or a reply (adaptations.ts),
 * starting with what an earlier session remembered (adaptationMemory.ts). Every lesson is remembered
 * at once, for this endpoint and model only. The rules object changes identity whenever a rule
 * changes, so the wire cache (wireHistory.ts) can tell.
 */
import { applyAdaptations, fromReply, undoesLearned, type AdaptationId, type ReplyTraits } from './adaptations';
import type { AdaptationMemory } from './adaptationMemory';
import { dialectRules, familyOf, type Compatibility, type DialectRules } from './dialect';
import { adaptationFor, type Rejection } from './rejectionSignatures';

interface ModelDialect {
  /** Everything learned, remembered ones first. */
  learned: AdaptationId[];
  /** What was remembered from earlier sessions when this model was first used here. */
  recalled: readonly AdaptationId[];
  rules: DialectRules;
}

export class EndpointDialect {
  private readonly base: DialectRules;
  private readonly models = new Map<string, ModelDialect>();

  /** `endpoint` is the key the memory files this endpoint under (the base URL, query included). */
  constructor(
    readonly compatibility: Compatibility,
    url: URL,
    private readonly memory: AdaptationMemory,
    readonly endpoint: string,
  ) {
    this.base = dialectRules(familyOf(compatibility, url));
  }

  private of(model: string): ModelDialect {
    let dialect = this.models.get(model);
    if (dialect === undefined) {
      const recalled = this.memory.recall(this.endpoint, model);
      dialect = { learned: [...recalled], recalled, rules: applyAdaptations(this.base, recalled) };
      this.models.set(model, dialect);
    }
    return dialect;
  }

  rules(model: string): DialectRules {
    return this.of(model).rules;
  }

  /** The adaptations an earlier session taught and this one applies from its first request. */
  recalled(model: string): readonly AdaptationId[] {
    return this.of(model).recalled;
  }

  /** Learns (and remembers) the transformation a rejection asks for; undefined when it asks for none. */
  adaptTo(model: string, rejection: Rejection): AdaptationId | undefined {
    const dialect = this.of(model);
    const id = adaptationFor(rejection, dialect.rules, dialect.learned);
    if (id !== undefined) this.learn(model, dialect, [id]);
    return id;
  }

  /** On a server that learns from replies, the provider fields that came with tool calls; returns what was learned. */
  noteReply(model: string, traits: ReplyTraits): AdaptationId[] {
    const dialect = this.of(model);
    // A reply never re-teaches a field the endpoint refused.
    const ids = fromReply(dialect.rules, traits).filter((id) => !undoesLearned(id, dialect.learned));
    if (ids.length > 0) this.learn(model, dialect, ids);
    return ids;
  }

  private learn(model: string, dialect: ModelDialect, ids: readonly AdaptationId[]): void {
    dialect.learned.push(...ids);
    dialect.rules = applyAdaptations(dialect.rules, ids);
    this.memory.remember(this.endpoint, model, dialect.learned);
  }
}
