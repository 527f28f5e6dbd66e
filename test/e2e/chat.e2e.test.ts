// E2E: a user's chat in the packaged extension, in a real browser, against a fake OpenAI server and
// a real hook server (FakeHookServer, objecting once at `_Stop`). Sends a prompt, watches streamed
// text, approves a tool card, sees the objection card and the Hooks view's budget move, cancels a
// hanging second prompt, pastes a screenshot and sends it (the request carries it as an image part,
// the message shows it), then reloads the window and finds the chat again, its image too.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import { imagePartsOf, type FakeOpenAi, type FakeResponse } from '../fakes/fakeOpenAiServer';
import { base64, pngImage } from '../fakes/testImages';
import { objectingHookServer, startChatScenario, type ChatScenario } from './harness/hookScenario';
import type { CodeServerSession } from './harness/codeServerWithVsix';
import { chatView, expandHooksView, hooksTree, openSproutContainer, quickPickRows, runCommand, sendPrompt } from './harness/workbench';

const OBJECTION = 'E2E objection: run the tests before you stop.';
const FIRST_PROMPT = 'Please echo ping, then summarise.';
const STREAMED = 'Here is the **summary**: the echo tool answered ping, and everything is in order.';

function script(): FakeResponse[] {
  return [
    { type: 'reply', toolCalls: [{ name: 'hooks__echo', arguments: { text: 'ping' } }] },
    // About 3 s of streaming, so the test can see the answer grow.
    { type: 'reply', text: STREAMED, deltaSize: 4, chunkDelayMs: 150 },
    { type: 'reply', text: 'Done: I ran the tests and they pass.' },
    // Second prompt: a stream that stops mid-way and never ends, until the user cancels.
    { type: 'reply', text: 'This answer will hang after a few words and never finish on its own.', deltaSize: 16, hangAfterChunks: 3 },
    // Third prompt: a pasted screenshot.
    { type: 'reply', text: 'The screenshot is orange from edge to edge.' },
  ];
}

const IMAGE_PROMPT = 'What is in this screenshot?';

/** A PNG the size of a small screenshot, 320x200, orange. */
function screenshotPng(): Buffer {
  return pngImage(320, 200, [236, 120, 40]);
}



