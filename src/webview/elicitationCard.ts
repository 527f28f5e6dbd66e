/**
 * The card for a server's question (MCP form elicitation): the server's message and one input per
 * field of its form, checked with the same rules the host applies (shared/elicitationForm) before
 * Accept sends anything; Decline and Cancel send no content. Everything from the server is text.
 */
import { checkElicitationAnswer, elicitationFields, type ElicitField, type ElicitValue } from '../shared/elicitationForm';
import type { ChatEntry, ElicitationStatus } from '../shared/protocol';
import { el } from './dom';

export type ElicitationSend = (message: { type: 'elicitationAnswer'; id: string; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, ElicitValue> }) => void;

const SETTLED: Record<Exclude<ElicitationStatus, 'pending'>, string> = {
  accept: 'You answered.',
  decline: 'You declined to answer.',
  cancel: 'Cancelled.',
  withdrawn: 'The question was withdrawn (the call ended or the server gave up).',
};

type Reader = () => ElicitValue | undefined;

function inputFor(field: ElicitField): { node: HTMLElement; read: Reader } {
  switch (field.kind) {
    case 'boolean': {
      const box = el('input', { type: 'checkbox', 'data-field': field.name });
      box.checked = field.default === true;
      return { node: box, read: () => box.checked };
    }
    case 'enum': {
      const select = el('select', { 'data-field': field.name });
      if (!field.required || field.default === undefined) select.append(el('option', { value: '' }, '—'));
      for (const o of field.options) select.append(el('option', { value: o.value }, o.label));
      select.value = field.default ?? '';
      return { node: select, read: () => (select.value === '' ? undefined : select.value) };
    }
    case 'multi': {
      const group = el('div', { class: 'choices', 'data-field': field.name });
      const boxes = field.options.map((o) => {
        const box = el('input', { type: 'checkbox', value: o.value });
        box.checked = field.default?.includes(o.value) === true;
        const label = el('label');
        label.append(box, document.createTextNode(` ${o.label}`));
        group.append(label);
        return box;
      });
      return { node: group, read: () => boxes.filter((b) => b.checked).map((b) => b.value) };
    }
    case 'number': {
      const input = el('input', { type: 'number', 'data-field': field.name, ...(field.integer ? { step: '1' } : { step: 'any' }) });
      if (field.default !== undefined) input.value = String(field.default);
      return { node: input, read: () => (input.value.trim() === '' ? undefined : Number(input.value)) };
    }
    case 'string': {
      const type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text';
      const input = el('input', { type, 'data-field': field.name });
      if (field.default !== undefined) input.value = field.default;
      return { node: input, read: () => (input.value === '' ? undefined : input.value) };
    }
  }
}

export function elicitationCard(e: Extract<ChatEntry, { kind: 'elicitation' }>, send: ElicitationSend): HTMLElement {
  const card = el('div', { class: `card elicitation status-${e.status}`, 'data-testid': 'elicitation-card', 'data-status': e.status, role: 'group', 'aria-label': `Question from ${e.server}` });
  // A question waiting for the user is brought into view and read out (main.ts), like an approval.
  if (e.status === 'pending') card.dataset['attention'] = `Question from ${e.server}: ${e.message}`;
  card.append(el('div', { class: 'head' }, `${e.server} asks`), el('div', { class: 'label' }, 'server text (untrusted)'), el('div', { class: 'question' }, e.message));
  if (e.status !== 'pending') {
    card.append(el('div', { class: 'detail' }, SETTLED[e.status]));
    return card;
  }
  const form = elicitationFields(e.schema);
  const fields = 'fields' in form ? form.fields : [];
  const readers = new Map<string, Reader>();
  const errors = new Map<string, HTMLElement>();
  for (const field of fields) {
    const { node, read } = inputFor(field);
    const row = el('label', { class: 'field' });
    row.append(el('span', { class: 'field-title' }, `${field.title}${field.required ? ' *' : ''}`), node);
    if (field.description) row.append(el('span', { class: 'field-help' }, field.description));
    const error = el('span', { class: 'field-error', role: 'alert' });
    row.append(error);
    card.append(row);
    readers.set(field.name, read);
    errors.set(field.name, error);
  }
  const accept = (): void => {
    const answer: Record<string, ElicitValue> = {};
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined) answer[name] = value;
    }
    const checked = checkElicitationAnswer(fields, answer);
    for (const [name, node] of errors) node.textContent = checked.ok ? '' : (checked.errors[name] ?? '');
    if (checked.ok) send({ type: 'elicitationAnswer', id: e.requestId, action: 'accept', content: checked.content });
  };
  const row = el('div', { class: 'approval' });
  const action = (label: string, testid: string, run: () => void, cls = ''): HTMLButtonElement => {
    const b = el('button', { type: 'button', 'data-testid': testid, class: cls }, label);
    b.addEventListener('click', run);
    return b;
  };
  if ('fields' in form) row.append(action('Accept', 'elicitation-accept', accept, 'primary'));
  row.append(
    action('Decline', 'elicitation-decline', () => send({ type: 'elicitationAnswer', id: e.requestId, action: 'decline' })),
    action('Cancel', 'elicitation-cancel', () => send({ type: 'elicitationAnswer', id: e.requestId, action: 'cancel' })),
  );
  card.append(row);
  return card;
}
