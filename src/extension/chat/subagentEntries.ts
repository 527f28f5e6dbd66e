/**
 * What the chat shows of a subagent (docs/hooks.md#subagents): its tool calls as tool cards of their
 * own, tagged with the subagent and drawn nested under the `sprout__delegate` card, so an approval a
 * child's call needs is asked on its card like any other; its hook objections as notes. Each child
 * call is keyed by the delegate call's id and its own, so two children's ids never meet.
 */
import type { AgentEvent } from '../../agent/events';
import { hookLabel } from '../../shared/hookText';

type Wrapped = Extract<AgentEvent, { type: 'subagent_event' }>;

export type SubagentStep = { event: AgentEvent; tag?: { id: string; name: string } } | { note: string };

/** The child's event as the chat's own (a tool event under its key), a note, or undefined for what the chat does not show. */
export function subagentStep(wrapped: Wrapped): SubagentStep | undefined {
  const e = wrapped.event;
  const { id, name, callId } = wrapped.subagent;
  const key = (call: string): string => `${callId}/${call}`;
  switch (e.type) {
    case 'tool_started':
      return { event: { ...e, callId: key(e.callId) }, tag: { id, name } };
    case 'tool_finished':
    case 'tool_progress':
    case 'tool_denied':
      return { event: { ...e, callId: key(e.callId) } };
    case 'hook_objected':
      return { note: `Subagent ${name} (${id}): ${hookLabel(e.hook)} by ${e.server} objected (${e.rejectionsUsed}/${e.maxRejections}): ${e.text}` };
    default:
      return undefined;
  }
}
