/** Builds the DOM for one chat entry. Text from the model, tools and hooks goes in as text or sanitised markdown only. */
import type { ChatEntry } from '../shared/protocol';
import { button, el, icon } from './dom';
import { elicitationCard, type ElicitationSend } from './elicitationCard';
import { injectionCard, objectionCard, outcomeEntry, type HookSend } from './hookCards';
import { renderMarkdown } from './markdown';
import { planCard, type PlanSend } from './planCard';
import { samplingCard } from './samplingCard';
import { toolCard, type ToolSend } from './toolCard';

export type Send = (message: Parameters<HookSend>[0] | Parameters<ToolSend>[0] | Parameters<ElicitationSend>[0] | Parameters<PlanSend>[0] | { type: 'rewind'; prompt: number } | { type: 'openLocation'; file: string; entryId: string }) => void;

export { el };

const NOTE_ICON = { info: 'info', warning: 'warning', error: 'error' } as const;

function userMessage(e: Extract<ChatEntry, { kind: 'user' }>, send: Send): HTMLElement {
  const node = el('div', { class: 'msg user', 'data-testid': 'user-message', 'aria-label': 'You' });
  const prompt = e.prompt;
  // The conversation and the agent's file changes go back to before this message; its text returns to the message box.
  if (prompt !== undefined) node.append(button({ label: 'Rewind to here', testid: 'rewind', icon: 'discard', iconOnly: true, cls: 'rewind-button', onClick: () => send({ type: 'rewind', prompt }) }));
  if (e.mode !== undefined) node.append(el('span', { class: 'mode-tag', 'data-testid': 'message-mode' }, e.mode === 'ask' ? 'Ask' : 'Plan'));
  node.append(el('div', { class: 'user-text' }, e.text));
  if (e.attachments?.length) {
    const chips = el('div', { class: 'chips' });
    for (const label of e.attachments) {
      const chip = el('span', { class: 'chip', title: label });
      chip.append(icon('file'), el('span', {}, label));
      chips.append(chip);
    }
    node.append(chips);
  }
  if (e.images?.length) {
    const row = el('div', { class: 'user-images' });
    // A data URL of bytes the host checked (PNG, JPEG, GIF or WebP): the CSP allows data: images only.
    for (const image of e.images) row.append(el('img', { class: 'user-image', 'data-testid': 'message-image', src: `data:${image.mimeType};base64,${image.data}`, alt: image.name, title: image.name }));
    node.append(row);
  }
  return node;
}

export function renderEntry(e: ChatEntry, send: Send): HTMLElement {
  switch (e.kind) {
    case 'user':
      return userMessage(e, send);
    case 'assistant': {
      const node = el('div', { class: `msg assistant${e.done ? '' : ' streaming'}`, 'data-testid': 'assistant-message', 'aria-label': 'Sprout', 'aria-live': e.done ? 'off' : 'polite' });
      // A streaming answer is filled by the caller's StreamingMarkdown, which renders it in chunks.
      if (e.done) node.innerHTML = renderMarkdown(e.text);
      return node;
    }
    case 'tool':
      return toolCard(e, send);
    case 'objection':
      return objectionCard(e, send);
    case 'hookEvent': {
      const node = el('div', { class: `hook-event level-${e.level}`, 'data-testid': 'hook-event', role: e.level === 'error' ? 'alert' : 'note' });
      node.append(icon(NOTE_ICON[e.level]), el('span', {}, e.text));
      // Each file the note names opens in the editor (the host opens a user-level one only when this note lists it).
      for (const file of e.files ?? []) {
        const open = el('button', { type: 'button', class: 'link-button note-file', 'data-testid': 'note-file', title: `Open ${file}` }, file);
        open.addEventListener('click', () => send({ type: 'openLocation', file, entryId: e.id }));
        node.append(open);
      }
      return node;
    }
    case 'injection':
      return injectionCard(e);
    case 'compaction': {
      const card = el('details', { class: 'card compaction', 'data-testid': 'compaction-card' });
      const summary = el('summary', {});
      summary.append(icon('fold'), el('span', {}, `Earlier messages were summarised to make room (${e.trigger === 'auto' ? 'automatically' : 'on request'}${e.fallback ? '; the oldest turns were dropped' : ''}, ${e.droppedMessages} messages)`));
      card.append(summary);
      if (e.summary) card.append(el('pre', {}, e.summary));
      for (const i of e.injected) card.append(el('pre', { class: 'hook-text' }, `Compaction note from ${i.server}: ${i.text}`));
      return card;
    }
    case 'outcome':
      return outcomeEntry(e, send);
    case 'elicitation':
      return elicitationCard(e, send);
    case 'thinking': {
      // Collapsed: the model's thinking is there to look into, not to read as the answer.
      const card = el('details', { class: 'thinking', 'data-testid': 'thinking', 'data-done': String(e.done) });
      card.append(el('summary', {}, e.done ? 'Thinking' : 'Thinking…'), el('pre', { class: 'thinking-text' }, e.text));
      return card;
    }
    case 'plan':
      return planCard(e, send);
    case 'sampling':
      return samplingCard(e);
  }
}
