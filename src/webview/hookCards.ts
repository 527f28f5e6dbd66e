/**
 * What hooks say in the chat, in plain words: an objection is a card that is visibly the hook speaking
 * (who objected, its words as untrusted text, the failing tests it gave as evidence), then how many
 * objections are left and what the agent did about it. Text a hook added to the conversation (at the
 * session's start, after a prompt or a tool call) is a small collapsed card naming the hook and its
 * server, its words on expand. A turn ends in a quiet footer (the checks that
 * passed, the files it changed with Undo) unless something needs saying: an error, a cut-off answer,
 * or an objection still standing, which get a card of their own.
 */
import type { ChatEntry, HookCheck, OutcomeReasonName, UnresolvedCauseName } from '../shared/protocol';
import { OBJECTION_OUTCOME_TEXT, hookBy, hookLabel, quietAnswerText, scopeText } from '../shared/hookText';
import { failuresAreTests } from '../shared/editorServerName';
import { button, el, icon } from './dom';
import { failureList, type FailureSend } from './failureList';

export type HookSend = (message: Parameters<FailureSend>[0] | { type: 'continueAnyway' } | { type: 'undoTurn'; turn: number } | { type: 'backToGreen' }) => void;

type Objection = Extract<ChatEntry, { kind: 'objection' }>;
type OutcomeEntry = Extract<ChatEntry, { kind: 'outcome' }>;
type Injection = Extract<ChatEntry, { kind: 'injection' }>;

/** A hook's own words, as untrusted plain text. */
function hookSays(text: string): HTMLElement {
  const says = el('div', { class: 'hook-says' });
  says.append(el('div', { class: 'hook-text' }, text));
  return says;
}

/** Whose words those are, and that they are not Sprout's. */
function hookSource(hook: string, server: string): string {
  return `Hook ${hook} of the MCP server ${server}. What a hook says is the server's text, not Sprout's: it is shown as plain text and the model reads it as the hook's.`;
}

export function objectionCard(e: Objection, send: HookSend): HTMLElement {
  const hook = e.hook ?? '_Stop';
  const outcome = e.outcome ?? 'pending';
  const card = el('div', { class: `card objection outcome-${outcome}`, 'data-testid': 'hook-objection', role: 'note', 'aria-label': `${hookBy(hook, e.server)} objected` });
  const headLine = el('div', { class: 'objection-head' });
  headLine.append(icon('shield'), el('strong', { class: 'objection-who' }, hookLabel(hook)), document.createTextNode(` by ${e.server} objected`));
  card.append(headLine);
  card.append(hookSays(e.text));
  if (e.failures && e.failures.length > 0) card.append(failureList(e.failures, send, failuresAreTests(e.server)));
  const left = Math.max(0, e.max - e.used);
  const foot = el('div', { class: 'objection-foot' });
  foot.append(
    el('span', { class: `objection-outcome is-${outcome}`, 'data-testid': 'objection-outcome' }, OBJECTION_OUTCOME_TEXT[outcome]),
    el('span', { class: 'objection-budget', 'data-testid': 'objection-budget', title: `sprout.hooks.stopMaxRejections allows ${e.max}` }, `${left} of ${e.max} objections left ${scopeText(e.scope ?? 'session')}`),
  );
  card.append(foot);
  const details = el('details', { class: 'hook-details' });
  details.append(el('summary', {}, 'Details'), el('div', {}, hookSource(hook, e.server)));
  card.append(details);
  return card;
}

export function injectionCard(e: Injection): HTMLElement {
  const card = el('details', { class: 'card injection', 'data-testid': 'hook-injection', 'aria-label': `${hookBy(e.hook, e.server)} added context for the agent` });
  const summary = el('summary', {});
  const who = el('span', { class: 'injection-who' });
  // Short, so the hook's own first line (the preview) still shows in a side bar: "Prompt check by ctx: ...".
  who.append(el('strong', {}, hookLabel(e.hook)), document.createTextNode(` by ${e.server}:`));
  const first = e.text.trim().split('\n', 1)[0] ?? '';
  summary.append(icon('comment'), who, el('span', { class: 'injection-preview' }, first));
  const details = el('div', { class: 'hook-details' }, hookSource(e.hook, e.server));
  card.append(summary, hookSays(e.text), details);
  return card;
}

const OUTCOME_TEXT: Record<OutcomeReasonName, string> = {
  end_turn: 'Done.',
  max_rounds: 'Stopped: the maximum number of rounds was reached (sprout.agent.maxRounds).',
  cancelled: 'Stopped.',
  error: 'Something went wrong.',
  length: 'The answer was cut off: the model hit its output limit.',
  content_filter: 'The provider filtered the answer.',
};

const UNRESOLVED_TEXT: Record<UnresolvedCauseName, string> = {
  budget_exhausted: 'No objections were left, and a completion check still objects:',
  declined: 'The agent finished without acting on the objection:',
  max_rounds: 'The round limit came before the agent could act on the objection:',
};

