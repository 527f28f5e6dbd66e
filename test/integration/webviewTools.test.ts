// The composer's tools button in real headless Chromium with the real chat bundle: it is labelled for
// what it does and posts `pickTools`, which the host answers with the open chat's tool picker (Sprout:
// Pick Tools; its effect on the request is tested in test/editor/suite/toolPicker.test.ts); it shows
// how many tools the open chat turned off (`toolsOff`).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatState, HOOKS_OFF, webviewPageForFile } from './webviewPage';

const view = webviewPageForFile({ viewport: { width: 420, height: 640 } });

test('the tools button posts pickTools', async () => {
  await view.send({ type: 'snapshot', state: chatState({ chatId: 'one', hooks: HOOKS_OFF }) });
  const button = view.page.locator('[data-testid=tools]');
  assert.match((await button.getAttribute('aria-label')) ?? (await button.getAttribute('title')) ?? '', /turn servers and tools on or off/);
  await view.clearPosted();
  await button.click();
  assert.deepEqual((await view.posted()).filter((m) => m.type === 'pickTools'), [{ type: 'pickTools' }]);
});

test('the tools button shows how many tools the chat turned off, and nothing when every tool is on', async () => {
  const button = view.page.locator('[data-testid=tools]');
  const count = view.page.locator('[data-testid=tools-off]');
  await view.send({ type: 'toolsOff', count: 3 });
  assert.equal(await count.textContent(), '3');
  assert.ok(await count.isVisible());
  assert.match((await button.getAttribute('title')) ?? '', /\(3 tools are off\)$/);
  await view.send({ type: 'toolsOff', count: 0 });
  assert.ok(!(await count.isVisible()));
  assert.doesNotMatch((await button.getAttribute('title')) ?? '', /off\)$/);
});