describe('chat in the packaged extension', { timeout: scaledMs(240_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;
  let fake: FakeOpenAi | undefined;

  before(async () => {
    scenario = await startChatScenario({
      name: 'chat',
      files: { 'notes.md': '# notes\n' },
      responses: script(),
      userSettings: {
        'sprout.model.name': 'fake-model',
        'sprout.mcp.servers': objectingHookServer(OBJECTION),
        'sprout.mcp.builtinServers': { workspace: false, todo: false, tests: false },
        'sprout.hooks.servers': ['hooks'],
      },
    });
    ({ session, fake } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('streams an answer with a tool card and an objection card, and the Hooks view shows the budget used', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    await chat.getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    await sendPrompt(chat, FIRST_PROMPT);
    await chat.getByTestId('user-message').filter({ hasText: FIRST_PROMPT }).waitFor({ timeout: scaledMs(30_000) });

    const tool = chat.getByTestId('tool-card').first();
    await tool.waitFor({ timeout: scaledMs(60_000) });
    await session.screenshot('chat-1-tool-approval');
    assert.match(await tool.innerText(), /echo/);
    await chat.getByTestId('tool-approve').first().click();

    const streamed = chat.getByTestId('assistant-message').filter({ hasText: 'Here is' });
    await streamed.first().waitFor({ timeout: scaledMs(60_000) });
    // Streamed means seen while incomplete: the first read lands well inside the ~3 s stream.
    const partial = await streamed.first().innerText();
    assert.ok(!partial.includes('everything is in order'), `the answer arrived whole, not streamed: ${partial}`);
    await streamed.filter({ hasText: 'everything is in order' }).first().waitFor({ timeout: scaledMs(60_000) });
    const objection = chat.getByTestId('hook-objection').first();
    await objection.waitFor({ timeout: scaledMs(60_000) });
    assert.match(await objection.innerText(), /run the tests before you stop/);
    const outcome = chat.getByTestId('turn-outcome').last();
    // A turn that ends well has a quiet footer, which may be empty: attached, not necessarily visible.
    await outcome.waitFor({ state: 'attached', timeout: scaledMs(60_000) });
    assert.equal(await outcome.getAttribute('data-reason'), 'end_turn');
    assert.equal(await tool.getAttribute('data-status'), 'ok');
    assert.match(await streamed.first().innerText(), /the echo tool answered ping/);
    await session.screenshot('chat-2-objection-and-outcome');

    await expandHooksView(session.page);
    await hooksTree(session.page).filter({ hasText: /Objections left: 2 of 3/ }).waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('chat-3-hooks-budget');
    assert.equal(fake.chatRequests().length, 3, 'tool round, objected end of turn, final answer');
    assert.ok(fake.requests.every((r) => r.valid), 'every request the extension sent was valid for the real API');
  });

  it('cancels a hanging answer with the stop button', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    await sendPrompt(chat, 'Write something long.');
    await chat.getByTestId('assistant-message').filter({ hasText: 'This answer' }).first().waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('stop').click();
    const outcome = chat.locator('[data-testid="turn-outcome"][data-reason="cancelled"]');
    // A cancel that waited for the stream would hang forever: the fake never finishes this answer.
    await outcome.first().waitFor({ timeout: scaledMs(20_000) });
    await session.screenshot('chat-4-cancelled');
  });

  it('sends a pasted screenshot with the message and shows it in the message', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    const input = chat.getByTestId('chat-input');
    // A real paste event carrying a PNG file, as the browser dispatches one for a screenshot on the clipboard.
    await input.evaluate((node, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      node.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, base64(screenshotPng()));
    await chat.getByTestId('image-chip').waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('chat-5-pasted-image-in-box');
    await sendPrompt(chat, IMAGE_PROMPT);
    const message = chat.getByTestId('user-message').filter({ hasText: IMAGE_PROMPT });
    const image = message.getByTestId('message-image');
    await image.waitFor({ timeout: scaledMs(30_000) });
    assert.equal(await image.evaluate((node: HTMLImageElement) => node.decode().then(() => node.naturalWidth)), 320);
    await chat.getByTestId('assistant-message').filter({ hasText: 'edge to edge' }).first().waitFor({ timeout: scaledMs(60_000) });
    await session.screenshot('chat-6-pasted-image-in-message');
    const last = fake.chatRequests().at(-1);
    assert.deepEqual(imagePartsOf(last?.body).map((p) => [p.role, p.mimeType, p.bytes]), [['user', 'image/png', screenshotPng().length]], 'the screenshot reached the model as an image part');
    assert.ok(fake.requests.every((r) => r.valid), 'every request was valid for the real API');
  });

  it('finds the chat again after a window reload', async () => {
    assert.ok(session);
    await session.reload();
    await openSproutContainer(session.page);
    const chat = chatView(session.page);
    await chat.getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    const restored = chat.getByTestId('user-message').filter({ hasText: FIRST_PROMPT });
    if ((await restored.count()) === 0) {
      // The restored view may open on a new chat: the first one must then be among the past chats.
      await runCommand(session.page, 'Sprout: Past Chats', { opensPick: 'Past Chats' });
      await quickPickRows(session.page).filter({ hasText: FIRST_PROMPT }).first().click({ timeout: scaledMs(30_000) });
    }
    await restored.first().waitFor({ timeout: scaledMs(30_000) });
    await chat.getByTestId('hook-objection').first().waitFor({ timeout: scaledMs(30_000) });
    // The pasted screenshot is back: kept beside the transcript, read again on reload.
    const image = chat.getByTestId('user-message').filter({ hasText: IMAGE_PROMPT }).getByTestId('message-image');
    await image.waitFor({ timeout: scaledMs(30_000) });
    assert.equal(await image.evaluate((node: HTMLImageElement) => node.decode().then(() => node.naturalWidth)), 320);
    await session.screenshot('chat-7-after-reload');
  });
});
