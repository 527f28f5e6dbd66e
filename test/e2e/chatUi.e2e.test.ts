// E2E: the chat UI as a new user meets it, at 1400x900 in the packaged extension, against the fake
// OpenAI server, the bundled workspace server and a real hook server (objecting once at `_Stop`).
// Each defect of the chat-UX issue has its check here: a chat opened and reloaded before its first
// prompt is still titled by that prompt; a prompt typed before setup is kept and sent once a model is
// picked; the approval after a long streamed answer with code is on screen; the objection card speaks
// for the hook; a write opens in the diff editor and the turn's file changes are undone through the
// editor. Screenshots of each state go to test-results/e2e (git-ignored), in a light theme, and of
// Restricted Mode and an answer with code in a second window in a dark theme.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import type { Locator } from 'playwright-core';
import type { FakeOpenAi, FakeResponse } from '../fakes/fakeOpenAiServer';
import { objectingHookServer, startChatScenario, type ChatScenario } from './harness/hookScenario';
import type { CodeServerSession } from './harness/codeServerWithVsix';
import { chatView, expandHooksView, hooksTree, openSproutContainer, quickPickRows, runCommand, sendPrompt } from './harness/workbench';
import { waitFor } from '../waitFor';

const PROMPT = 'Add a discount function to src/cart.ts';
const OBJECTION = 'Two tests fail in cart.test.ts: run them and fix discount() before you stop.';
const ORIGINAL = 'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n';
const WRITTEN = `${ORIGINAL}\nexport function discount(price: number, rate: number): number {\n  return price * (1 - rate);\n}\n`;
const EDITED = WRITTEN.replace('price * (1 - rate)', 'Math.round(price * (1 - rate) * 100) / 100');

function longAnswer(): string {
  const paragraph = 'The discount applies per item before the total is summed, so rounding happens once per price and the total stays exact to the cent. ';
  return [
    "Here is the plan: I'll add a `discount()` helper next to `total()`.",
    '',
    '```ts src/cart.ts',
    'export function discount(price: number, rate: number): number {',
    '  if (rate < 0 || rate > 1) throw new RangeError(`rate out of range: ${rate}`);',
    '  return price * (1 - rate);',
    '}',
    '```',
    '',
    '### Why this shape',
    '',
    paragraph.repeat(3),
    '',
    '| case | price | rate | result |',
    '| --- | ---: | ---: | ---: |',
    '| no discount | 10 | 0 | 10 |',
    '| half off | 10 | 0.5 | 5 |',
    '',
    paragraph.repeat(4),
    '',
    'Writing the file now.',
  ].join('\n');
}

function script(): FakeResponse[] {
  return [
    { type: 'reply', text: longAnswer(), deltaSize: 14, chunkDelayMs: 45, toolCalls: [{ name: 'workspace__write_file', arguments: { path: 'src/cart.ts', content: WRITTEN } }] },
    { type: 'reply', text: 'I added `discount()` to src/cart.ts.' },
    { type: 'reply', toolCalls: [{ name: 'workspace__edit_file', arguments: { path: 'src/cart.ts', oldString: 'price * (1 - rate)', newString: 'Math.round(price * (1 - rate) * 100) / 100' } }] },
    { type: 'reply', text: 'Fixed: `discount()` rounds to the cent now, and the two tests pass.' },
  ];
}



/** Whether the element lies wholly inside its webview's viewport (what the user sees without scrolling). */
function onScreen(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const log = document.querySelector('.log')?.getBoundingClientRect();
    return r.height > 0 && r.top >= (log?.top ?? 0) - 1 && r.bottom <= (log?.bottom ?? window.innerHeight) + 1;
  });
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  await waitFor(check, what, { idleBoundMs: ms, everyMs: 200 });
}

