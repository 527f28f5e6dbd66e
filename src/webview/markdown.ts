/**
 * Model output to safe HTML: markdown-it with raw HTML off, then DOMPurify, so untrusted model text can
 * never inject markup or script. Code blocks get a copy button marked `data-action="copy-code"`, which
 * the chat's one click handler (main.ts) answers; the test id is for tests only.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  const code = md.utils.escapeHtml(token?.content ?? '');
  const lang = md.utils.escapeHtml((token?.info ?? '').trim().split(/\s+/)[0] ?? '');
  return `<div class="code-block"><button class="copy" data-action="copy-code" data-testid="copy-code" aria-label="Copy code" title="Copy">Copy</button><pre><code class="language-${lang}">${code}</code></pre></div>`;
};

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text), { ADD_ATTR: ['data-action', 'data-testid'] });
}
