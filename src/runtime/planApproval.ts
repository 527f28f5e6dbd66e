/**
 * Approving a plan, for both hosts: the numbered steps of the session's last answer (planSteps.ts)
 * become the bundled `todo` server's list of that session, through its own `todo` tool called with the
 * session's `_meta` (sessionMeta.ts), so the list is kept where the todo `_Stop`, `_PostCompact` and
 * `_SessionStart` of that session read it, and no other session's list changes. The host then runs the next prompt in
 * Agent mode with `approvedPlanPrompt`. Nothing is written when there are no steps or no todo server.
 */
import type { ChatMessage } from '../agent/messages';
import type { ToolHost } from '../agent/ports';
import { NO_PLAN_STEPS, planSteps } from '../agent/planSteps';
import { sessionMeta } from '../agent/sessionMeta';

/** The bundled todo server and its tool (bundledServers.ts names it). */
const TODO_SERVER = 'todo';
const TODO_TOOL = 'todo';

export type PlanApproval = { ok: true; steps: string[]; todoText: string } | { ok: false; message: string };

/** The text of the last assistant message that has any (a plan is a final answer, not a tool call). */
export function lastAnswer(history: readonly ChatMessage[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const m = history[i];
    if (m?.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '') return m.content;
  }
  return undefined;
}

export async function approvePlan(sessionId: string, history: readonly ChatMessage[], tools: ToolHost, signal: AbortSignal): Promise<PlanApproval> {
  const answer = lastAnswer(history);
  if (answer === undefined) return { ok: false, message: 'There is no answer to approve yet: run a prompt in Plan mode first.' };
  return writePlan(sessionId, planSteps(answer), tools, signal);
}

/** Writes `steps` (a plan as the user approved it, perhaps edited) into session `sessionId`'s todo list. */
export async function writePlan(sessionId: string, steps: readonly string[], tools: ToolHost, signal: AbortSignal): Promise<PlanApproval> {
  if (steps.length === 0) return { ok: false, message: NO_PLAN_STEPS };
  const listed = await tools.listTools(signal);
  if (!listed.some((t) => t.server === TODO_SERVER && t.bareName === TODO_TOOL)) {
    return { ok: false, message: 'Approving a plan needs the bundled todo server, which is off: turn it on (CLI: add todo to --builtin-servers).' };
  }
  const result = await tools.callTool(TODO_SERVER, TODO_TOOL, { items: steps.map((text) => ({ text, done: false })) }, { signal, meta: sessionMeta(sessionId) });
  if (result.isError) return { ok: false, message: `The plan was not approved: ${result.text}` };
  return { ok: true, steps: [...steps], todoText: result.text };
}