describe('chat UI in the packaged extension (1400x900)', { timeout: scaledMs(420_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;
  let fake: FakeOpenAi | undefined;
  const cart = (): string => join(scenario?.workspace ?? '', 'src', 'cart.ts');

  before(async () => {
    scenario = await startChatScenario({
      name: 'ui',
      files: { 'src/cart.ts': ORIGINAL },
      responses: script(),
      userSettings: {
        'workbench.colorTheme': 'Default Light Modern',
        'sprout.mcp.servers': objectingHookServer(OBJECTION),
        'sprout.mcp.builtinServers': { workspace: true, todo: false, tests: false },
        'sprout.hooks.servers': ['hooks'],
      },
    });
    ({ session, fake } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('shows the empty state with examples, the hooks line and what setup needs; survives a reload before the first prompt', async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    await chat.getByTestId('empty-state').waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('setup-card').waitFor({ timeout: scaledMs(30_000) });
    assert.equal(await chat.getByTestId('example-prompt').count(), 3);
    assert.match((await chat.getByTestId('empty-hooks').innerText()).trim(), /Completion check: hooks/);
    await session.screenshot('ui-1-empty-state');
    // The first chat is opened now; a reload before its first prompt once left it "Recovered chat" forever.
    await session.reload();
    await openSproutContainer(session.page);
    await chatView(session.page).getByTestId('empty-state').waitFor({ timeout: scaledMs(60_000) });
  });

  it('keeps a prompt typed before setup and sends it once a model is picked', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    await sendPrompt(chat, PROMPT);
    const pending = chat.getByTestId('pending-prompt');
    await pending.waitFor({ timeout: scaledMs(30_000) });
    assert.match(await pending.innerText(), new RegExp(PROMPT));
    assert.equal(fake.chatRequests().length, 0, 'nothing was sent without a model');
    await session.screenshot('ui-2-setup-pending');
    await chat.getByTestId('setup-selectModel').click();
    await quickPickRows(session.page).filter({ hasText: 'fake-model' }).first().click({ timeout: scaledMs(30_000) });
    await chat.getByTestId('user-message').filter({ hasText: PROMPT }).waitFor({ timeout: scaledMs(30_000) });
    await chat.getByTestId('pending-prompt').waitFor({ state: 'detached', timeout: scaledMs(30_000) });
  });

  it('streams the answer with highlighted code, then brings the approval into view', async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    const answer = chat.locator('[data-testid=assistant-message].streaming');
    await answer.locator('.code-block code.hljs').first().waitFor({ timeout: scaledMs(60_000) });
    assert.ok((await answer.count()) > 0, 'still streaming when the code is highlighted');
    await session.screenshot('ui-3-streaming-code');
    const approval = chat.getByTestId('approval');
    await approval.waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('tool-approve').waitFor();
    // Defect 1: after a long answer with a code block, the question sat below the fold.
    assert.equal(await onScreen(chat.locator('[data-testid=approval] .approval-buttons')), true, 'the approval buttons are visible without scrolling');
    assert.match(await chat.getByTestId('announcer').innerText(), /Approval needed: Sprout wants to write file src\/cart\.ts/);
    await session.screenshot('ui-4-approval');
    await chat.getByTestId('tool-approve').click();
  });

  it("shows the hook's objection in plain words with its outcome, then a quiet footer with the files changed", async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    const objection = chat.getByTestId('hook-objection').first();
    await objection.waitFor({ timeout: scaledMs(60_000) });
    assert.match(await objection.innerText(), /Completion check\s+by hooks objected/);
    assert.match(await objection.innerText(), /Two tests fail in cart\.test\.ts/);
    assert.match(await objection.getByTestId('objection-budget').innerText(), /2 of 3 objections left in this chat/);
    assert.doesNotMatch(await objection.innerText(), /_Stop/, 'the raw hook name stays in the details');
    await chat.getByTestId('tool-approve').click({ timeout: scaledMs(60_000) });
    await objection.getByTestId('objection-outcome').filter({ hasText: 'The agent acted on it' }).waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('undo-turn').waitFor({ timeout: scaledMs(60_000) });
    // Notes are for what a user may act on (a slow server, say); a check that passed is never one.
    const notes = await chat.getByTestId('hook-event').allInnerTexts();
    assert.ok(!notes.some((n) => /no objection|_Stop/.test(n)), `no "no objection" lines: ${notes.join(' | ')}`);
    await chat.getByTestId('checks-passed').first().waitFor();
    await until(() => readFileSync(cart(), 'utf8') === EDITED, 'the edit on disk');
    await session.screenshot('ui-5-objection');
  });

  it("opens the agent's write in the diff editor", async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    await chat.getByTestId('open-diff').first().click();
    await session.page.locator('.monaco-diff-editor').first().waitFor({ timeout: scaledMs(30_000) });
    await session.page.locator('.tabs-container .tab', { hasText: /cart\.ts.*Sprout/ }).first().waitFor({ timeout: scaledMs(30_000) });
    // Both sides rendered: the original on the left, the written discount() on the right.
    await session.page.locator('.monaco-diff-editor .editor.original .view-lines', { hasText: 'export function total' }).waitFor({ timeout: scaledMs(30_000) });
    await session.page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'export function discount' }).waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('ui-6-diff');
  });

  it("undoes the turn's file changes through the editor", async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    await chat.getByTestId('undo-turn').click();
    await until(() => readFileSync(cart(), 'utf8') === ORIGINAL, 'src/cart.ts restored');
    await chat.getByTestId('change-undone').first().waitFor({ timeout: scaledMs(30_000) });
    assert.equal(await session.page.locator('.tabs-container .tab.dirty').count(), 0, 'the restored file was saved, nothing is left dirty');
  });

  it('shows the Hooks view under the chat with the budget in words', async () => {
    assert.ok(session);
    await session.page.keyboard.press('Escape');
    await expandHooksView(session.page);
    await hooksTree(session.page).filter({ hasText: /Objections left: 2 of 3/ }).waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('ui-7-hooks-view');
  });

  it('titles the chat by its first prompt in Past Chats after a reload', async () => {
    assert.ok(session);
    await session.reload();
    await openSproutContainer(session.page);
    await chatView(session.page).getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    await runCommand(session.page, 'Sprout: Past Chats', { opensPick: 'Past Chats' });
    const rows = quickPickRows(session.page);
    await rows.first().waitFor({ timeout: scaledMs(15_000) });
    const labels = (await rows.allInnerTexts()).join('\n');
    assert.match(labels, new RegExp(PROMPT));
    assert.doesNotMatch(labels, /Recovered chat/);
    await session.screenshot('ui-8-past-chats');
    await session.page.keyboard.press('Escape');
  });
});

