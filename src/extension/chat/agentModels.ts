/**
 * The model a picked custom agent runs on in the editor (its file's `model`, README.md#custom-agents):
 * the core matches the name against the models Sprout can reach (`agentModel` in
 * src/agent/agentProfiles.ts), listed here from both sources (the endpoint's models and VS Code's
 * language models, the one in use first). A match runs the prompt on that model, routed to its own
 * source; else the chat's model stays and the agent's note says so (once: the core says an agent's
 * notes when they change). A delegated agent's model (`sprout__delegate`) is matched the same way by
 * the core (subagents.ts `subagentModel`) over `routerModelCatalog`.
 */
import { agentModel } from '../../agent/agentProfiles';
import type { ModelCatalog, ModelClient } from '../../agent/ports';
import type { PromptOptions } from '../../agent/promptAttachments';
import type { ModelSource } from '../modelSources/modelSource';
import type { ModelRouter } from '../modelSources/modelRouter';

type AgentOptions = Pick<PromptOptions, 'agent' | 'agents'>;

/** The prompt's agent options (with the note when its model cannot be reached) and the model it runs on (undefined: the chat's). */
export async function agentRunModel(options: AgentOptions, router: ModelRouter): Promise<{ options: AgentOptions; model?: string }> {
  const agent = options.agent;
  if (agent === undefined || (agent.model ?? '').trim() === '') return { options };
  const reachable = await router.reachableModels();
  const picked = agentModel(agent, reachable, router.inUse()?.label ?? "the chat's model");
  if (picked.note !== undefined) return { options: { ...options, agent: { ...agent, notes: [...(agent.notes ?? []), picked.note] } } };
  const found = reachable.find((m) => m.id === picked.model);
  if (found !== undefined) router.routeModel(found.id, found.source);
  return { options, model: picked.model };
}

/**
 * Both sources' models as the core's catalog, for a subagent whose agent names its model: a model it
 * picks is routed to the source that listed it, served through `client` (the window's model calls),
 * with VS Code's own input limit as its context window.
 */
export function routerModelCatalog(router: ModelRouter, client: ModelClient): ModelCatalog {
  const sources = new Map<string, ModelSource>();
  return {
    list: async (signal) => {
      const models = await router.reachableModels(signal);
      for (const m of models) if (!sources.has(m.id)) sources.set(m.id, m.source);
      return models;
    },
    client: (model) => {
      const source = sources.get(model);
      if (source !== undefined) router.routeModel(model, source);
      return { model: client, contextWindowTokens: router.agentSettings(model).contextWindowTokens };
    },
  };
}