function checkTitle(c: HookCheck): string {
  const calls = c.calls ?? 1;
  return `${c.server} ${c.hook}: ${quietAnswerText(c.hook)} (${calls === 1 ? '' : `${calls} calls, up to `}${c.durationMs} ms)`;
}

function checksText(e: OutcomeEntry): HTMLElement | undefined {
  if (!e.checks || e.checks.length === 0) return undefined;
  const servers = [...new Set(e.checks.map((c) => c.server))];
  const hooks = [...new Set(e.checks.map((c) => hookLabel(c.hook)))];
  const span = el('span', { class: 'footer-item', 'data-testid': 'checks-passed', title: e.checks.map(checkTitle).join('\n') });
  span.append(icon('pass'), el('span', {}, `${hooks.join(', ')} passed (${servers.join(', ')})`));
  return span;
}

const VERDICT: Record<NonNullable<OutcomeEntry['verdict']>, { text: string; icon: string; title: string }> = {
  passed: { text: 'Green', icon: 'pass-filled', title: "Every completion check (_Stop) passed at this turn's end: Back to last green returns here." },
  objected: { text: 'Not green', icon: 'circle-slash', title: 'A completion check (_Stop) objected or did not answer, or the turn did not finish: Back to last green skips this turn.' },
  none: { text: 'No checks', icon: 'circle-large-outline', title: 'No completion check (_Stop) was asked in this turn: it is not a green state.' },
};

/** The turn's verdict, on every turn's end: whether it is a green state to come back to ("No checks" hidden while no completion check exists: main.ts). */
function verdictBadge(e: OutcomeEntry): HTMLElement | undefined {
  if (e.verdict === undefined) return undefined;
  const v = VERDICT[e.verdict];
  const span = el('span', { class: `footer-item verdict verdict-${e.verdict}`, 'data-testid': 'turn-verdict', 'data-verdict': e.verdict, title: v.title });
  span.append(icon(v.icon), el('span', {}, v.text));
  return span;
}

function filesText(e: OutcomeEntry, send: HookSend): HTMLElement[] {
  if (!e.files || e.turn === undefined) return [];
  const turn = e.turn;
  const n = e.files.paths.length;
  const span = el('span', { class: 'footer-item', title: e.files.paths.join('\n') });
  span.append(icon('files'), el('span', {}, `${n} ${n === 1 ? 'file' : 'files'} changed${e.files.undone ? ', undone' : ''}`));
  if (e.files.undone) return [span];
  return [span, button({ label: "Undo this turn's file changes", text: 'Undo', testid: 'undo-turn', icon: 'discard', cls: 'link-button', onClick: () => send({ type: 'undoTurn', turn }) })];
}

export function outcomeEntry(e: OutcomeEntry, send: HookSend): HTMLElement {
  const quiet = !e.unresolved && (e.reason === 'end_turn' || e.reason === 'cancelled');
  if (quiet) {
    const footer = el('div', { class: `turn-footer reason-${e.reason}`, 'data-testid': 'turn-outcome', 'data-reason': e.reason, role: 'status' });
    if (e.reason === 'cancelled') footer.append(el('span', { class: 'footer-item' }, OUTCOME_TEXT.cancelled));
    const verdict = verdictBadge(e);
    if (verdict) footer.append(verdict);
    const checks = checksText(e);
    if (checks) footer.append(checks);
    footer.append(...filesText(e, send));
    return footer;
  }
  const card = el('div', { class: `card outcome reason-${e.reason}`, 'data-testid': 'turn-outcome', 'data-reason': e.reason, role: 'status' });
  // "Done." above "the hook still objects" read as a contradiction: an unresolved end says so first.
  const head = el('div', { class: 'head' });
  head.append(icon(e.reason === 'error' ? 'error' : 'warning'), el('span', {}, e.unresolved && e.reason === 'end_turn' ? 'Finished with an objection standing.' : OUTCOME_TEXT[e.reason]));
  card.append(head);
  if (e.message) card.append(el('div', { class: 'detail' }, e.message));
  if (e.unresolved) {
    card.append(el('div', { class: 'unresolved' }, UNRESOLVED_TEXT[e.unresolved.cause]));
    for (const o of e.unresolved.objections) card.append(el('pre', { class: 'hook-text', 'aria-label': `hook output from ${o.server}` }, `${o.server}: ${o.text}`));
    card.append(button({ label: 'Continue anyway', testid: 'continue-anyway', cls: 'primary', icon: 'debug-continue', onClick: () => send({ type: 'continueAnyway' }) }));
    // Or give up on this line of work: back to the end of the newest turn whose _Stop checks all passed.
    card.append(button({ label: 'Back to last green', testid: 'back-to-green', icon: 'history', onClick: () => send({ type: 'backToGreen' }) }));
  }
  const verdict = verdictBadge(e);
  const files = filesText(e, send);
  if (files.length > 0 || verdict) {
    const row = el('div', { class: 'turn-footer' });
    row.append(...(verdict ? [verdict] : []), ...files);
    card.append(row);
  }
  return card;
}
