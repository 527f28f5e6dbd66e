// `--image PATH` (repeatable), driven as a user would: `node dist/cli.js` against the fake OpenAI
// server, which checks the image parts as OpenAI does. Images reach the request; a 50 MB screenshot, a
// BMP and a missing file exit 2 naming the option, the file and the cap, with no request made; a
// --session keeps the image beside the transcript and the resumed run sends it again; --json prints
// an image's size, not its bytes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply, imagePartsOf } from '../../fakes/fakeOpenAiServer';
import { bigPng, bmpHeader, jpegHeader, pngImage } from '../../fakes/testImages';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, outcomeOf, parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-images-', {
  setup: (dir) => {
    writeFileSync(join(dir, 'screen.png'), pngImage(120, 80));
    writeFileSync(join(dir, 'photo.jpg'), jpegHeader(16, 16));
    writeFileSync(join(dir, 'diagram.bmp'), bmpHeader());
    writeFileSync(join(dir, 'huge.png'), bigPng(50 * 1024 * 1024));
  },
});

describe('--image', () => {
  it('sends each image with the prompt, keeps them beside the --session transcript, and --json prints no bytes', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('a screen and a photo'), fakeReply.text('still there')] });
    const session = join(cli.dir, 'chat.jsonl');
    const first = await runCli(['--json', '--session', session, '--image', 'screen.png', '--image', join(cli.dir, 'photo.jpg'), 'what do you see?'], { env: baseEnv(fake.url), cwd: cli.dir });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      imagePartsOf(fake.chatRequests()[0]?.body).map((p) => [p.mimeType, p.bytes]),
      [
        ['image/png', pngImage(120, 80).length],
        ['image/jpeg', jpegHeader(16, 16).length],
      ],
    );
    const message = parseEvents(first.stdout).find((e) => e.type === 'message' && e.message.role === 'user');
    assert.ok(message && !JSON.stringify(message).includes(pngImage(120, 80).toString('base64')), '--json prints no image bytes');
    assert.match(JSON.stringify(message), /"name":"screen\.png","width":120,"height":80,"bytes":\d+/);
    assert.equal(readdirSync(join(cli.dir, 'chat.images')).length, 2);
    assert.ok(!readFileSync(session, 'utf8').includes(pngImage(120, 80).toString('base64')));
    const second = await runCli(['--json', '--session', session, 'and now?'], { env: baseEnv(fake.url), cwd: cli.dir });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(imagePartsOf(fake.chatRequests()[1]?.body).length, 2, 'the resumed history carries the images again');
    assert.equal(outcomeOf(parseEvents(second.stdout))?.reason, 'end_turn');
    assertAllRequestsValid(fake.requests);
  });

  it('a 50 MB screenshot, a BMP and a missing file exit 2, naming the option, the file and what to do; nothing is sent', async () => {
    const fake = await cli.startFake({ responses: [] });
    const huge = await runCli(['--image', 'huge.png', 'hi'], { env: baseEnv(fake.url), cwd: cli.dir });
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /--image huge\.png: huge\.png is 50\.0 MB; an image may be at most 5\.0 MB\. Crop or shrink it/);
    const bmp = await runCli(['--image', 'diagram.bmp', 'hi'], { env: baseEnv(fake.url), cwd: cli.dir });
    assert.equal(bmp.code, 2);
    assert.match(bmp.stderr, /--image: diagram\.bmp is a BMP image; models take PNG, JPEG, GIF or WebP images/);
    const missing = await runCli(['--image', 'nope.png', 'hi'], { env: baseEnv(fake.url), cwd: cli.dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--image nope\.png: cannot read it \(ENOENT\)/);
    assert.equal(fake.requests.length, 0);
  });
});