describe('chat UI in Restricted Mode, in a dark theme', { timeout: scaledMs(180_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;

  before(async () => {
    scenario = await startChatScenario({
      name: 'untrusted',
      files: { '.vscode/mcp.json': JSON.stringify({ servers: { db: { command: 'node', args: ['db-server.js'] } } }) },
      responses: [{ type: 'reply', text: longAnswer(), deltaSize: 200 }],
      trust: 'untrusted',
      userSettings: { 'workbench.colorTheme': 'Default Dark Modern', 'sprout.model.name': 'fake-model' },
    });
    ({ session } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('names the blocked servers in a notice the user can dismiss for the session', async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    const notice = chat.getByTestId('notice');
    await notice.waitFor({ timeout: scaledMs(60_000) });
    assert.match(await notice.innerText(), /Restricted Mode: Sprout does not start this workspace's MCP server db/);
    await session.screenshot('ui-10-untrusted');
    await chat.getByTestId('dismiss-notice').click();
    await notice.waitFor({ state: 'hidden', timeout: scaledMs(15_000) });
  });

  it('holds up in a dark theme: an answer with highlighted code and a table', async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    await sendPrompt(chat, 'How should discount() work?');
    await chat.locator('[data-testid=assistant-message]:not(.streaming) .code-block code.hljs').first().waitFor({ timeout: scaledMs(60_000) });
    await chat.locator('[data-testid=assistant-message] .code-block').first().scrollIntoViewIfNeeded();
    await session.screenshot('ui-9-dark');
  });
});
