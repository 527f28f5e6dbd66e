// Steps a user takes in the workbench, expressed once for every e2e test: the command palette,
// the Sprout activity-bar container, and the chat webview, which is two iframes deep (the outer
// `iframe.webview.ready` carries the extension id and, for a view, `purpose=webviewView`; the inner
// `iframe#active-frame` holds the extension's HTML).
import { type FrameLocator, type Locator, type Page } from 'playwright-core';
import { EXTENSION_ID } from './codeServerWithVsix';

export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row').first();
  await row.waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
}

/** The Sprout entry in the activity bar (the `sprout` views container). */
export function sproutActivityItem(page: Page): Locator {
  return page.locator('.part.activitybar .action-item a[aria-label^="Sprout"], .part.activitybar .action-item [aria-label^="Sprout"]').first();
}

export async function openSproutContainer(page: Page): Promise<void> {
  await sproutActivityItem(page).click({ timeout: 30_000 });
  await page.locator('.part.sidebar .composite.title').filter({ hasText: /sprout/i }).waitFor({ timeout: 30_000 });
}

export function chatView(page: Page): FrameLocator {
  return page
    .frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"][src*="purpose=webviewView"]`)
    .frameLocator('iframe#active-frame');
}

/** The native "Hooks" tree in the Sprout container. */
export function hooksTree(page: Page): Locator {
  return page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: /^hooks/i }) }).locator('.monaco-list');
}
