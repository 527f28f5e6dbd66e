// The message box's images in real headless Chromium with the real bundle and CSS: a screenshot
// pasted (a real ClipboardEvent carrying a PNG file) or a file dropped goes to the host to be checked
// and shows as a thumbnail once accepted; a refused one shows the host's reason; Send carries the
// images and empties the tray; a sent message shows its images as thumbnails that really decode.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { base64, pngImage } from '../fakes/testImages';
import { chatState, webviewPageForFile } from './webviewPage';

const SCREENSHOTS = resolve(__dirname, '..', '..', 'test-results', 'webview');

const view = webviewPageForFile({ viewport: { width: 420, height: 640 }, first: [{ type: 'snapshot', state: chatState() }] });

/** Dispatches a paste (or a drop on the form) of one PNG file built from `data`, as the browser does. */
async function deliver(how: 'paste' | 'drop', data: string, name: string): Promise<void> {
  await view.page.evaluate(
    ({ how, data, name }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'image/png' }));
      if (how === 'paste') document.querySelector('[data-testid=chat-input]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      else document.querySelector('form.composer')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { how, data, name },
  );
}

async function checkRequest(): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const found = (await view.posted()).find((m) => m.type === 'checkImage');
    if (found) return found;
    await view.page.waitForTimeout(25);
  }
  throw new Error('the webview never asked the host to check the image');
}

test('a pasted screenshot is checked by the host, then shown as a thumbnail; Send carries it', async () => {
  const png = base64(pngImage(120, 80, [30, 120, 220]));
  await view.clearPosted();
  await deliver('paste', png, 'image.png');
  const asked = await checkRequest();
  const image = asked.image as { name: string; data: string };
  assert.equal(image.name, 'pasted image 1.png', 'a pasted screenshot gets a name of its own');
  assert.equal(image.data, png, 'the bytes as base64, no data: prefix');
  assert.equal(asked.held, 0);
  assert.equal(await view.page.locator('[data-testid=image-chip]').count(), 0, 'nothing shows before the host accepts it');
  await view.send({ type: 'imageChecked', id: asked.id, image: { name: image.name, mimeType: 'image/png', data: png } });
  await view.page.locator('[data-testid=image-chip]').waitFor();
  const decoded = await view.page.locator('[data-testid=image-chip] img').evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
  assert.equal(decoded, 120, 'the thumbnail is the real image');
  mkdirSync(SCREENSHOTS, { recursive: true });
  await view.page.screenshot({ path: join(SCREENSHOTS, 'pasted-image-in-composer.png') });
  await view.clearPosted();
  await view.page.locator('[data-testid=chat-input]').fill('what is this blue box?');
  await view.page.keyboard.press('Enter');
  const sent = (await view.posted()).find((m) => m.type === 'send');
  assert.deepEqual(sent, { type: 'send', text: 'what is this blue box?', images: [{ name: 'pasted image 1.png', data: png }] });
  assert.equal(await view.page.locator('[data-testid=image-chip]').count(), 0, 'the tray empties on send');
});

test("a dropped file the host refuses shows the host's reason, and no thumbnail", async () => {
  await view.clearPosted();
  await deliver('drop', base64(pngImage(4, 4)), 'huge screenshot.png');
  const asked = await checkRequest();
  assert.equal((asked.image as { name: string }).name, 'huge screenshot.png', 'a dropped file keeps its name');
  const why = 'huge screenshot.png is 50.0 MB; an image may be at most 5.0 MB. Crop or shrink it (or save it as JPEG) and attach it again.';
  await view.send({ type: 'imageChecked', id: asked.id, image: null, refusal: why });
  assert.equal(await view.page.locator('[data-testid=image-refusal]').textContent(), why);
  assert.equal(await view.page.locator('[data-testid=image-chip]').count(), 0);
});

test("a sent message shows its images as thumbnails", async () => {
  const png = base64(pngImage(200, 100, [40, 160, 60]));
  await view.send({ type: 'entry', entry: { kind: 'user', id: 'u1', text: 'Why is this green?', images: [{ name: 'pasted image 1.png', mimeType: 'image/png', data: png }] } });
  const img = view.page.locator('[data-testid=user-message] [data-testid=message-image]');
  await img.waitFor();
  assert.equal(await img.getAttribute('alt'), 'pasted image 1.png');
  assert.equal(await img.evaluate((node: HTMLImageElement) => node.decode().then(() => node.naturalWidth)), 200);
  const box = await img.boundingBox();
  assert.ok(box !== null && box.width <= 240 && box.height <= 160, `a thumbnail, not the full image: ${JSON.stringify(box)}`);
  await view.page.screenshot({ path: join(SCREENSHOTS, 'image-in-message.png') });
});
