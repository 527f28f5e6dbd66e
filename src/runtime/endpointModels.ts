/**
 * The endpoint's models (`GET /models`), kept so that naming a model costs one listing, not one per
 * prompt or delegation: `EndpointModelList` holds one good listing per endpoint (its settings, compared
 * by the host), shared by calls made while it is under way; a failed listing is not kept, so the next
 * call asks again. The CLI keeps one for the run (`endpointModelCatalog`, the core's ModelCatalog of
 * src/agent/ports.ts, for a subagent whose agent file names its own model, README.md#subagents); the
 * editor one until the endpoint's settings change (src/extension/modelSources/modelRouter.ts).
 */
import type { ReachableModel } from '../agent/agentProfiles';
import type { ModelCatalog, ModelClient } from '../agent/ports';

export interface ListingModelClient extends ModelClient {
  listModels(signal?: AbortSignal): Promise<string[]>;
}

export class EndpointModelList<Endpoint> {
  private kept: { endpoint: Endpoint; ids: Promise<string[]> } | undefined;

  /** `same`: whether two endpoints' settings would list the same models. */
  constructor(private readonly same: (a: Endpoint, b: Endpoint) => boolean) {}

  /** The endpoint's model ids: the kept listing where it is this endpoint's and `fresh` is not asked, else listed now. */
  list(endpoint: Endpoint, listModels: (signal?: AbortSignal) => Promise<string[]>, options: { signal?: AbortSignal; fresh?: boolean } = {}): Promise<string[]> {
    const kept = this.kept;
    if (kept !== undefined && !options.fresh && this.same(kept.endpoint, endpoint)) return kept.ids;
    const ids = listModels(options.signal);
    const entry = { endpoint, ids };
    this.kept = entry;
    // An error is not kept: the next call lists again (unless a newer listing already took its place).
    ids.catch(() => {
      if (this.kept === entry) this.kept = undefined;
    });
    return ids;
  }
}

export function endpointModelCatalog(client: ListingModelClient): ModelCatalog {
  const listing = new EndpointModelList<ListingModelClient>((a, b) => a === b);
  return {
    list: (signal) =>
      listing.list(client, (s) => client.listModels(s), { signal }).then(
        (ids) => ids.map((id): ReachableModel => ({ id })),
        () => [],
      ),
    client: () => ({ model: client }),
  };
}
