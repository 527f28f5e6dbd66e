/**
 * Images on the wire, end to end (docs/model-servers.md#images): the real openai client and loop
 * against the fake, which checks every content part as OpenAI does (data URLs of real PNG/JPEG/GIF/WebP
 * bytes, images only in user messages). A prompt's screenshot goes as an `image_url` part; the image
 * the reference MCP server's `get-tiny-image` returns goes in a user message after the tool results;
 * and a server whose model takes no images, refusing in its own words, is learned once: the images
 * become a note the model reads, the chat is told once, and nothing is refused again.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { checkImage } from '../../../src/agent/imageParts';
import type { ImagePart } from '../../../src/agent/messages';
import type { McpServerConfig } from '../../../src/mcp/config';
import { fakeReply, imagePartsOf } from '../../fakes/fakeOpenAiServer';
import type { VisionRule } from '../../fakes/openai/visionRules';
import { base64, pngImage } from '../../fakes/testImages';
import { openRig, type Rig } from '../loop/loopHarness';
import { expectRejections, SERVER_START_MARGIN } from './serverHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function screenshot(): ImagePart {
  const checked = checkImage('screenshot.png', base64(pngImage(64, 48)));
  assert.ok(checked.ok);
  return checked.image;
}

/** The reference MCP server from npm; `get-tiny-image` answers with text, a PNG, and text. */
const EVERYTHING: McpServerConfig = {
  name: 'everything',
  transport: { type: 'stdio', command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'], env: {} },
};

describe('images reach an endpoint that takes them', () => {
  it("a prompt's screenshot goes as an image_url part after its text", async () => {
    rig = await openRig({ servers: [], responses: [fakeReply.text('A red rectangle.')] });
    const outcome = await rig.runtime.session.run('what is in this screenshot?', undefined, { images: [screenshot()] });
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    const user = rig.chatBodies()[0]?.messages.find((m) => m.role === 'user');
    const content = user?.content as unknown as { type: string; text?: string; image_url?: { url: string } }[];
    assert.deepEqual(content[0], { type: 'text', text: 'what is in this screenshot?' });
    assert.match(content[1]?.image_url?.url ?? '', /^data:image\/png;base64,iVBORw0KGgo/);
    assert.deepEqual(imagePartsOf(rig.chatBodies()[0]), [{ message: 1, role: 'user', mimeType: 'image/png', bytes: pngImage(64, 48).length }]);
  });

  it("a real MCP server's image result goes to the model in a user message after the tool results", async () => {
    rig = await openRig({
      servers: [],
      extraServers: [EVERYTHING],
      settings: SERVER_START_MARGIN,
      responses: [fakeReply.toolCalls([{ id: 'call_img', name: 'everything__get-tiny-image', arguments: {} }]), fakeReply.text('It is the MCP logo.')],
    });
    const outcome = await rig.runtime.session.run('show me the tiny image');
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    const messages = rig.messages(1);
    const tool = messages.findIndex((m) => m.role === 'tool');
    assert.match(String(messages[tool]?.content), /Here's the image you requested:\n\[image: image\/png, \d+ bytes\]\nThe image above is the MCP logo\.\n\[The image follows after the tool results\.\]/);
    assert.equal(messages[tool + 1]?.role, 'user', 'the image rides in the user message right after the tool results');
    const parts = imagePartsOf(rig.chatBodies()[1]);
    assert.equal(parts.length, 1);
    assert.equal(parts[0]?.role, 'user');
    assert.equal(parts[0]?.mimeType, 'image/png');
    const label = (messages[tool + 1]?.content as unknown as { text?: string }[])[0]?.text;
    assert.match(label ?? '', /^\[image: image 1 from everything__get-tiny-image, 20x20\] returned by a tool above:$/);
  });
});

const REFUSALS: { rule: VisionRule; said: RegExp }[] = [
  { rule: 'llamacpp-no-vision', said: /image input is not supported - hint: if this is unexpected, you may need to provide the mmproj/ },
  { rule: 'vllm-no-vision', said: /The model is not multimodal\. Please remove image inputs\./ },
  { rule: 'vllm-image-limit-0', said: /At most 0 image\(s\) may be provided in one prompt\./ },
  { rule: 'ollama-no-vision', said: /this model is missing data required for image input/ },
  { rule: 'lmstudio-no-vision', said: /Model does not support images\. Please use a model that does\./ },
  { rule: 'openrouter-no-vision', said: /No endpoints found that support image input/ },
  { rule: 'openai-no-vision', said: /Invalid content type\. image_url is only supported by certain models\./ },
  { rule: 'litellm-no-vision', said: /litellm\.BadRequestError: OpenAIException - Invalid content type\. image_url is only supported by certain models/ },
];

describe('a server whose model takes no images: learned once, the image becomes a note, said in the chat', () => {
  for (const { rule, said } of REFUSALS) {
    it(rule, async () => {
      rig = await openRig({ servers: [], fake: { rules: [rule] }, responses: [fakeReply.text('I cannot see images.'), fakeReply.text('Still text only.')] });
      const outcome = await rig.runtime.session.run('what is in this screenshot?', undefined, { images: [screenshot()] });
      assert.equal(outcome.reason, 'end_turn', outcome.message);
      const adapted = rig.of('model_adapted');
      assert.equal(adapted.length, 1, JSON.stringify(adapted));
      assert.equal(adapted[0]?.change, 'sending images as a note in the text (this model does not take images)');
      assert.match(adapted[0]?.said ?? '', said, "the note quotes the server's words");
      assert.equal(rig.of('retry').length, 0, 'a changed shape is not a blind retry');
      expectRejections(rig, [said]);
      const user = rig.chatBodies().at(-1)?.messages.find((m) => m.role === 'user');
      assert.equal(user?.content, 'what is in this screenshot?\n\n[image not sent: screenshot.png (this model does not take images)]');
      // The next prompt with an image goes as a note at once: nothing is refused again, nothing said again.
      const before = rig.fake.requests.length;
      assert.equal((await rig.runtime.session.run('and this one?', undefined, { images: [screenshot()] })).reason, 'end_turn');
      assert.ok(rig.fake.requests.slice(before).every((r) => r.valid));
      assert.equal(rig.of('model_adapted').length, 1);
      assert.deepEqual(imagePartsOf(rig.chatBodies().at(-1)), []);
    });
  }

  it('a refusal in those words to a request without images teaches nothing', async () => {
    rig = await openRig({ servers: [], responses: [fakeReply.error(500, 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj'), fakeReply.text('ok')] });
    const outcome = await rig.runtime.session.run('no image here');
    assert.equal(outcome.reason, 'end_turn', outcome.message);
    assert.deepEqual(rig.of('model_adapted'), []);
    assert.equal(rig.of('retry').length, 1, 'an ordinary 500, retried');
  });
});

describe('the fake refuses what OpenAI refuses for images', () => {
  it('an image in a tool message, a data URL of a BMP, and bytes that are no image', async () => {
    const { startFakeOpenAi } = await import('../../fakes/fakeOpenAiServer');
    const fake = await startFakeOpenAi({ responses: [] });
    try {
      const post = async (messages: unknown[]): Promise<string> => {
        const res = await fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages }) });
        return ((await res.json()) as { error: { message: string } }).error.message;
      };
      const image = (url: string) => ({ type: 'image_url', image_url: { url } });
      const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] };
      assert.equal(
        await post([{ role: 'user', content: 'hi' }, call, { role: 'tool', tool_call_id: 'c1', content: [image(`data:image/png;base64,${base64(pngImage(2, 2))}`)] }]),
        "Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.",
      );
      assert.match(await post([{ role: 'user', content: [image('data:image/bmp;base64,Qk0=')] }]), /but got unsupported MIME type 'image\/bmp'\.$/);
      assert.match(await post([{ role: 'user', content: [image(`data:image/png;base64,${base64('plain text')}`)] }]), /^You uploaded an unsupported image/);
      assert.match(await post([{ role: 'user', content: [{ type: 'image', data: 'x' }] }]), /^Invalid value: 'image'\. Supported values are: 'text', 'image_url'/);
    } finally {
      await fake.close();
    }
  });
});
