// The chat webview in a real headless Chromium for tests: the real bundles (built from src with
// esbuild, the highlighter too when asked) and media/chat.css in a page whose `acquireVsCodeApi`
// records what the webview posts (`window.__posted`). `send` dispatches a host message as the editor does.
// `webviewPageForFile` opens one page for a test file (in its `before`, closed in its `after`);
// `chatState` is the `snapshot` state the files start from.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../e2e/harness/chromium';

const root = resolve(__dirname, '..', '..');

export interface WebviewPage {
  page: Page;
  send(message: unknown): Promise<void>;
  /** Waits two animation frames (a delta renders on the next one). */
  frames(): Promise<unknown>;
  posted(): Promise<Array<Record<string, unknown>>>;
  clearPosted(): Promise<void>;
  close(): Promise<void>;
}

export interface WebviewPageOptions {
  /** Loads the highlighter bundle too. */
  highlighter?: boolean;
  viewport?: { width: number; height: number };
}

async function openWebviewPage(options: WebviewPageOptions = {}): Promise<WebviewPage> {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-webview-test-'));
  const build = (entry: string, out: string): void =>
    void buildSync({ entryPoints: [join(root, entry)], outfile: join(dir, out), bundle: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'error' });
  build('src/webview/main.ts', 'webview.js');
  if (options.highlighter) build('src/webview/highlighter.ts', 'highlight.js');
  const browser: Browser = await launchChromium();
  const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
  const css = readFileSync(join(root, 'media/chat.css'), 'utf8');
  await page.setContent(`<html><head><style>${css}</style></head><body><main id="app"></main>
<script>window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });</script></body></html>`);
  if (options.highlighter) await page.addScriptTag({ path: join(dir, 'highlight.js') });
  await page.addScriptTag({ path: join(dir, 'webview.js') });
  return {
    page,
    send: (message) => page.evaluate((m) => void window.dispatchEvent(new MessageEvent('message', { data: m })), message),
    frames: () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))),
    posted: () => page.evaluate(() => (window as unknown as { __posted: Array<Record<string, unknown>> }).__posted),
    clearPosted: () => page.evaluate(() => void ((window as unknown as { __posted: unknown[] }).__posted.length = 0)),
    close: async () => {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A chat's `snapshot` state: an idle chat `c` with no entries, setup or notice, unless `fields` say otherwise. */
export const chatState = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  chatId: 'c',
  entries: [],
  running: false,
  draft: '',
  setup: null,
  notice: null,
  ...fields,
});

/** The hooks line of a chat with no hooks. */
export const HOOKS_OFF = { state: 'off', text: '', tooltip: '' };

/**
 * Registers the file's before/after hooks: one page opened before its tests, after which the `first`
 * host messages are sent (a snapshot, a command list), closed after them. Call it at the top level of a
 * test file; `page` and the methods work once the file's `before` ran.
 */
export function webviewPageForFile(options: WebviewPageOptions & { first?: unknown[] } = {}): Omit<WebviewPage, 'close'> {
  let view: WebviewPage | undefined;
  before(async () => {
    view = await openWebviewPage(options);
    for (const message of options.first ?? []) await view.send(message);
  });
  after(async () => {
    await view?.close();
  });
  const opened = (): WebviewPage => {
    if (view === undefined) throw new Error("the webview page is opened in the file's before hook");
    return view;
  };
  return {
    get page() {
      return opened().page;
    },
    send: (message) => opened().send(message),
    frames: () => opened().frames(),
    posted: () => opened().posted(),
    clearPosted: () => opened().clearPosted(),
  };
}
