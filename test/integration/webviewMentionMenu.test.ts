// The composer's `#` menu in real headless Chromium with the real chat bundle: `#` lists the mentions
// (src/shared/mentions.ts) with descriptions, more letters narrow them, a pick replaces the word before
// the caret (a complete one with a space after it); `#resource:` asks the host (`completeMention`) and
// shows its answer (`mentionItems`, through the zod protocol), a stale answer is not shown; picking is
// not sending, and the message goes as typed.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { chatState, HOOKS_OFF, webviewPageForFile } from './webviewPage';

const state = chatState({ hooks: HOOKS_OFF });

const view = webviewPageForFile({ viewport: { width: 420, height: 640 }, first: [{ type: 'snapshot', state }] });

const input = (): ReturnType<Page['locator']> => view.page.locator('[data-testid=chat-input]');
const names = async (): Promise<string[]> => view.page.locator('[data-testid=mention-item] .slash-name').allTextContents();
const menuHidden = (): Promise<boolean> => view.page.locator('[data-testid=mention-menu]').isHidden();

test('`#` lists every mention; letters narrow it; Enter puts a complete one in place of the word, with a space', async () => {
  await input().fill('');
  await input().pressSequentially('fix #');
  assert.deepEqual(await names(), ['#file:', '#folder:', '#problems', '#changes', '#terminalLastCommand', '#symbol:', '#resource:']);
  await input().pressSequentially('pr');
  assert.deepEqual(await names(), ['#problems']);
  await input().press('Enter');
  assert.equal(await input().inputValue(), 'fix #problems ');
  assert.equal(await menuHidden(), true);
  assert.equal((await view.posted()).filter((m) => m.type === 'send').length, 0, 'picking is not sending');
});

test('`#resource:` asks the host and shows its answer; a pick inserts the whole mention; Escape closes', async () => {
  await view.clearPosted();
  await input().fill('');
  await input().pressSequentially('read #res');
  await input().press('Tab');
  assert.equal(await input().inputValue(), 'read #resource:', 'an argument follows: no space');
  const asked = (await view.posted()).filter((m) => m.type === 'completeMention');
  assert.deepEqual(asked.at(-1), { type: 'completeMention', kind: 'resource', query: '' });
  // An answer for text the box no longer holds is not shown.
  await view.send({ type: 'mentionItems', kind: 'resource', query: 'old', items: [{ insert: '#resource:x:old', description: 'stale' }] });
  assert.equal(await menuHidden(), true);
  await view.send({
    type: 'mentionItems',
    kind: 'resource',
    query: '',
    items: [
      { insert: '#resource:everything:demo://resource/static/document/features.md', description: 'features.md (text/markdown), server everything' },
      { insert: '#resource:everything:demo://resource/static/document/startup.md', description: 'startup.md (text/markdown), server everything' },
    ],
  });
  assert.equal((await names()).length, 2);
  await input().press('ArrowDown');
  await input().press('Enter');
  assert.equal(await input().inputValue(), 'read #resource:everything:demo://resource/static/document/startup.md ');
  await input().pressSequentially('#ch');
  assert.equal(await menuHidden(), false);
  await input().press('Escape');
  assert.equal(await menuHidden(), true);
  await input().press('Enter');
  assert.deepEqual((await view.posted()).find((m) => m.type === 'send'), { type: 'send', text: 'read #resource:everything:demo://resource/static/document/startup.md #ch' });
});
