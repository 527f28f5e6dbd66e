/**
 * Hooks in plain words, for every surface that names one (the chat's cards, footer and notes, the Hooks
 * view, the status bar, the CLI's diagnostics): a newcomer reads "Completion check by tests", never
 * `_Stop`; the raw tool name stays in a card's details. Each hook's words are one row of one table (its
 * name, what its quiet answer meant, what its failure changes), so a new hook is one line and the chat
 * and the CLI can never word the same event two ways.
 */
import type { ObjectionOutcome } from './protocol';

interface HookWords {
  label: string;
  /** What an empty answer meant. */
  quiet: string;
  /** What a call that failed or timed out changes: nothing (hooks are advisory), said for what the hook does. */
  noEffect: string;
}

const ADDS_NOTHING = { quiet: 'nothing to add', noEffect: 'so it adds nothing' };

const HOOK_WORDS: Record<string, HookWords> = {
  _Stop: { label: 'Completion check', quiet: 'no objection', noEffect: 'so it counts as no objection' },
  _SubagentStop: { label: 'Subagent completion check', quiet: 'no objection', noEffect: 'so it counts as no objection' },
  _PostCompact: { label: 'Compaction note', ...ADDS_NOTHING },
  _SessionStart: { label: 'Session start check', ...ADDS_NOTHING },
  _UserPromptSubmit: { label: 'Prompt check', ...ADDS_NOTHING },
  _PreToolUse: { label: 'Tool check', quiet: 'allowed the call', noEffect: 'so it does not block the tool call' },
  _PostToolUse: { label: 'After-tool check', ...ADDS_NOTHING },
  _SessionEnd: { label: 'Session end hook', quiet: ADDS_NOTHING.quiet, noEffect: 'which changes nothing' },
};

function wordsOf(hook: string): HookWords {
  return HOOK_WORDS[hook] ?? { label: hook.replace(/^_+/, ''), ...ADDS_NOTHING };
}

/** What an empty answer of `hook` meant: a gate did not object, a tool check let the call run, the others had nothing to add. */
export function quietAnswerText(hook: string): string {
  return wordsOf(hook).quiet;
}

/** "Completion check" for `_Stop`; an unknown hook by its name without the underscore. */
export function hookLabel(hook: string): string {
  return wordsOf(hook).label;
}

/** "Completion check by tests"; with `raw` (for readers of the contract, the CLI's) "Completion check (_Stop) by tests". */
export function hookBy(hook: string, server: string, raw = false): string {
  return `${hookLabel(hook)}${raw ? ` (${hook})` : ''} by ${server}`;
}

/** "Tool check by guard took too long (1 of 2 in a row stops the server), so it does not block the tool call." */
export function hookTimedOutText(hook: string, server: string, consecutive: number, killAfter: number, raw = false): string {
  return `${hookBy(hook, server, raw)} took too long (${consecutive} of ${killAfter} in a row stops the server), ${wordsOf(hook).noEffect}.`;
}

/** "Completion check by tests failed, so it counts as no objection: <what it said>" */
export function hookFailedText(hook: string, server: string, detail: string, raw = false): string {
  return `${hookBy(hook, server, raw)} failed, ${wordsOf(hook).noEffect}: ${detail}`;
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
