/**
 * Syntax highlighting for code blocks, loaded lazily: the highlighter (highlight.js with the common
 * languages, dist/highlight.js) is a second bundle that the chat loads the first time an answer has a
 * code block, as a script with the page's nonce (the CSP allows nothing else). Blocks are highlighted
 * once, when their text is final (a finished answer, or a settled chunk of a streaming one), never per
 * token. Colours come from the VS Code theme's variables (chat.css), so it follows light, dark and
 * high-contrast themes. highlight.js escapes the code; its output is sanitised again to spans only.
 */
import DOMPurify from 'dompurify';

type Highlighter = (code: string, lang: string) => string | undefined;
declare global {
  interface Window {
    __sproutHighlight?: Highlighter;
  }
}

/** The page's nonce and the highlighter's URL, read while the main script runs (webviewHtml.ts sets both). */
const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
const src = document.body?.dataset['highlight'] ?? '';
const waiting = new Set<HTMLElement>();
let loading = false;

function apply(code: HTMLElement, highlight: Highlighter): void {
  code.dataset['hl'] = 'done';
  const lang = code.dataset['lang'] ?? '';
  const html = lang === '' ? undefined : highlight(code.textContent ?? '', lang);
  if (html === undefined) return;
  code.innerHTML = DOMPurify.sanitize(html, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'] });
  code.classList.add('hljs');
}

function flush(): void {
  const highlight = window.__sproutHighlight;
  if (!highlight) return;
  for (const code of waiting) if (code.isConnected) apply(code, highlight);
  waiting.clear();
}

function load(): void {
  if (loading || src === '') return;
  loading = true;
  const script = document.createElement('script');
  script.nonce = nonce;
  script.src = src;
  script.addEventListener('load', flush);
  document.head.append(script);
}

/** Highlights the finished code blocks under `root` (now, or once the highlighter has loaded). */
export function highlightIn(root: ParentNode): void {
  const blocks = root.querySelectorAll<HTMLElement>('pre > code[data-lang]:not([data-hl])');
  if (blocks.length === 0) return;
  const highlight = window.__sproutHighlight;
  for (const code of blocks) {
    if (highlight) apply(code, highlight);
    else waiting.add(code);
  }
  if (!highlight) load();
}
