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
import { type Mode, modeSystemText, modeTools } from './modes';

export interface RoundRequest {
  /** The system message's text (a model in VS Code gets it as the first user text). */
  system: string;
  /** Tools the model is offered this round: never a hook. */
  specs: ToolSpec[];
}

/** Tools the model sees: every non-hook tool, hooks never (enabled or not). */
export function toolSpecs(tools: readonly ToolInfo[]): ToolSpec[] {
  return tools.filter((t) => !t.isHook).map((t) => ({ name: t.qualifiedName, description: t.description, parameters: t.inputSchema }));
}

/** `text` after `system`, a blank line between (nothing added for empty text). */
function withSystemText(system: string, text: string): string {
  return text === '' ? system : `${system}\n\n${text}`;
}

/** The request parts of the next round, given every tool the servers list (hooks included) and the prompt's mode (modes.ts). */
export function roundRequest(ctx: Pick<CoreContext, 'settings'>, tools: readonly ToolInfo[], mode: Mode = 'agent'): RoundRequest {
  return { system: withSystemText(ctx.settings().systemPrompt, modeSystemText(mode)), specs: toolSpecs(modeTools(mode, tools)) };
}
