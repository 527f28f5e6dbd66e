/**
 * Hooks in plain words, for every surface that names one (the chat's cards and footer, the Hooks view,
 * the status bar): a newcomer reads "Completion check by tests", never `_Stop`; the raw tool name stays
 * in a card's details. One table, so a new hook (the lifecycle hooks of a later release) is one line.
 */
import type { ObjectionOutcome } from './protocol';

const HOOK_LABELS: Record<string, string> = {
  _Stop: 'Completion check',
  _PostCompact: 'Compaction note',
  _PreToolUse: 'Tool check',
  _PostToolUse: 'After-tool note',
  _SessionStart: 'Session start note',
  _UserPromptSubmit: 'Prompt note',
  _SessionEnd: 'Session end note',
};

/** "Completion check" for `_Stop`; an unknown hook by its name without the underscore. */
export function hookLabel(hook: string): string {
  return HOOK_LABELS[hook] ?? hook.replace(/^_+/, '');
}

/** "Completion check by tests" */
export function hookBy(hook: string, server: string): string {
  return `${hookLabel(hook)} by ${server}`;
}

/** What the agent did with an objection, said from the user's side. */
export const OBJECTION_OUTCOME_TEXT: Record<ObjectionOutcome, string> = {
  pending: 'The agent is working on it',
  complied: 'The agent acted on it',
  declined: 'The agent finished without acting on it',
  overridden: 'Overridden: no objections were left',
};

export function scopeText(scope: 'session' | 'prompt'): string {
  return scope === 'session' ? 'in this chat' : 'for this prompt';
}
