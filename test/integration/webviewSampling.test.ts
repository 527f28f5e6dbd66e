// The chat webview's MCP sampling card and usage meter, in real headless Chromium with the real bundle:
// a card per request saying the server, its words (as text, never markup), the cap, then the model that
// answered and its tokens; the usage meter's label counts the sampling tokens apart from the context.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatState, webviewPageForFile } from './webviewPage';

const view = webviewPageForFile();

const send = (message: unknown): Promise<void> => view.send(message);

test('a sampling card: asked (the cap said), then answered with the model and tokens; the usage meter counts them apart', async () => {
  await send({ type: 'snapshot', state: chatState({ chatId: 's', running: true }) });
  const entry = { kind: 'sampling', id: 's-1', server: 'everything', prompt: 'a haiku <img src=x onerror=alert(1)>', maxTokens: 1_000_000, cappedTo: 4096, status: 'asked' };
  await send({ type: 'entry', entry });
  const card = '[data-testid=sampling-card]';
  assert.match((await view.page.textContent(card)) ?? '', /the server everything asked the chat's model \(up to 4096 tokens \(asked for 1000000: capped\)\)/);
  assert.match((await view.page.textContent(card)) ?? '', /a haiku <img src=x onerror=alert\(1\)>/);
  assert.equal(await view.page.$(`${card} img`), null, 'server text is never markup');
  await send({ type: 'entry', entry: { ...entry, status: 'answered', model: 'fake-model', tokens: { prompt: 20, completion: 7, total: 27 } } });
  assert.equal(await view.page.$$eval(card, (nodes) => nodes.length), 1, 'the same card, updated');
  assert.equal(await view.page.textContent('[data-testid=sampling-outcome]'), 'Answered · by fake-model · 27 tokens (20 in, 7 out)');
  await send({ type: 'usage', usage: { used: 120, window: 1000, estimated: false, sampled: 27 } });
  const label = (await view.page.getAttribute('[data-testid=context-usage]', 'aria-label')) ?? '';
  assert.match(label, /MCP sampling: 27 tokens spent answering servers in this chat/);
});
