import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { checkImage } from '../../../src/agent/imageParts';
import type { ImagePart } from '../../../src/agent/messages';
import { JsonlTranscriptStore } from '../../../src/runtime/jsonlTranscriptStore';
import { imageDirOf, removeTranscriptImages } from '../../../src/runtime/transcriptImages';
import { base64, pngImage } from '../../fakes/testImages';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sprout-images-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function image(name: string, width = 30, height = 20): ImagePart {
  const checked = checkImage(name, base64(pngImage(width, height)));
  assert.ok(checked.ok);
  return checked.image;
}

test('images are kept beside the transcript, once each, and come back on load', async () => {
  const path = join(dir, 'chat.jsonl');
  const store = new JsonlTranscriptStore(path);
  const shot = image('screenshot.png');
  store.append({ at: 1, event: { type: 'message', message: { role: 'user', content: 'look', images: [shot] } } });
  store.append({ at: 2, event: { type: 'compaction', trigger: 'auto', summary: 's', injected: [], fallback: false, droppedMessages: 1, history: [{ role: 'user', content: 'look', images: [shot] }] } });
  const text = readFileSync(path, 'utf8');
  assert.ok(!text.includes(shot.data), 'no base64 in the JSON lines');
  assert.equal(imageDirOf(path), join(dir, 'chat.images'));
  const files = readdirSync(join(dir, 'chat.images'));
  assert.equal(files.length, 1, 'the same image is stored once');
  assert.match(files[0] ?? '', /^[0-9a-f]{64}\.png$/);
  assert.deepEqual(readFileSync(join(dir, 'chat.images', files[0] ?? '')), pngImage(30, 20));
  assert.equal(statSync(join(dir, 'chat.images', files[0] ?? '')).mode & 0o777, 0o600);
  assert.equal(statSync(join(dir, 'chat.images')).mode & 0o777, 0o700);
  const records = await new JsonlTranscriptStore(path).load();
  assert.deepEqual(records[0]?.event, { type: 'message', message: { role: 'user', content: 'look', images: [shot] } });
  const compaction = records[1]?.event;
  assert.deepEqual(compaction?.type === 'compaction' ? compaction.history : undefined, [{ role: 'user', content: 'look', images: [shot] }]);
  removeTranscriptImages(path);
  assert.equal(existsSync(join(dir, 'chat.images')), false);
});

test('an image whose file is gone, or a reference outside the folder, becomes a note in the text', async () => {
  const path = join(dir, 'chat.jsonl');
  const store = new JsonlTranscriptStore(path);
  store.append({ at: 1, event: { type: 'message', message: { role: 'tool', toolCallId: 't', content: 'shot taken', images: [image('a.png'), image('b.png', 5, 5)] } } });
  const [gone] = readdirSync(join(dir, 'chat.images')).filter((f) => readFileSync(join(dir, 'chat.images', f)).equals(pngImage(30, 20)));
  rmSync(join(dir, 'chat.images', gone ?? ''));
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  const hostile = { at: 2, event: { type: 'message', message: { role: 'user', content: 'x', images: [{ mimeType: 'image/png', name: 'evil', file: '../secret.txt' }] } } };
  const mislabelled = { at: 3, event: { type: 'message', message: { role: 'user', content: 'y', images: [{ mimeType: 'text/html', name: 'odd', data: base64(pngImage(2, 2)) }] } } };
  writeFileSync(path, `${readFileSync(path, 'utf8')}${JSON.stringify(hostile)}\n${JSON.stringify(mislabelled)}\n`);
  const records = await new JsonlTranscriptStore(path).load();
  const tool = records[0]?.event.type === 'message' ? records[0].event.message : undefined;
  assert.equal(tool?.content, 'shot taken\n[image no longer available: a.png]');
  assert.deepEqual(tool?.role === 'tool' ? tool.images?.map((i) => i.name) : undefined, ['b.png']);
  const user = records[1]?.event.type === 'message' ? records[1].event.message : undefined;
  assert.deepEqual(user, { role: 'user', content: 'x\n[image no longer available: evil]' });
  const odd = records[2]?.event.type === 'message' ? records[2].event.message : undefined;
  assert.equal(odd?.role === 'user' ? odd.images?.[0]?.mimeType : undefined, 'image/png', "the type is read from the bytes, not taken from the line");
});
