/**
 * The failing tests a hook attached to its objection, as a list in the objection card: each names
 * the test and, when the hook gave one, its `file:line` as a button that asks the host to open it;
 * the first lines of the message follow as text. "Show in Testing" asks the host to focus VS Code's
 * Testing view, where the same failures are mirrored. In a monorepo the list is grouped by package.
 * Hook data is untrusted: it goes in as text only.
 */
import type { FailureView } from '../shared/protocol';
import { el } from './dom';

export type FailureSend = (message: { type: 'openLocation'; file: string; line?: number } | { type: 'showInTesting' }) => void;

const MESSAGE_LINES = 6;

export function locationText(f: FailureView): string {
  return f.file ? `${f.file}${f.line !== undefined ? `:${f.line}` : ''}` : '';
}

function failureItem(f: FailureView, send: FailureSend): HTMLElement {
  const item = el('li', { class: 'failure', 'data-testid': 'objection-failure' });
  const where = locationText(f);
  const head = el('div', { class: 'failure-head' });
  head.append(el('span', { class: 'failure-name' }, f.name));
  if (f.file) {
    const file = f.file;
    const open = el('button', { type: 'button', class: 'link', 'data-testid': 'failure-open', title: `Open ${where}`, 'aria-label': `Open ${where}` }, where);
    open.addEventListener('click', () => send(f.line !== undefined ? { type: 'openLocation', file, line: f.line } : { type: 'openLocation', file }));
    head.append(open);
  }
  item.append(head);
  const message = f.message.split('\n').filter((l) => l.trim() !== '');
  if (message.length > 0) item.append(el('pre', { class: 'failure-message' }, message.slice(0, MESSAGE_LINES).join('\n') + (message.length > MESSAGE_LINES ? '\n…' : '')));
  return item;
}

const countLabel = (n: number): string => `${n} failing ${n === 1 ? 'test' : 'tests'}`;

/** In a monorepo (failures that name their package): one group per package, in the order they come. */
function packageGroups(failures: readonly FailureView[], send: FailureSend): HTMLElement[] | undefined {
  if (!failures.some((f) => f.package !== undefined)) return undefined;
  const groups = new Map<string, FailureView[]>();
  for (const f of failures) groups.set(f.package ?? '', [...(groups.get(f.package ?? '') ?? []), f]);
  return [...groups.entries()].map(([name, members]) => {
    const group = el('li', { class: 'failure-package', 'data-testid': 'failure-package' });
    group.append(el('div', { class: 'failure-package-name' }, name === '' ? '(no package)' : `${name} (${members.length})`));
    const list = el('ul', { 'aria-label': `${name || 'no package'}: ${countLabel(members.length)}` });
    for (const f of members) list.append(failureItem(f, send));
    group.append(list);
    return group;
  });
}

/** `tests`: the rows are failing tests (the Testing view has them); the editor's Problems are not. */
export function failureList(failures: readonly FailureView[], send: FailureSend, tests = true): HTMLElement {
  const box = el('div', { class: 'failures', 'data-testid': 'objection-failures' });
  const list = el('ul', { 'aria-label': countLabel(failures.length) });
  const grouped = packageGroups(failures, send);
  if (grouped) list.append(...grouped);
  else for (const f of failures) list.append(failureItem(f, send));
  box.append(list);
  if (!tests) return box;
  const testing = el('button', { type: 'button', 'data-testid': 'show-in-testing' }, 'Show in Testing');
  testing.addEventListener('click', () => send({ type: 'showInTesting' }));
  box.append(testing);
  return box;
}
