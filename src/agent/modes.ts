/**
 * Modes: what a prompt may do. `agent` offers every tool (today's behaviour); `ask` offers only the
 * tools whose MCP annotations say `readOnlyHint: true` (a server's word that the tool changes nothing);
 * `plan` offers the same read-only tools and asks for a numbered plan. Pure rules over the tool list,
 * applied in roundRequest.ts (what is offered) and toolRunner.ts (what may run: a model that calls a
 * tool it was not offered gets an error and the tool does not run).
 */
import type { ToolInfo } from './messages';

export const MODES = ['agent', 'ask', 'plan'] as const;

export type Mode = (typeof MODES)[number];

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

/** The mode's name as a user reads it. */
export function modeLabel(mode: Mode): string {
  return mode === 'agent' ? 'Agent' : mode === 'ask' ? 'Ask' : 'Plan';
}

/** Whether the mode lets the model call `tool`: every tool in Agent, only `readOnlyHint: true` ones otherwise. */
export function modeAllows(mode: Mode, tool: ToolInfo): boolean {
  return mode === 'agent' || tool.annotations.readOnlyHint === true;
}

/** The tools a mode leaves (hooks are filtered out of the offer elsewhere, whatever the mode). */
export function modeTools(mode: Mode, tools: readonly ToolInfo[]): ToolInfo[] {
  return mode === 'agent' ? [...tools] : tools.filter((t) => modeAllows(mode, t));
}

const ASK_TEXT =
  'Mode: Ask. Answer the question; do not change anything. You are offered only tools that read ' +
  '(tools that write files or run commands are not available in this mode).';

const PLAN_TEXT =
  'Mode: Plan. Do not change anything yet: read what you need with the read-only tools offered, then ' +
  'answer with a plan of the work as a numbered list of steps ("1. ...", "2. ...", one line each, each ' +
  'a concrete action). The user will review the plan; once approved, the steps become your todo list ' +
  'and you will carry them out in Agent mode.';

/** What the mode adds to the system text (nothing in Agent). */
export function modeSystemText(mode: Mode): string {
  return mode === 'ask' ? ASK_TEXT : mode === 'plan' ? PLAN_TEXT : '';
}

/** The error result of a call the mode forbids (the tool did not run). */
export function modeRefusal(mode: Mode, toolName: string): string {
  return (
    `Error: ${toolName} was not run: ${modeLabel(mode)} mode allows only read-only tools (those marked readOnlyHint). ` +
    `Answer without it${mode === 'plan' ? ', or put the change in your plan as a step' : ''}.`
  );
}
