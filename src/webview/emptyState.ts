/**
 * What an empty chat shows: what Sprout does, two or three prompts to start from (a click puts one in
 * the box), and the hooks in one line with the way to turn the test-runner check on when none is.
 */
import type { HooksSummary } from '../shared/protocol';
import { button, el, icon } from './dom';

const EXAMPLES = ['Explain how this project is organised', 'Find the failing tests and fix them', 'Add a unit test for the current file'];

export function emptyState(hooks: HooksSummary | undefined, use: (prompt: string) => void, enableHook: () => void): HTMLElement {
  const box = el('div', { class: 'empty-state', 'data-testid': 'empty-state' });
  const mark = el('div', { class: 'empty-mark' });
  mark.append(icon('sparkle'));
  box.append(mark, el('h2', {}, 'Ask Sprout'), el('p', {}, 'Sprout reads, changes and tests the code in this workspace. It asks before it runs a tool that changes anything.'));
  const list = el('div', { class: 'examples', role: 'list', 'aria-label': 'Example prompts' });
  for (const prompt of EXAMPLES) {
    const item = button({ label: prompt, testid: 'example-prompt', icon: 'comment', cls: 'example', onClick: () => use(prompt) });
    item.setAttribute('role', 'listitem');
    list.append(item);
  }
  box.append(list);
  if (hooks) {
    const line = el('div', { class: `empty-hooks state-${hooks.state}`, title: hooks.tooltip, 'data-testid': 'empty-hooks' });
    line.append(icon(hooks.state === 'off' ? 'circle-slash' : 'shield'), el('span', {}, hooks.text));
    if (hooks.state === 'off') line.append(button({ label: 'Enable the test-runner check', cls: 'link-button', onClick: enableHook }));
    box.append(line);
  }
  return box;
}
