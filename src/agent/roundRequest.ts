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

export interface RoundRequest {
  /** The system message's text (a model in VS Code gets it as the first user text). */
  system: string;
  /** Tools the model is offered this round: never a hook, never more than a request may carry (toolLimit.ts). */
  specs: ToolSpec[];
  /** Which servers' tools did not all fit, when some did not. */
  limited?: ToolsLimited;
}

/** Tools the model sees: every non-hook tool, hooks never (enabled or not). */
export function toolSpecs(tools: readonly ToolInfo[]): ToolSpec[] {
  return tools.filter((t) => !t.isHook).map((t) => ({ name: t.qualifiedName, description: t.description, parameters: t.inputSchema }));
}

/**
 * The request parts of the next round, given every tool the servers list (hooks included): every tool
 * when they fit one request, else the tool search and the tools it loaded (toolSearch.ts).
 */
export function roundRequest(ctx: Pick<CoreContext, 'settings'> & Partial<Pick<CoreContext, 'state'>>, tools: readonly ToolInfo[]): RoundRequest {
  const offered = offeredTools(tools, ctx.state?.().loadedTools ?? []);
  const specs = [...(offered.search ? [offered.search] : []), ...toolSpecs(offered.tools)];
  return { system: ctx.settings().systemPrompt, specs, ...(offered.limited === undefined ? {} : { limited: offered.limited }) };
}
