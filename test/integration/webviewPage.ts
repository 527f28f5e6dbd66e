// The chat webview in a real headless Chromium for tests: the real bundles (built from src with
// esbuild, the highlighter too when asked) and media/chat.css in a page whose `acquireVsCodeApi`
// records what the webview posts (`window.__posted`). `send` dispatches a host message as the editor does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

export async function openWebviewPage(options: { highlighter?: boolean; viewport?: { width: number; height: number } } = {}): Promise<WebviewPage> {
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
