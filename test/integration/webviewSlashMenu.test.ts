// The composer's `/` menu in real headless Chromium with the real chat bundle: the host's list
// (`commands`, through the zod protocol) is offered while the box holds `/` and part of a name, with
// descriptions and argument hints; Up/Down move, Enter or Tab puts `/name ` in the box (not sent),
// Escape closes, a click picks; once the name is complete the message is sent as typed (the host expands
// it: src/extension/chat/chatCommands.ts, and through the CLI test/integration/cli/cliPrompts.test.ts).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { chatState, HOOKS_OFF, webviewPageForFile } from './webviewPage';

const state = chatState({ hooks: HOOKS_OFF });
const commands = [
  { name: 'new', description: 'Start a new chat', source: 'Sprout' },
  { name: 'compact', description: 'Summarise the conversation so far to free context', source: 'Sprout' },
  { name: 'fix-tests', description: 'Fix the failing tests of a file', argumentHint: 'FILE', source: '.github/prompts/fix-tests.prompt.md' },
  { name: 'frontend:component', description: 'Create a component', argumentHint: '[name] [folder]', source: '.claude/commands/frontend/component.md' },
];

const view = webviewPageForFile({ viewport: { width: 420, height: 640 }, first: [{ type: 'snapshot', state }, { type: 'commands', commands }] });

const input = (): ReturnType<Page['locator']> => view.page.locator('[data-testid=chat-input]');
const items = (): Promise<string[]> => view.page.locator('[data-testid=slash-item]').allTextContents();

test('typing `/` lists every command with its description; more letters narrow it (prefix first, then a name containing them)', async () => {
  await input().fill('');
  await input().pressSequentially('/');
  assert.deepEqual(await items(), [
    '/newStart a new chat',
    '/compactSummarise the conversation so far to free context',
    '/fix-tests FILEFix the failing tests of a file',
    '/frontend:component [name] [folder]Create a component',
  ]);
  await input().pressSequentially('f');
  assert.deepEqual((await items()).map((t) => t.split(' ')[0]), ['/fix-tests', '/frontend:component']);
  await input().pressSequentially('ix');
  assert.deepEqual(await items(), ['/fix-tests FILEFix the failing tests of a file']);
  assert.equal(await view.page.locator('[data-testid=slash-item]').first().getAttribute('title'), '.github/prompts/fix-tests.prompt.md');
});

test('Down then Enter inserts the second command and does not send; then the message goes as typed', async () => {
  await view.clearPosted();
  await input().fill('');
  await input().pressSequentially('/f');
  await input().press('ArrowDown');
  assert.equal(await view.page.locator('[data-testid=slash-item][aria-selected=true]').textContent(), '/frontend:component [name] [folder]Create a component');
  await input().press('Enter');
  assert.equal(await input().inputValue(), '/frontend:component ');
  assert.equal(await view.page.locator('[data-testid=slash-menu]').isHidden(), true);
  assert.equal((await view.posted()).filter((m) => m.type === 'send').length, 0, 'picking is not sending');
  await input().pressSequentially('Button src/ui');
  await input().press('Enter');
  assert.deepEqual((await view.posted()).find((m) => m.type === 'send'), { type: 'send', text: '/frontend:component Button src/ui' });
});

test('Tab picks too, Escape closes, a click picks, text that is not a command shows no menu', async () => {
  await input().fill('');
  await input().pressSequentially('/com');
  await input().press('Tab');
  assert.equal(await input().inputValue(), '/compact ');
  await input().fill('');
  await input().pressSequentially('/n');
  assert.equal(await view.page.locator('[data-testid=slash-menu]').isVisible(), true);
  await input().press('Escape');
  assert.equal(await view.page.locator('[data-testid=slash-menu]').isHidden(), true);
  await input().fill('');
  await input().pressSequentially('/fi');
  await view.page.locator('[data-testid=slash-item]').first().dispatchEvent('mousedown');
  assert.equal(await input().inputValue(), '/fix-tests ');
  await input().fill('');
  await input().pressSequentially('/usr/bin');
  assert.equal(await view.page.locator('[data-testid=slash-menu]').isHidden(), true);
  await input().fill('');
  await input().pressSequentially('/zzz');
  assert.equal(await view.page.locator('[data-testid=slash-menu]').isHidden(), true, 'nothing matches: no menu');
});
