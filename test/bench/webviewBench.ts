/**
 * Bench: the chat webview under load. The real bundle (dist/webview.js, with dist/webview.css) runs in
 * headless Chromium and receives exactly the host messages the extension posts: a `snapshot` of a
 * session of 1k-100k tokens, then streamed `delta`s one per animation frame (how tokens arrive in
 * practice). Per token it reports the renderer's main-thread time (Chrome's own TaskDuration metric)
 * beside an idle frame's, for a long session and for one long answer; both should stay flat. It also
 * times one token from the host's ChatViewState (AgentEvent -> HostMessage) to the webview's DOM against a
 * floor that only waits for the same animation frame. The editor's IPC hop (extension host ->
 * workbench -> iframe) is not in these numbers: the message is dispatched in the page itself. The
 * highlighter bundle (dist/highlight.js) is loaded as the chat loads it, so highlighting is included.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { ChatViewState } from '../../src/extension/chat/chatViewState';
import type { ChatEntry, ChatState, HostMessage } from '../../src/shared/protocol';
import { launchChromium } from '../e2e/harness/chromium';
import { fmt, timeSideBySide } from './benchHarness';

const root = resolve(__dirname, '..', '..');
/** Session sizes in tokens; SPROUT_BENCH_WEBVIEW_SIZES (comma-separated) picks others while iterating. */
const SIZES = (process.env['SPROUT_BENCH_WEBVIEW_SIZES'] ?? '1000,10000,50000,100000').split(',').map(Number);
const STREAMED = 100;

/** Roughly one token each; paragraphs and a code block now and then, like real answers. */
function tokenText(i: number): string {
  if (i % 250 === 120) return '\n\n```ts\nconst value = compute(input);\nreturn value;\n```\n\n';
  if (i % 60 === 59) return '.\n\n';
  return i % 7 === 0 ? ' **word**' : ' word';
}

function answer(tokens: number, offset = 0): string {
  let text = '';
  for (let i = 0; i < tokens; i++) text += tokenText(i + offset);
  return text;
}

/** Finished question/answer pairs adding up to `tokens`, plus an optional open answer. */
function session(tokens: number, openAnswerTokens: number | undefined): ChatState {
  const entries: ChatEntry[] = [];
  let used = 0;
  for (let n = 0; used < tokens; n++) {
    const size = Math.min(500, tokens - used);
    entries.push({ kind: 'user', id: `u${n}`, text: `Question ${n}: please explain the next part.` });
    entries.push({ kind: 'assistant', id: `a${n}`, text: answer(size, n), done: true });
    used += size + 10;
  }
  if (openAnswerTokens !== undefined) entries.push({ kind: 'assistant', id: 'open', text: answer(openAnswerTokens), done: false });
  return { chatId: 'bench', entries, running: true, draft: '', setup: null, notice: null };
}

const PAGE = `<!DOCTYPE html><html><head><meta charset="UTF-8"><style>${'/*css*/'}</style></head>
<body><main id="app"></main>
<script>window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });</script>
</body></html>`;

async function openWebview(page: Page): Promise<void> {
  const css = readFileSync(join(root, 'dist', 'webview.css'), 'utf8');
  await page.setContent(PAGE.replace('/*css*/', css));
  await page.addScriptTag({ path: join(root, 'dist', 'highlight.js') });
  await page.addScriptTag({ path: join(root, 'dist', 'webview.js') });
  const ready = await page.evaluate(() => JSON.stringify((window as unknown as { __posted: unknown[] }).__posted));
  if (!ready.includes('"ready"')) throw new Error(`the webview bundle did not start: posted ${ready}`);
}

const post = (page: Page, message: HostMessage): Promise<void> =>
  page.evaluate((m) => void window.dispatchEvent(new MessageEvent('message', { data: m })), message);

