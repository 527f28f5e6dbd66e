/**
 * The plan card of a Plan-mode turn (README.md#modes), folded here for chatViewState.ts: after a Plan turn
 * that ended with an answer, its numbered steps become a card to edit and approve (no steps: a note
 * saying so); the next prompt closes an open card, as approved when it is the approved plan's prompt.
 * vscode-free.
 */
import type { OutcomeReason } from '../../agent/events';
import type { Mode } from '../../agent/modes';
import { NO_PLAN_STEPS, approvedPlanSteps, isApprovedPlanPrompt, planSteps } from '../../agent/planSteps';
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
  return isApprovedPlanPrompt(text) ? { ...entry, state: 'approved', steps: approvedPlanSteps(text) } : { ...entry, state: 'closed' };
}

/** What the plan fold may do to the chat's entries (ChatViewState gives it). */
export interface PlanEntries {
  readonly entries: readonly ChatEntry[];
  add(entry: ChatEntry): void;
  replace(entry: ChatEntry): void;
  note(level: 'info', text: string): void;
  id(): string;
}

/** The plan cards of a chat, folded as its turns go: a turn's mode and last answer, the card its end offers. */
export class PlanFold {
  private mode: Mode | undefined;
  private answer: string | undefined;

  constructor(private readonly view: PlanEntries) {}

  /** A new prompt (in `mode`) started: an open plan card is approved by it or closed, and the turn's answer is not known yet. */
  promptStarted(text: string, mode: Mode | undefined): void {
    this.mode = mode;
    this.answer = undefined;
    for (const entry of this.view.entries) {
      const closed = closedPlan(entry, text);
      if (closed) this.view.replace(closed);
    }
  }

  /** The model answered with `content` (the last answer with text is the plan). */
  answered(content: string | null): void {
    if (content !== null && content.trim() !== '') this.answer = content;
  }

  /** The turn ended: a Plan turn's answer becomes a card, or a note that it had no steps. */
  turnEnded(reason: OutcomeReason): void {
    const plan = planOffer(this.mode, reason, this.answer);
    if (plan !== undefined && 'steps' in plan) this.view.add({ kind: 'plan', id: this.view.id(), steps: plan.steps, state: 'open' });
    else if (plan !== undefined) this.view.note('info', plan.note);
  }
}
