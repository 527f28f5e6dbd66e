/**
 * What the chat shows of a subagent (docs/hooks.md#subagents): its tool calls as tool cards of their
 * own, tagged with the subagent and drawn nested under the `sprout__delegate` card, so an approval a
 * child's call needs is asked on its card like any other (the tag names the model the child ran on: its
 * agent's own, or the chat's when that could not be reached); its hook objections as notes. Each child
 * call is keyed by the delegate call's id and its own, so two children's ids never meet.
 */
import type { AgentEvent } from '../../agent/events';
import { hookLabel } from '../../shared/hookText';

type Wrapped = Extract<AgentEvent, { type: 'subagent_event' }>;

/** Which subagent made a call, and the model it ran on (absent in a transcript older than the field). */
export type SubagentTag = { id: string; name: string; model?: string };

export type SubagentStep = { event: AgentEvent; tag?: SubagentTag } | { note: string };

/** The child's event as the chat's own (a tool event under its key), a note, or undefined for what the chat does not show. */
export function subagentStep(wrapped: Wrapped): SubagentStep | undefined {
  const e = wrapped.event;
  const { id, name, callId, model } = wrapped.subagent;
  const key = (call: string): string => `${callId}/${call}`;
  switch (e.type) {
    case 'tool_started':
      return { event: { ...e, callId: key(e.callId) }, tag: { id, name, ...(model === undefined ? {} : { model }) } };
    case 'tool_finished':
    case 'tool_progress':
    case 'tool_denied':
      return { event: { ...e, callId: key(e.callId) } };
    case 'hook_objected':
      return { note: `Subagent ${name} (${id}): ${hookLabel(e.hook)} by ${e.server} objected (${e.rejectionsUsed}/${e.maxRejections}): ${e.text}` };
    case 'agent':
      // Its agent's model could not be reached (said once, subagents.ts): it runs on the chat's.
      return e.notes.length === 0 ? undefined : { note: `Subagent ${name} (${id}): ${e.notes.join(' ')}` };
    default:
      return undefined;
  }
}

/** What showing a subagent's event may do in the chat (ChatViewState gives it). */
export interface SubagentView {
  /** Folds an event as the chat's own. */
  apply(event: AgentEvent): void;
  note(level: 'warning', text: string): void;
  /** Tags the card of the call `callId` (its key) with the subagent that made it. */
  tag(callId: string, tag: SubagentTag): void;
}

/** A subagent's event in the chat: its calls as tagged cards of their own, its objections as notes. */
export function showSubagentEvent(wrapped: Wrapped, view: SubagentView): void {
  const step = subagentStep(wrapped);
  if (step === undefined) return;
  if ('note' in step) return view.note('warning', step.note);
  view.apply(step.event);
  if (step.tag && step.event.type === 'tool_started') view.tag(step.event.callId, step.tag);
}
