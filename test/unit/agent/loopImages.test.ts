import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkImage } from '../../../src/agent/imageParts';
import type { ImagePart } from '../../../src/agent/messages';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { InMemoryTranscriptStore } from '../../fakes/InMemoryTranscriptStore';
import { base64, bmpHeader, pngImage } from '../../fakes/testImages';
import { harness, settings } from './harness';

function image(name: string, width: number, height: number): ImagePart {
  const checked = checkImage(name, base64(pngImage(width, height)));
  assert.ok(checked.ok);
  return checked.image;
}

test("a prompt's images ride on its user message to the model, and a resumed session has them", async () => {
  const shot = image('screenshot.png', 40, 30);
  const transcript = new InMemoryTranscriptStore();
  const h = await harness({ script: [reply.text('I see a red box')], transcript });
  await h.session.run('what is this?', undefined, { images: [shot] });
  const sent = h.model.requests[0]?.messages.find((m) => m.role === 'user');
  assert.deepEqual(sent, { role: 'user', content: 'what is this?', images: [shot] });
  const again = await harness({ transcript });
  const user = again.session.state.history.find((m) => m.role === 'user');
  assert.deepEqual(user?.role === 'user' ? user.images : undefined, [shot]);
});

test("a tool's image goes into its tool message; one no model takes becomes a note the model reads", async () => {
  const h = await harness({
    servers: [
      {
        name: 'browser',
        tools: {
          screenshot: () => ({ isError: false, text: '[image: image/png, 100 bytes]', images: [{ mimeType: 'image/png', data: base64(pngImage(5, 5)), name: '' }] }),
          scan: () => ({ isError: false, text: 'scanned', images: [{ mimeType: 'image/bmp', data: base64(bmpHeader()), name: '' }] }),
        },
      },
    ],
    script: [reply.tools(call('browser__screenshot', {}, 's'), call('browser__scan', {}, 'b')), reply.text('done')],
  });
  await h.session.run('look at the page');
  const tools = h.session.state.history.filter((m) => m.role === 'tool');
  const shot = tools.find((m) => m.role === 'tool' && m.toolCallId === 's');
  assert.equal(shot?.role === 'tool' ? shot.images?.[0]?.name : undefined, 'image 1 from browser__screenshot');
  const scan = tools.find((m) => m.role === 'tool' && m.toolCallId === 'b');
  assert.equal(scan?.role === 'tool' ? scan.images : 'missing', undefined, 'the BMP is not sent');
  assert.match(scan?.content ?? '', /^scanned\n\[image not sent: image 1 from browser__scan is a BMP image/);
  const second = h.model.requests[1]?.messages.filter((m) => m.role === 'tool');
  assert.equal(second?.length, 2, 'the next round carries both results');
});

test("compaction mid-prompt re-seats the prompt with its images", async () => {
  const shot = image('layout.png', 1920, 1080);
  const h = await harness({
    settings: settings({ contextWindowTokens: 4000, compactThreshold: 0.5 }),
    servers: [{ name: 'fs', tools: { read: () => 'x'.repeat(6000) } }],
    script: [reply.tools(call('fs__read', {}, 'r')), reply.text('notes: read the file'), reply.text('done')],
  });
  const outcome = await h.session.run('fix the layout', undefined, { images: [shot] });
  assert.equal(outcome.reason, 'end_turn');
  assert.equal(h.of('compaction').length, 1);
  const last = h.session.state.history.filter((m) => m.role === 'user').at(-1);
  assert.deepEqual(last, { role: 'user', content: 'fix the layout', images: [shot] });
});
