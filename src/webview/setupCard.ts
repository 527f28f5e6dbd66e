/**
 * The setup card above the message box: what Sprout still needs (a key or an endpoint, a model) with
 * a button for each step, and the message the user sent before setup was done, which goes out by
 * itself once it is (or comes back into the box to edit).
 */
import type { SetupInfo } from '../shared/protocol';
import { button, el, icon } from './dom';

export type SetupAction = 'setApiKey' | 'setBaseUrl' | 'selectModel' | 'useVscodeModel';

export function fillSetupCard(card: HTMLElement, info: SetupInfo | null, act: (action: SetupAction) => void, editPending: (text: string) => void): void {
  card.hidden = info === null;
  card.replaceChildren();
  if (!info) return;
  const head = el('div', { class: 'head' });
  head.append(icon('gear'), el('span', {}, 'Set up Sprout'));
  card.append(head, el('div', { class: 'setup-reason', title: info.reason }, info.reason));
  const actions: [string, SetupAction, string][] = [];
  if (info.vscodeModels) actions.push(['Use a model already in VS Code', 'useVscodeModel', 'vscode']);
  if (info.needsKey) actions.push(['Set API Key', 'setApiKey', 'key'], ['Use a local endpoint', 'setBaseUrl', 'server-environment']);
  // With nothing configured the VS Code button already is the way to pick; the full picker would repeat it.
  if (info.needsModel && !(info.vscodeModels && info.needsKey)) actions.push(['Select Model', 'selectModel', 'symbol-class']);
  const row = el('div', { class: 'setup-actions' });
  actions.forEach(([label, action, iconName], i) => row.append(button({ label, icon: iconName, cls: i === 0 ? 'primary' : '', testid: `setup-${action}`, onClick: () => act(action) })));
  card.append(row);
  if (info.pendingPrompt !== undefined) {
    const pending = info.pendingPrompt;
    const note = el('div', { class: 'pending-prompt', 'data-testid': 'pending-prompt' });
    note.append(icon('clock'), el('span', { class: 'pending-text', title: pending }, `Your message waits and is sent once setup is done: “${pending}”`));
    note.append(button({ label: 'Edit', cls: 'link-button', testid: 'pending-edit', onClick: () => editPending(pending) }));
    card.append(note);
  }
}
