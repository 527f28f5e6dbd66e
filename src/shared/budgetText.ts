/**
 * The one place the `_Stop` budget is put into words, for every surface that shows it: the chat's
 * toolbar (webview), the Hooks view's budget row and the status bar. The budget itself travels as
 * structured data (`Budget` in the protocol); each surface picks its wording from here.
 */
import type { Budget } from './protocol';

export interface BudgetText {
  /** Chat toolbar: the whole budget on one line ('' before the first prompt). */
  line: string;
  /** Status bar: as short as it gets, and a sentence for its tooltip ('' before the first prompt). */
  short: string;
  sentence: string;
  /** Hooks view row: label, description and tooltip. */
  label: string;
  detail: string;
  tooltip: string;
  /** Every objection round is used (and `_Stop` is on). */
  spent: boolean;
}

export function budgetText(budget: Budget | null | undefined): BudgetText {
  if (!budget) return { line: '', short: '_Stop –', sentence: '', label: '_Stop budget: no run yet', detail: '', tooltip: '', spent: false };
  const { used, max, scope, repeatedEndTurnStops } = budget;
  const off = max === 0;
  return {
    line: off ? '_Stop disabled' : `_Stop budget ${used}/${max} (${scope}${repeatedEndTurnStops ? ', repeated end-turn stops' : ''})`,
    short: off ? '_Stop off' : `_Stop ${used}/${max}`,
    sentence: `Hook budget ${used}/${max} (${scope}).`,
    label: `_Stop budget ${used}/${max}`,
    detail: `${scope} scope · repeated end-turn stops ${repeatedEndTurnStops ? 'on' : 'off'}`,
    tooltip: off ? '_Stop is disabled (sprout.hooks.stopMaxRejections = 0).' : `${used} of ${max} objection rounds used (${scope} scope).`,
    spent: !off && used >= max,
  };
}
