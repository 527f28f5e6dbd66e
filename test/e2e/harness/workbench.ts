// Steps a user takes in the workbench, expressed once for every e2e test: the command palette,
// the Sprout activity-bar container, and the chat webview, which is two iframes deep (the outer
// `iframe.webview.ready` carries the extension id and, for a view, `purpose=webviewView`; the inner
// `iframe#active-frame` holds the extension's HTML). Their waits are hang
// guards, scaled by the machine's load (loadScale.ts): a busy machine took over 30 s to show a view.
import { type FrameLocator, type Locator, type Page } from 'playwright-core';
import { scaledMs } from '../../loadScale';
import { EXTENSION_ID } from './codeServerWithVsix';

/** `opensPick`: the title of the quick pick the command shows (the widget then stays open with its rows). */
export async function runCommand(page: Page, title: string, options: { opensPick?: string } = {}): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: scaledMs(15_000) });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row').first();
  await row.waitFor({ timeout: scaledMs(15_000) });
  await page.keyboard.press('Enter');
  if (options.opensPick) {
    await page.locator('.quick-input-widget .quick-input-title', { hasText: options.opensPick }).waitFor({ timeout: scaledMs(15_000) });
    return;
  }
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: scaledMs(15_000) });
}

/** The Sprout entry in the activity bar (the `sprout` views container). */
export function sproutActivityItem(page: Page): Locator {
  return page.locator('.part.activitybar .action-item a[aria-label^="Sprout"], .part.activitybar .action-item [aria-label^="Sprout"]').first();
}

export async function openSproutContainer(page: Page): Promise<void> {
  await sproutActivityItem(page).click({ timeout: scaledMs(30_000) });
  await page.locator('.part.sidebar .composite.title').filter({ hasText: /sprout/i }).waitFor({ timeout: scaledMs(30_000) });
}

export function chatView(page: Page): FrameLocator {
  return page
    .frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"][src*="purpose=webviewView"]`)
    .frameLocator('iframe#active-frame');
}

/**
 * Moves the Chat view as a user does with "View: Move View": `destination` is a row of its second
 * pick ("New Panel Entry", "New Secondary Side Bar Entry", or an existing container's name).
 */
export async function moveChatView(page: Page, destination: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: scaledMs(15_000) });
  await input.fill('>View: Move View');
  // Not the first row: "Move Panel Views To Secondary Side Bar" and others match the words too.
  await quickPickRows(page).filter({ hasText: /^View: Move View(\s|$)/ }).first().click({ timeout: scaledMs(15_000) });
  await page.locator('.quick-input-widget input[placeholder="Select a View to Move"]').waitFor({ timeout: scaledMs(15_000) });
  await input.fill('Chat');
  await quickPickRows(page).filter({ hasText: /^Chat/ }).first().click({ timeout: scaledMs(15_000) });
  await page.locator('.quick-input-widget input[placeholder="Select a Destination for the View"]').waitFor({ timeout: scaledMs(15_000) });
  await quickPickRows(page).filter({ hasText: destination }).first().click({ timeout: scaledMs(15_000) });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: scaledMs(15_000) });
}

/** The native "Hooks" tree in the Sprout container. */
export function hooksTree(page: Page): Locator {
  return page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: /^hooks/i }) }).locator('.monaco-list');
}

/** Expands the Hooks view (collapsed by default under the chat) if it is collapsed. */
export async function expandHooksView(page: Page): Promise<void> {
  const header = page.locator('.pane-header', { hasText: /^hooks/i }).first();
  await header.waitFor({ timeout: scaledMs(30_000) });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await hooksTree(page).waitFor({ timeout: scaledMs(30_000) });
}

/** The rows of the open quick pick (command palette, Past Chats, Select Model). */
export function quickPickRows(page: Page): Locator {
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
}

/** Types a message into the chat's box and sends it with Enter, as a user does. */
export async function sendPrompt(chat: FrameLocator, text: string): Promise<void> {
  const input = chat.getByTestId('chat-input');
  await input.fill(text);
  await input.press('Enter');
}
