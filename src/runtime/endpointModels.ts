/**
 * The endpoint's models as the core's ModelCatalog (src/agent/ports.ts), for a subagent whose agent
 * file names its own model (README.md#subagents): listed with `GET /models` once per run where the
 * endpoint offers it (an endpoint that does not list models reaches only the configured one), and
 * served by the same client, which sends each request's own model name.
 */
import type { ReachableModel } from '../agent/agentProfiles';
import type { ModelCatalog, ModelClient } from '../agent/ports';

export interface ListingModelClient extends ModelClient {
  listModels(signal?: AbortSignal): Promise<string[]>;
}

export function endpointModelCatalog(client: ListingModelClient): ModelCatalog {
  let listed: ReachableModel[] | undefined;
  return {
    list: async (signal) => {
      // A failed listing is tried again at the next delegation; a good one holds for the run.
      listed ??= await client.listModels(signal).then((ids) => ids.map((id): ReachableModel => ({ id })), () => undefined);
      return listed ?? [];
    },
    client: () => ({ model: client }),
  };
}
