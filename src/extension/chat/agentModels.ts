/**
 * The model a picked custom agent runs on in the editor (its file's `model`, README.md#custom-agents):
 * the core matches the name against the models Sprout can reach (`agentModel` in
 * src/agent/agentProfiles.ts), listed here from both sources (the endpoint's models and VS Code's
 * language models, the one in use first). A match runs the prompt on that model, routed to its own
 * source; else the chat's model stays and the agent's note says so (once: the core says an agent's
 * notes when they change).
 */
import { agentModel } from '../../agent/agentProfiles';
import type { PromptOptions } from '../../agent/promptAttachments';
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
