/**
 * The card for a server's MCP sampling request: which server asked the chat's model, the first line
 * of what it asked, the token limit (and Sprout's cap), then how it ended: the model that answered and
 * the tokens it spent, or refused, withdrawn, failed. Everything from the server is text.
 */
import type { ChatEntry } from '../shared/protocol';
import { el, icon } from './dom';

type SamplingEntry = Extract<ChatEntry, { kind: 'sampling' }>;

const STATUS: Record<SamplingEntry['status'], string> = {
  asked: 'Waiting for your answer or the model…',
  answered: 'Answered',
  refused: 'Refused: the server was told so',
  withdrawn: 'Withdrawn by the server',
  failed: 'Failed',
};

function limitText(e: SamplingEntry): string {
  if (e.maxTokens <= 0) return '';
  return e.cappedTo === undefined ? `up to ${e.maxTokens} tokens` : `up to ${e.cappedTo} tokens (asked for ${e.maxTokens}: capped)`;
}

function outcomeText(e: SamplingEntry): string {
  const parts = [STATUS[e.status]];
  if (e.model !== undefined) parts.push(`by ${e.model}`);
  if (e.tokens !== undefined) parts.push(`${e.tokens.total} tokens (${e.tokens.prompt} in, ${e.tokens.completion} out)`);
  return parts.join(' · ') + (e.note === undefined ? '' : `. ${e.note}`);
}

export function samplingCard(e: SamplingEntry): HTMLElement {
  const card = el('div', { class: `card sampling status-${e.status}`, 'data-testid': 'sampling-card', 'data-status': e.status, role: 'note' });
  const head = el('div', { class: 'sampling-head' });
  const limit = limitText(e);
  head.append(icon('sparkle'), el('span', {}, `MCP sampling: the server ${e.server} asked the chat's model${limit === '' ? '' : ` (${limit})`}`));
  card.append(head);
  if (e.prompt !== '') card.append(el('div', { class: 'sampling-prompt' }, `“${e.prompt}”`));
  card.append(el('div', { class: 'sampling-outcome', 'data-testid': 'sampling-outcome' }, outcomeText(e)));
  return card;
}
