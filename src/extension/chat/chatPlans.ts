/**
 * The plan card of a Plan-mode turn (README.md#modes), folded by chatViewState.ts: after a Plan turn
 * that ended with an answer, its numbered steps become a card to edit and approve (no steps: a note
 * saying so); the next prompt closes an open card, as approved when it is the approved plan's prompt.
 * vscode-free.
 */
import type { OutcomeReason } from '../../agent/events';
import type { Mode } from '../../agent/modes';
import { NO_PLAN_STEPS, isApprovedPlanPrompt, planSteps } from '../../agent/planSteps';
import type { ChatEntry } from '../../shared/protocol';

type PlanEntry = Extract<ChatEntry, { kind: 'plan' }>;

/** What a finished turn offers: a plan's steps, a note that its answer had none, or nothing (not a Plan turn, or it did not end with an answer). */
export function planOffer(mode: Mode | undefined, reason: OutcomeReason, answer: string | undefined): { steps: string[] } | { note: string } | undefined {
  if (mode !== 'plan' || reason !== 'end_turn' || answer === undefined || answer.trim() === '') return undefined;
  const steps = planSteps(answer);
  return steps.length > 0 ? { steps } : { note: `${NO_PLAN_STEPS} The plan card is not offered.` };
}

/** An open plan card once the prompt `text` started: approved by the approved plan's prompt, else closed. Other entries unchanged (undefined). */
export function closedPlan(entry: ChatEntry, text: string): PlanEntry | undefined {
  if (entry.kind !== 'plan' || entry.state !== 'open') return undefined;
  // Approved: the steps as the user approved them (perhaps edited), read back from the prompt.
  return isApprovedPlanPrompt(text) ? { ...entry, state: 'approved', steps: planSteps(text) } : { ...entry, state: 'closed' };
}
