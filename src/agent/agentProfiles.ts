/**
 * Custom agents as data the core reads (CONTRIBUTING.md#where-the-next-capabilities-live): an agent is
 * a name, a description, its instructions (the body of its file), an optional tool filter and an
 * optional model. The hosts find and read the files (`.github/agents/*.agent.md`, `.claude/agents/*.md`
 * and their user-level folders: src/customizations/); the chat's chosen agent reaches the core in
 * `PromptOptions.agent` and shapes each round in roundRequest.ts, and a subagent session runs with the
 * profile it was delegated to. Pure: no I/O.
 */
import type { ToolInfo } from './messages';

/** A VS Code handoff: a button after a turn that moves the conversation to another agent. */
export interface AgentHandoff {
  label: string;
  /** The agent it hands off to, by name. */
  agent: string;
  /** The prompt the button puts in the box (or sends, with `send`). */
  prompt?: string;
  send?: boolean;
}

export interface AgentProfile {
  /** As the user picks it and the model names it in a delegation. */
  name: string;
  description: string;
  /** Where it was read from (a file path), or `built-in`: for notes and the picker. */
  source: string;
  /** Its file's body: added to the system text while the agent works. */
  instructions: string;
  /**
   * Tool selectors in Sprout's names, already mapped from the file's own names by the host: a server
   * (`workspace`), a tool of a server (`workspace/read_file` or `workspace__read_file`) or a bare tool
   * name on any server (`read_file`). Absent: every tool the chat offers. Empty: none.
   */
  tools?: readonly string[];
  /** The model its file names, as written; the host resolves it (or says once that it cannot). */
  model?: string;
  handoffs?: readonly AgentHandoff[];
  /** What the host could not use of its file (a tool it has no equivalent for, a field not applied), each naming file and line: said once when the agent is chosen. */
  notes?: readonly string[];
}

/** Whether `selector` (see AgentProfile.tools) names `tool`. */
export function selectorMatches(selector: string, tool: Pick<ToolInfo, 'server' | 'bareName' | 'qualifiedName'>): boolean {
  const slash = selector.indexOf('/');
  if (slash >= 0) return selector.slice(0, slash) === tool.server && selector.slice(slash + 1) === tool.bareName;
  return selector === tool.server || selector === tool.qualifiedName || selector === tool.bareName;
}

/** Whether the agent lets the model be offered and call `tool` (every tool without a filter). Hooks are not the agent's to filter. */
export function agentAllows(agent: AgentProfile | undefined, tool: ToolInfo): boolean {
  if (agent?.tools === undefined || tool.isHook) return true;
  return agent.tools.some((s) => selectorMatches(s, tool));
}

/** The tools the agent leaves. */
export function agentTools(agent: AgentProfile | undefined, tools: readonly ToolInfo[]): ToolInfo[] {
  return agent?.tools === undefined ? [...tools] : tools.filter((t) => agentAllows(agent, t));
}

/** The agent's selectors that name no tool the servers list: said once, the rest still used. */
export function unknownSelectors(agent: AgentProfile, tools: readonly ToolInfo[]): string[] {
  return (agent.tools ?? []).filter((s) => !tools.some((t) => !t.isHook && selectorMatches(s, t)));
}

/**
 * What is said once when a chat works as `agent`: its file's notes, and its selectors that name no
 * tool the servers list (the rest of its tools still work).
 */
export function agentNotes(agent: AgentProfile, tools: readonly ToolInfo[]): string[] {
  const unknown = unknownSelectors(agent, tools);
  const said = unknown.length === 0 ? [] : [`${agent.source}: the agent "${agent.name}" names tool${unknown.length === 1 ? '' : 's'} no server lists (${unknown.join(', ')}); its other tools are offered.`];
  return [...(agent.notes ?? []), ...said];
}

/** Claude Code's model aliases (`model: haiku`): the first of that family the host lists. */
const CLAUDE_ALIASES = ['haiku', 'sonnet', 'opus'];

/** A model the host can reach: its id and the name a user reads. */
export interface ReachableModel {
  id: string;
  name?: string;
}

/**
 * The model a chat working as `agent` uses: the one its file names, when the host can reach it (by id or
 * name in any case, VS Code's "Name (vendor)" without the vendor, or a Claude alias such as `haiku` that
 * a reachable model's id or name contains), else the chat's own, with a note saying so.
 */
export function agentModel(agent: AgentProfile, reachable: readonly ReachableModel[], chatModel: string): { model: string; note?: string } {
  const wanted = agent.model?.trim();
  if (wanted === undefined || wanted === '') return { model: chatModel };
  const lower = wanted.toLowerCase();
  const bare = lower.replace(/\s*\([^)]*\)\s*$/, '');
  const names = (m: ReachableModel): string[] => [m.id.toLowerCase(), ...(m.name === undefined ? [] : [m.name.toLowerCase()])];
  const found =
    reachable.find((m) => names(m).includes(lower)) ??
    reachable.find((m) => names(m).includes(bare)) ??
    (CLAUDE_ALIASES.includes(bare) ? reachable.find((m) => names(m).some((n) => n.split(/[^a-z0-9.]+/).includes(bare))) : undefined);
  if (found !== undefined) return { model: found.id };
  return { model: chatModel, note: `${agent.source}: the agent "${agent.name}" asks for the model "${wanted}", which Sprout cannot reach here; it uses the chat's model (${chatModel}).` };
}

/** What the agent adds to the system text. */
export function agentSystemText(agent: AgentProfile | undefined): string {
  if (agent === undefined || agent.instructions.trim() === '') return '';
  return `You are working as the agent "${agent.name}". Its instructions:\n\n${agent.instructions.trim()}`;
}

/** The error result of a call the agent's tool filter forbids (the tool did not run). */
export function agentRefusal(agent: AgentProfile, toolName: string): string {
  return `Error: ${toolName} was not run: the agent "${agent.name}" may use only its own tools (${(agent.tools ?? []).join(', ') || 'none'}).`;
}

/**
 * The agent a `delegate` call gets when no custom agent is named: the chat's tools, no instructions
 * of its own.
 */
export const GENERIC_AGENT: AgentProfile = {
  name: 'general',
  description: 'A general-purpose agent with the chat\'s tools, for a self-contained task.',
  source: 'built-in',
  instructions: '',
};
