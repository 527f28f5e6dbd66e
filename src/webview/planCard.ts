/**
 * The plan card after a Plan-mode turn (README.md#modes): the answer's steps in a box the user can edit
 * (one numbered line each; model text, shown as text), and Approve, which sends them to the host: it
 * writes them into the todo list and runs the plan in Agent mode. Once the plan runs, or another prompt
 * came first, the card says so and offers nothing.
 */
import type { ChatEntry } from '../shared/protocol';
import { button, el, icon } from './dom';

export type PlanSend = (message: { type: 'approvePlan'; text: string }) => void;

const SETTLED = { approved: 'Approved: the steps are the todo list, and the agent works through them.', closed: 'Not approved (another prompt came first).' } as const;

export function planCard(e: Extract<ChatEntry, { kind: 'plan' }>, send: PlanSend): HTMLElement {
  const card = el('div', { class: `card plan plan-${e.state}`, 'data-testid': 'plan-card', role: 'group', 'aria-label': 'Plan' });
  const head = el('div', { class: 'plan-head' });
  head.append(icon('checklist'), el('strong', {}, `Plan: ${e.steps.length} step${e.steps.length === 1 ? '' : 's'}`));
  card.append(head);
  const text = e.steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
  if (e.state !== 'open') {
    card.append(el('pre', { class: 'plan-steps' }, text), el('div', { class: 'plan-state', 'data-testid': 'plan-state' }, SETTLED[e.state]));
    return card;
  }
  const box = el('textarea', { class: 'plan-edit', 'data-testid': 'plan-steps', 'aria-label': 'Plan steps (edit before approving)', rows: String(Math.min(12, e.steps.length + 1)) });
  box.value = text;
  const approve = button({ label: 'Approve plan: make these steps the todo list and carry them out in Agent mode', text: 'Approve', testid: 'approve-plan', cls: 'primary', icon: 'check', onClick: () => {
    approve.disabled = true;
    send({ type: 'approvePlan', text: box.value });
  } });
  card.append(el('div', { class: 'plan-hint' }, 'Edit the steps if you like, then approve: they become the todo list the agent is held to.'), box, approve);
  return card;
}
