import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimatePromptTokens, historyChars, renderForSummary } from '../../../src/agent/compactionRules';
import { imageHeader } from '../../../src/agent/imageHeader';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, checkImage, checkImages, imageTokens, toolResultImages, UNKNOWN_IMAGE_TOKENS } from '../../../src/agent/imageParts';
import type { ChatMessage } from '../../../src/agent/messages';
import { base64, bigPng, bmpHeader, gifHeader, jpegHeader, pngImage, svgText, webpHeader } from '../../fakes/testImages';

test('the type and size come from the bytes of each kind models take', () => {
  assert.deepEqual(imageHeader(base64(pngImage(1280, 720))), { kind: 'image', mimeType: 'image/png', width: 1280, height: 720 });
  assert.deepEqual(imageHeader(base64(jpegHeader(640, 480))), { kind: 'image', mimeType: 'image/jpeg', width: 640, height: 480 });
  assert.deepEqual(imageHeader(base64(gifHeader(32, 16))), { kind: 'image', mimeType: 'image/gif', width: 32, height: 16 });
  assert.deepEqual(imageHeader(base64(webpHeader(3000, 2000))), { kind: 'image', mimeType: 'image/webp', width: 3000, height: 2000 });
});

test('a checked image names its type by its bytes, whatever the file was called', () => {
  const checked = checkImage('photo.webp', `data:image/webp;base64,${base64(pngImage(4, 3))}`);
  assert.equal(checked.ok, true);
  if (!checked.ok) return;
  assert.equal(checked.image.mimeType, 'image/png', 'a PNG named .webp is sent as a PNG');
  assert.equal(checked.image.name, 'photo.webp');
  assert.deepEqual([checked.image.width, checked.image.height], [4, 3]);
  assert.ok(!checked.image.data.startsWith('data:'), 'the data URL prefix is taken off');
});

test('a 50 MB image is refused with the cap, and so is one a byte over it', () => {
  const huge = checkImage('screenshot.png', base64(bigPng(50 * 1024 * 1024)));
  assert.equal(huge.ok, false);
  if (huge.ok) return;
  assert.match(huge.reason, /^screenshot\.png is 50\.0 MB; an image may be at most 5\.0 MB\. Crop or shrink it/);
  assert.equal(checkImage('edge.png', base64(bigPng(MAX_IMAGE_BYTES + 1))).ok, false);
  assert.equal(checkImage('fits.png', base64(bigPng(MAX_IMAGE_BYTES - 64))).ok, true);
});

test('an image type no model takes is named; not-an-image and broken data are said', () => {
  const said = (name: string, data: string): string => {
    const checked = checkImage(name, data);
    assert.equal(checked.ok, false, name);
    return checked.ok ? '' : checked.reason;
  };
  assert.equal(said('diagram.bmp', base64(bmpHeader())), 'diagram.bmp is a BMP image; models take PNG, JPEG, GIF or WebP images. Convert it and attach it again.');
  assert.match(said('logo.svg', base64(svgText)), /logo\.svg is an SVG image/);
  assert.match(said('notes.png', base64('just some text')), /notes\.png is not a PNG, JPEG, GIF or WebP image/);
  assert.match(said('broken.png', 'not base64!'), /not valid base64/);
  assert.match(said('empty.png', ''), /empty/);
});

test('more images than a message may carry: one refusal naming the cap, the rest kept', () => {
  const many = Array.from({ length: MAX_IMAGES_PER_MESSAGE + 2 }, (_, i) => ({ name: `shot ${i}.png`, data: base64(pngImage(2, 2)) }));
  const { images, refusals } = checkImages(many);
  assert.equal(images.length, MAX_IMAGES_PER_MESSAGE);
  assert.deepEqual(refusals, [`A prompt may carry at most ${MAX_IMAGES_PER_MESSAGE} images; 2 more were left out.`]);
});

test('an image costs tokens by its pixels, not by its base64 length', () => {
  assert.equal(imageTokens({ width: 1024, height: 1024 }), 765, "OpenAI's documented 1024x1024 figure");
  assert.equal(imageTokens({ width: 2048, height: 4096 }), 1105, "OpenAI's documented 2048x4096 figure");
  assert.equal(imageTokens({}), UNKNOWN_IMAGE_TOKENS);
  const big = checkImage('big.png', base64(bigPng(4 * 1024 * 1024)));
  assert.ok(big.ok);
  if (!big.ok) return;
  const withImage: ChatMessage = { role: 'user', content: 'look', images: [big.image] };
  const chars = historyChars([withImage]);
  assert.equal(chars, 4 + imageTokens(big.image) * 4, 'an 8x8 image of 4 MB counts as its tiles');
  assert.ok(chars < 10_000, `counted ${chars} characters, not ${big.image.data.length}`);
  assert.equal(estimatePromptTokens({ history: [withImage], lastUsage: null, usageMessageCount: 0 }, 0), Math.ceil(chars / 4));
});

test('the summariser reads an image as its label', () => {
  const image = checkImage('error dialog.png', base64(pngImage(800, 600)));
  assert.ok(image.ok);
  if (!image.ok) return;
  const text = renderForSummary([{ role: 'user', content: 'why this error?', images: [image.image] }], 10_000);
  assert.equal(text, 'USER: why this error?\n[image: error dialog.png, 800x600]');
});

test("a tool result's images are named after the call; refused ones become a line of text", () => {
  const ok = { mimeType: 'image/png', data: base64(pngImage(3, 3)), name: '' };
  const bad = { mimeType: 'image/png', data: base64(bmpHeader()), name: '' };
  const { images, notes } = toolResultImages('browser__screenshot', [ok, bad]);
  assert.deepEqual(images.map((i) => i.name), ['image 1 from browser__screenshot']);
  assert.deepEqual(notes, ['[image not sent: image 2 from browser__screenshot is a BMP image; models take PNG, JPEG, GIF or WebP images. Convert it and attach it again.]']);
  assert.deepEqual(toolResultImages('x', undefined), { images: [], notes: [] });
});
