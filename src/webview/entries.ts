/** Builds the DOM for one chat entry. Text from the model, tools and hooks goes in as text or sanitised markdown only. */
import { progressText, type ChatEntry, type OutcomeReasonName, type UnresolvedCauseName } from '../shared/protocol';
import { el } from './dom';
import { elicitationCard, type ElicitationSend } from './elicitationCard';
import { failureList, type FailureSend } from './failureList';
import { renderMarkdown } from './markdown';

type Sent = Parameters<FailureSend>[0] | Parameters<ElicitationSend>[0] | { type: 'approve'; approvalId: string; scope: 'once' | 'chat' | 'workspace' } | { type: 'deny'; approvalId: string } | { type: 'continueAnyway' };
export type Send = (message: Sent) => void;

export { el };

function button(label: string, testid: string, onClick: () => void, cls = ''): HTMLButtonElement {
  const b = el('button', { 'data-testid': testid, class: cls }, label);
  b.addEventListener('click', onClick);
  return b;
}

function toolCard(e: Extract<ChatEntry, { kind: 'tool' }>, send: Send): HTMLElement {
  const card = el('details', { class: `card tool status-${e.status}`, 'data-testid': 'tool-card', 'data-status': e.status });
  const summary = el('summary', { 'aria-label': `Tool ${e.name}, ${e.status}` });
  summary.append(el('span', { class: 'tool-name' }, e.name), el('span', { class: 'badge' }, e.status.replace('_', ' ')));
  card.append(summary);
  const progress = e.progress !== undefined && (e.status === 'running' || e.status === 'awaiting_approval') ? progressText(e.progress) : '';
  if (progress !== '') summary.append(el('span', { class: 'progress', 'data-testid': 'tool-progress', 'aria-live': 'polite' }, progress));
  card.append(el('pre', { class: 'args' }, e.args));
  if (e.result !== undefined) card.append(el('pre', { class: 'result' }, e.result));
  if (e.status === 'awaiting_approval' && e.approvalId) {
    const id = e.approvalId;
    card.open = true;
    if (e.approvalWarning) card.append(el('div', { class: 'approval-warning', role: 'alert', 'data-testid': 'approval-warning' }, e.approvalWarning));
    const offered = e.approvalScopes ?? ['once', 'chat', 'workspace'];
    const row = el('div', { class: 'approval', role: 'group', 'aria-label': 'Approve this tool call' });
    const choices = [
      button('Allow once', 'tool-approve', () => send({ type: 'approve', approvalId: id, scope: 'once' }), 'primary'),
      offered.includes('chat') ? button('Allow for this chat', 'tool-approve-chat', () => send({ type: 'approve', approvalId: id, scope: 'chat' })) : undefined,
      offered.includes('workspace')
        ? button('Always allow in workspace', 'tool-approve-workspace', () => send({ type: 'approve', approvalId: id, scope: 'workspace' }))
        : undefined,
      button('Deny', 'tool-deny', () => send({ type: 'deny', approvalId: id }), 'danger'),
    ];
    row.append(...choices.filter((b): b is HTMLButtonElement => b !== undefined));
    card.append(row);
  }
  return card;
}

const OUTCOME_TEXT: Record<OutcomeReasonName, string> = {
  end_turn: 'Done.',
  max_rounds: 'Stopped: the maximum number of rounds was reached (sprout.agent.maxRounds).',
  cancelled: 'Cancelled.',
  error: 'Error.',
  length: 'The answer was cut off: the model hit its output limit.',
  content_filter: 'The provider filtered the answer.',
};

const UNRESOLVED_TEXT: Record<UnresolvedCauseName, string> = {
  budget_exhausted: 'The _Stop budget is spent while a hook still objects:',
  declined: 'The model ended its turn despite the hook objection:',
  max_rounds: 'The round limit came before the model could answer the hook objection:',
};

function outcomeCard(e: Extract<ChatEntry, { kind: 'outcome' }>, send: Send): HTMLElement {
  const card = el('div', { class: `card outcome reason-${e.reason}`, 'data-testid': 'turn-outcome', 'data-reason': e.reason, role: 'status' });
  // "Done." above "the hook still objects" read as a contradiction: an unresolved end says so first.
  const head = e.unresolved && e.reason === 'end_turn' ? 'Finished with a hook objection unresolved.' : OUTCOME_TEXT[e.reason];
  card.append(el('div', { class: 'head' }, head));
  if (e.message) card.append(el('div', { class: 'detail' }, e.message));
  if (e.unresolved) {
    card.append(el('div', { class: 'unresolved' }, UNRESOLVED_TEXT[e.unresolved.cause]));
    for (const o of e.unresolved.objections) card.append(el('pre', { class: 'hook-text', 'aria-label': `hook output from ${o.server}` }, `${o.server}: ${o.text}`));
    card.append(button('Continue anyway', 'continue-anyway', () => send({ type: 'continueAnyway' }), 'primary'));
  }
  return card;
}

export function renderEntry(e: ChatEntry, send: Send): HTMLElement {
  switch (e.kind) {
    case 'user':
      return el('div', { class: 'msg user', 'data-testid': 'user-message', 'aria-label': 'You' }, e.text);
    case 'assistant': {
      const node = el('div', { class: `msg assistant${e.done ? '' : ' streaming'}`, 'data-testid': 'assistant-message', 'aria-label': 'Sprout', 'aria-live': e.done ? 'off' : 'polite' });
      // A streaming answer is filled by the caller's StreamingMarkdown, which renders it in chunks.
      if (e.done) node.innerHTML = renderMarkdown(e.text);
      return node;
    }
    case 'tool':
      return toolCard(e, send);
    case 'objection': {
      const card = el('div', { class: 'card objection', 'data-testid': 'hook-objection', role: 'note' });
      card.append(el('div', { class: 'head' }, `Hook objection from ${e.server} · budget ${e.used}/${e.max}`));
      if (e.failures && e.failures.length > 0) card.append(failureList(e.failures, send));
      card.append(el('div', { class: 'label' }, 'hook output (untrusted)'), el('pre', { class: 'hook-text' }, e.text));
      return card;
    }
    case 'hookEvent':
      return el('div', { class: `hook-event level-${e.level}`, 'data-testid': 'hook-event', role: e.level === 'error' ? 'alert' : 'note' }, e.text);
    case 'compaction': {
      const card = el('details', { class: 'card compaction', 'data-testid': 'compaction-card' });
      card.append(el('summary', {}, `History compacted (${e.trigger}${e.fallback ? ', fallback: dropped oldest turns' : ''}, ${e.droppedMessages} messages)`));
      if (e.summary) card.append(el('pre', {}, e.summary));
      for (const i of e.injected) card.append(el('pre', { class: 'hook-text' }, `_PostCompact from ${i.server}: ${i.text}`));
      return card;
    }
    case 'outcome':
      return outcomeCard(e, send);
    case 'elicitation':
      return elicitationCard(e, send);
    case 'thinking': {
      // Collapsed: the model's thinking is there to look into, not to read as the answer.
      const card = el('details', { class: 'thinking', 'data-testid': 'thinking', 'data-done': String(e.done) });
      card.append(el('summary', {}, e.done ? 'Thinking' : 'Thinking…'), el('pre', { class: 'thinking-text' }, e.text));
      return card;
    }
  }
}
