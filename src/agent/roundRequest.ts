/**
 * What one round sends besides the history: the system text and the tools offered to the model. This
 * is the one seam where per-conversation shaping happens (docs: CONTRIBUTING.md#where-the-next-capabilities-live):
 * the repository's instructions and skills add system text, a mode or a custom agent narrows the tools
 * and adds its own text, the tool picker and tool search narrow the tools further. Each of those is a
 * pure rule over data the host gave the session (PromptOptions, settings, the history); this file only
 * puts them together, so a round, compaction's budget and a subagent's round all see the same request.
 */
import type { CoreContext } from './context';
import type { ToolSpec } from './ports';
import type { ToolInfo } from './messages';
import type { ToolsLimited } from './toolLimit';
import { offeredTools } from './toolSearch';
import type { InstructionDecision } from './instructions';
import { currentInstructions } from './instructionState';
import { type Mode, modeSystemText, modeTools } from './modes';
import { type AgentProfile, agentSystemText, agentTools } from './agentProfiles';
import { readSkillSpec, skillsSystemText } from './skills';
import { type ToolSelection, selectedTools } from './toolSelection';
import { delegateSpec } from './subagents';
import { resourceToolSpecs } from './resources';

/** What a prompt chose besides its mode, for its rounds and its tool calls alike. */
export interface RoundChoice {
  /** The chat's tool picker or the CLI's `--tools` (toolSelection.ts): only narrows. */
  selection?: ToolSelection;
  /** The agents a `sprout__delegate` call may name (subagents.ts); none: the tool is not offered. */
  delegates?: readonly AgentProfile[];
  /** The chat's custom agent (agentProfiles.ts): narrows the tools and adds its instructions. */
  agent?: AgentProfile;
}

export interface RoundRequest {
  /** The system message's text (a model in VS Code gets it as the first user text). */
  system: string;
  /** Tools the model is offered this round: never a hook, never more than a request may carry (toolLimit.ts). */
  specs: ToolSpec[];
  /** Which servers' tools did not all fit, when some did not. */
  limited?: ToolsLimited;
  /** The instruction files that apply this round (their text is in `system`); undefined when the host gave none. */
  instructions?: InstructionDecision;
}

/** Tools the model sees: every non-hook tool, hooks never (enabled or not). */
export function toolSpecs(tools: readonly ToolInfo[]): ToolSpec[] {
  return tools.filter((t) => !t.isHook).map((t) => ({ name: t.qualifiedName, description: t.description, parameters: t.inputSchema }));
}

/** `text` after `system`, a blank line between (nothing added for empty text). */
function withSystemText(system: string, text: string): string {
  return text === '' ? system : `${system}\n\n${text}`;
}

/**
 * The request parts of the next round, given every tool the servers list (hooks included), the
 * prompt's mode (modes.ts) and its choices (RoundChoice: the chat's tool selection, toolSelection.ts; its
 * custom agent, agentProfiles.ts; the agents it may delegate to, subagents.ts): the tools mode,
 * selection and agent allow, all when they fit one request, else the tool search and the tools it
 * loaded (toolSearch.ts, at the `toolSearchThreshold` setting); the mode's text, then the agent's
 * instructions, and the instruction files that apply, in the system text.
 */
export function roundRequest(
  ctx: Pick<CoreContext, 'settings'> & Partial<Pick<CoreContext, 'instructions' | 'state' | 'skills' | 'tools'>>,
  tools: readonly ToolInfo[],
  mode: Mode = 'agent',
  choice: RoundChoice = {},
): RoundRequest {
  const { selection, delegates = [], agent } = choice;
  const offered = offeredTools(agentTools(agent, modeTools(mode, selectedTools(selection, tools))), ctx.state?.().loadedTools ?? [], ctx.settings().toolSearchThreshold);
  const skills = ctx.skills?.set;
  const skillTool = skills !== undefined && skills.skills.length > 0 ? [readSkillSpec(skills)] : [];
  // The agents a `sprout__delegate` call may name (subagents.ts: delegateChoices); none in a subagent.
  const delegateTool = delegates.length > 0 ? [delegateSpec(delegates)] : [];
  // Resources: offered while a connected server says it has some (resources.ts); read-only, so in every mode.
  const resourceTools = resourceToolSpecs(ctx.tools?.resources?.servers() ?? []);
  const specs = [...(offered.search ? [offered.search] : []), ...skillTool, ...resourceTools, ...delegateTool, ...toolSpecs(offered.tools)];
  const limited = offered.limited === undefined ? {} : { limited: offered.limited };
  // Skills: names and descriptions only (progressive disclosure); the body is read through the tool.
  const shaped = withSystemText(withSystemText(ctx.settings().systemPrompt, modeSystemText(mode)), agentSystemText(agent));
  const base = withSystemText(shaped, skillsSystemText(skills));
  // In the system text, not a user turn: re-sent every round, so compaction cannot summarise them away.
  const instructions = ctx.state === undefined ? undefined : currentInstructions(ctx.instructions, ctx.state().history);
  if (instructions === undefined) return { system: base, specs, ...limited };
  return { system: withSystemText(base, instructions.text), specs, ...limited, instructions };
}