/** Streams `tokens` one per frame (or only waits the frames, for `idle`); returns main-thread ms per frame. */
async function streamCost(page: Page, cdp: CDPSession, tokens: string[], idle: boolean): Promise<number> {
  const taskSeconds = async (): Promise<number> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
  };
  const before = await taskSeconds();
  await page.evaluate(
    async ({ tokens, idle }) => {
      // No named helper in here: tsx's keepNames would reference a `__name` the page does not have.
      for (const text of tokens) {
        if (!idle) window.dispatchEvent(new MessageEvent('message', { data: { type: 'delta', id: 'open', text } }));
        await new Promise((r) => requestAnimationFrame(r));
      }
    },
    { tokens, idle },
  );
  return ((await taskSeconds()) - before) * 1000 / tokens.length;
}

async function openText(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelectorAll('[data-testid=assistant-message]').item(document.querySelectorAll('[data-testid=assistant-message]').length - 1)?.textContent?.trim() ?? '');
}

async function perTokenCost(page: Page, cdp: CDPSession, size: number, longAnswer: boolean): Promise<{ token: number; idle: number }> {
  await post(page, { type: 'snapshot', state: session(longAnswer ? 0 : size, longAnswer ? size : 0) });
  const tokens = Array.from({ length: STREAMED }, (_, i) => (i === STREAMED - 1 ? ' lastTokenMarker' : tokenText(i)));
  const idle = await streamCost(page, cdp, tokens, true);
  const token = await streamCost(page, cdp, tokens, false);
  if (!(await openText(page)).endsWith('lastTokenMarker')) throw new Error('streamed text did not reach the DOM');
  return { token, idle };
}

/** One token from the host's ChatViewState to the DOM, against a floor that waits for the same frame. */
async function tokenLatency(page: Page, size: number): Promise<{ sprout: number; floor: number }> {
  await post(page, { type: 'snapshot', state: session(size, undefined) });
  const sent: HostMessage[] = [];
  const model = new ChatViewState((m) => sent.push(m));
  model.apply({ type: 'text_delta', delta: 'start' });
  const opened = sent.pop();
  if (opened) await post(page, opened);
  let n = 0;
  const timings = await timeSideBySide(
    {
      sprout: async () => {
        const marker = ` m${n++}`;
        model.apply({ type: 'text_delta', delta: marker });
        // The webview receives a structured clone; JSON is the closest host-side equivalent.
        const message = JSON.parse(JSON.stringify(sent.pop())) as HostMessage;
        const shown = await page.evaluate(
          async ({ message, marker }) => {
            window.dispatchEvent(new MessageEvent('message', { data: message }));
            const nodes = document.querySelectorAll('[data-testid=assistant-message]');
            const node = nodes.item(nodes.length - 1);
            for (let i = 0; i < 10 && !node.textContent?.trim().endsWith(marker); i++) await new Promise((r) => requestAnimationFrame(r));
            return node.textContent?.trim().endsWith(marker) ?? false;
          },
          { message, marker },
        );
        if (!shown) throw new Error(`token ${marker} never reached the DOM`);
      },
      floor: () => page.evaluate(() => new Promise((r) => requestAnimationFrame(r))),
    },
    40,
  );
  return { sprout: timings.sprout?.medianMs ?? NaN, floor: timings.floor?.medianMs ?? NaN };
}

export async function runWebviewBench(): Promise<string[]> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    await openWebview(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const lines = [
      `chat webview (dist/webview.js in headless Chromium, ${STREAMED} tokens streamed one per frame; renderer main-thread ms per token, idle frame beside it):`,
      '  session size   long session: token / idle     one long answer: token / idle   host event -> DOM (floor: next frame)',
    ];
    for (const size of SIZES) {
      const sessionCost = await perTokenCost(page, cdp, size, false);
      const answerCost = await perTokenCost(page, cdp, size, true);
      const latency = await tokenLatency(page, size);
      lines.push(
        `  ${`${size / 1000}k tokens`.padEnd(13)}  ${`${fmt(sessionCost.token)} / ${fmt(sessionCost.idle)}`.padEnd(29)}  ${`${fmt(answerCost.token)} / ${fmt(answerCost.idle)}`.padEnd(30)}  ${fmt(latency.sprout)} (floor ${fmt(latency.floor)})`,
      );
    }
    return lines;
  } finally {
    await browser.close();
  }
}

if (require.main === module) {
  runWebviewBench().then(
    (lines) => console.log(lines.join('\n')),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
