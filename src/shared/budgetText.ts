/**
 * The one place the completion-check (`_Stop`) budget is put into words, for every surface that shows
 * it: the chat's header line, the Hooks view's budget row and the status bar, all rendered from the
 * Hooks view's state. Each surface picks its wording from here. Plain words first ("2 objections left
 * in this chat"); the setting names only in tooltips.
 */
import { scopeText } from './hookText';

/** The `_Stop` budget as the core's `budget` event reports it. */
export interface Budget {
  used: number;
  max: number;
  scope: 'session' | 'prompt';
  repeatedEndTurnStops: boolean;
}

export interface BudgetText {
  /** Chat header: how many objections are left, short ('' before the first prompt). */
  line: string;
  /** Status bar: as short as it gets, and a sentence for its tooltip ('' before the first prompt). */
  short: string;
  sentence: string;
  /** Hooks view row: label, description and tooltip. */
  label: string;
  detail: string;
  /** What the budget is, for a tooltip wherever the budget shows. */
  tooltip: string;
  /** Every objection is used (and completion checks are on). */
  spent: boolean;
}

const EXPLAIN =
  'A completion check is a hook (an MCP tool named _Stop) asked before the agent ends its turn; when it objects, the agent goes back to work. ' +
  'The budget (sprout.hooks.stopMaxRejections) caps how often that can happen, so a hook can never keep the agent going forever.';

function objections(n: number): string {
  return `${n} ${n === 1 ? 'objection' : 'objections'}`;
}

export function budgetText(budget: Budget | null | undefined): BudgetText {
  if (!budget) return { line: '', short: '', sentence: '', label: 'Objections left: no prompt yet', detail: '', tooltip: EXPLAIN, spent: false };
  const { used, max, scope, repeatedEndTurnStops } = budget;
  if (max === 0) {
    const off = 'Completion checks are off (sprout.hooks.stopMaxRejections is 0).';
    return { line: 'Completion checks off', short: 'checks off', sentence: off, label: 'Completion checks off', detail: '', tooltip: off, spent: false };
  }
  const left = Math.max(0, max - used);
  const where = scopeText(scope);
  const leftText = `${left === 0 ? 'No objections' : objections(left)} left ${where}`;
  return {
    line: `${left} of ${max} left`,
    short: `${left}/${max} objections left`,
    sentence: `${leftText} (${used} of ${max} used).`,
    label: `Objections left: ${left} of ${max}`,
    detail: where,
    tooltip: `${leftText} (${used} of ${max} used${repeatedEndTurnStops ? '; the agent may finish after answering one objection by ending again' : ''}). ${EXPLAIN}`,
    spent: left === 0,
  };
}
