/**
 * Model output to safe HTML: markdown-it with raw HTML off, then DOMPurify, so untrusted model text can
 * never inject markup or script. A code block gets a toolbar row above the code (its language, the file
 * the fence names, and Copy / Insert at cursor / Apply to file), so the buttons never cover code; each
 * button is marked with a `data-action` the chat's one click handler (main.ts) answers. Tables are
 * wrapped so a wide one scrolls on its own. Highlighting is applied later, off the render path (highlight.ts).
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
const esc = (s: string): string => md.utils.escapeHtml(s);

/** `ts src/a.ts`, `ts:src/a.ts` or `src/a.ts` after the fence, or a first line `// file: src/a.ts`: the language and the file. */
export function fenceInfo(info: string, code: string): { lang: string; path?: string } {
  const words = info.trim().split(/\s+/).filter(Boolean);
  let [lang = '', path] = words;
  if (path === undefined && lang.includes(':')) [lang, path] = [lang.slice(0, lang.indexOf(':')), lang.slice(lang.indexOf(':') + 1)];
  if (path === undefined && /[./]/.test(lang)) [lang, path] = [lang.split('.').pop() ?? '', lang];
  const named = /^\s*(?:\/\/|#|--|<!--)\s*(?:file(?:path)?|path):\s*(\S+)/i.exec(code.split('\n', 1)[0] ?? '')?.[1];
  const file = path ?? named;
  return file ? { lang, path: file } : { lang };
}

function actionButton(action: string, iconName: string, label: string, testid: string): string {
  return `<button type="button" class="icon-button" data-action="${action}" data-testid="${testid}" aria-label="${label}" title="${label}"><span class="codicon codicon-${iconName}" aria-hidden="true"></span></button>`;
}

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  const content = token?.content ?? '';
  const { lang, path } = fenceInfo(token?.info ?? '', content);
  const label = [lang, path].filter(Boolean).join(' · ');
  const toolbar =
    `<div class="code-toolbar"><span class="code-lang">${esc(label)}</span><span class="code-actions">` +
    actionButton('copy-code', 'copy', 'Copy', 'copy-code') +
    actionButton('insert-code', 'insert', 'Insert at cursor', 'insert-code') +
    actionButton('apply-code', 'go-to-file', path ? `Apply to ${esc(path)}` : 'Apply to the current file', 'apply-code') +
    '</span></div>';
  const pathAttr = path ? ` data-path="${esc(path)}"` : '';
  return `<div class="code-block"${pathAttr}>${toolbar}<pre><code data-lang="${esc(lang)}">${esc(content)}</code></pre></div>`;
};
md.renderer.rules.table_open = () => '<div class="table-wrap"><table>';
md.renderer.rules.table_close = () => '</table></div>';

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text), { ADD_ATTR: ['data-action', 'data-testid', 'data-lang', 'data-path'] });
}
