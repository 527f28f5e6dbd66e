/**
 * The chat webview: renders what the host sends and reports what the user does. Host messages are
 * validated with the shared schema; the host owns all state. Rendering is incremental: an entry's node
 * is replaced only when that entry changes, and streamed text re-renders only the unfinished tail of the
 * open message (StreamingMarkdown), at most once per animation frame, so cost per token stays flat as a
 * session or an answer grows (test/bench/webviewBench.ts measures it). The layout gives the conversation
 * the height: a one-line hooks header, a dismissible notice, the log, then setup and the message box.
 */
import { assertNever, describeIssues, hostMessageSchema, type ChatEntry, type ChatState, type HooksSummary, type WebviewMessage } from '../shared/protocol';
import { button, el, icon } from './dom';
import { emptyState } from './emptyState';
import { renderEntry } from './entries';
import { highlightIn } from './highlight';
import { Composer } from './composer';
import { Scroller } from './scroller';
import { fillSetupCard } from './setupCard';
import { GroupedList } from './groupedList';
import { StreamingMarkdown } from './streamingMarkdown';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage): void => vscode.postMessage(message);

const app = document.getElementById('app')!;
const header = el('header', { class: 'chat-header' });
const hooksLine = el('button', { type: 'button', class: 'hooks-line', 'data-testid': 'hooks-summary', 'aria-label': 'Hooks' });
header.append(hooksLine);
const notice = el('div', { class: 'notice', role: 'status', 'data-testid': 'notice', hidden: '' });
const noticeText = el('span', { class: 'notice-text' });
notice.append(icon('workspace-untrusted'), noticeText, button({ label: 'Dismiss for this session', testid: 'dismiss-notice', icon: 'close', iconOnly: true, onClick: () => post({ type: 'dismissNotice' }) }));
const logWrap = el('div', { class: 'log-wrap' });
const log = el('div', { class: 'log', tabindex: '-1' });
const content = el('div', { class: 'log-content', role: 'log', 'aria-label': 'Conversation' });
log.append(content);
logWrap.append(log);
const scroller = new Scroller(log, content, logWrap);
const list = new GroupedList(content, 'entry-group');
const setup = el('div', { class: 'card setup', 'data-testid': 'setup-card', hidden: '' });
const composer = new Composer({
  send: (text, attachments, images, mode, agent) => {
    post({ type: 'send', text, ...(attachments.length > 0 ? { attachments } : {}), ...(images.length > 0 ? { images } : {}), ...(mode === 'agent' ? {} : { mode }), ...(agent === undefined ? {} : { agent }) });
    scroller.toEnd(false);
  },
  stop: () => post({ type: 'stop' }),
  attach: (heldImages) => post({ type: 'attach', heldImages }),
  pickTools: () => post({ type: 'pickTools' }),
  checkImage: (id, image, held) => post({ type: 'checkImage', id, image, held }),
  draft: (text) => post({ type: 'draft', text }),
  selectModel: () => post({ type: 'setup', action: 'selectModel' }),
  completeMention: (kind, query) => post({ type: 'completeMention', kind, query }),
});
app.append(header, notice, logWrap, setup, composer.form);

const nodes = new Map<string, HTMLElement>();
const streams = new Map<string, StreamingMarkdown>();
/** The text element of each thinking part still streaming: deltas append to it as text. */
const thinking = new Map<string, HTMLElement>();
const dirty = new Set<string>();
/** Entries whose question was already brought into view and read out. */
const announced = new Set<string>();
let hooks: HooksSummary | undefined;
let empty: HTMLElement | undefined;
let frame = 0;

function showEmpty(): void {
  empty?.remove();
  empty = nodes.size === 0 ? emptyState(hooks, (prompt) => (composer.setText(prompt), composer.input.focus()), () => post({ type: 'enableTestHook' })) : undefined;
  if (empty) {
    content.append(empty);
    scroller.toStart();
  }
  // The empty state says the hooks line itself; the header takes it over once the chat has started.
  header.hidden = empty !== undefined;
}

function upsert(entry: ChatEntry): void {
  const node = renderEntry(entry, post);
  // An approved plan runs in Agent mode: the picker follows, so the next message does not go back to planning.
  if (entry.kind === 'plan' && entry.state === 'approved') composer.setMode('agent');
  streams.delete(entry.id);
  thinking.delete(entry.id);
  if (entry.kind === 'thinking' && !entry.done) thinking.set(entry.id, node.querySelector('pre') ?? node);
  if (entry.kind === 'assistant' && !entry.done) {
    const stream = new StreamingMarkdown(node);
    stream.append(entry.text);
    stream.render();
    streams.set(entry.id, stream);
  }
  if (entry.kind === 'assistant' && entry.done) highlightIn(node);
  const old = nodes.get(entry.id);
  // A part the user opened stays open when it is redrawn.
  const wasOpen = old?.matches('details') ? (old as HTMLDetailsElement).open : (old?.querySelector('details')?.open ?? false);
  const details = node.matches('details') ? (node as HTMLDetailsElement) : node.querySelector('details');
  if (wasOpen && details) details.open = true;
  if (old) old.replaceWith(node);
  else {
    if (empty) {
      empty.remove();
      empty = undefined;
      header.hidden = false;
      scroller.toEnd(false);
    }
    list.append(node);
  }
  nodes.set(entry.id, node);
  dirty.delete(entry.id);
  if (entry.kind === 'user') scroller.toEnd(false);
  const attention = node.dataset['attention'];
  if (attention && !announced.has(entry.id)) {
    announced.add(entry.id);
    scroller.reveal(node, attention);
  }
}

function flushDeltas(): void {
  frame = 0;
  for (const id of dirty) streams.get(id)?.render();
  dirty.clear();
}

function setHooks(summary: HooksSummary | undefined): void {
  hooks = summary;
  // No completion check (_Stop) exists: a turn's "No checks" would be on every turn, noise (chat.css hides it).
  document.body.classList.toggle('no-stop-checks', summary?.state === 'off');
  hooksLine.hidden = summary === undefined;
  if (!summary) return;
  hooksLine.className = `hooks-line state-${summary.state}`;
  hooksLine.replaceChildren(icon(summary.state === 'off' ? 'circle-slash' : summary.state === 'warning' ? 'warning' : 'shield'), el('span', { class: 'hooks-text' }, summary.text));
  hooksLine.title = `${summary.tooltip}\n\nClick to show the Hooks view.`;
  hooksLine.setAttribute('aria-label', `${summary.text}. Show the Hooks view.`);
  if (empty) showEmpty();
}

function setNotice(text: string | null): void {
  notice.hidden = text === null;
  noticeText.textContent = text ?? '';
}

function setSetup(info: ChatState['setup']): void {
  fillSetupCard(setup, info, (action) => post({ type: 'setup', action }), (text) => {
    composer.setText(text);
    composer.input.focus();
    post({ type: 'cancelPendingPrompt' });
  });
}

function applySnapshot(state: ChatState): void {
  content.replaceChildren();
  list.reset();
  nodes.clear();
  streams.clear();
  thinking.clear();
  dirty.clear();
  empty = undefined;
  hooks = state.hooks;
  for (const entry of state.entries) upsert(entry);
  showEmpty();
  setHooks(state.hooks);
  composer.setRunning(state.running);
  composer.setChat(state.chatId, state.entries.findLast((e) => e.kind === 'user')?.mode);
  if (composer.input.value === '' || state.draft !== '') composer.setText(state.draft);
  setSetup(state.setup);
  setNotice(state.notice);
  composer.setUsage(state.usage);
  composer.setModel(state.model);
  if (!empty) scroller.toEnd(false);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = hostMessageSchema.safeParse(event.data);
  if (!parsed.success) {
    // Shows in the webview's developer tools; a message the protocol rejects is never acted on.
    console.warn('Sprout: dropped an invalid message from the host', describeIssues(parsed.error).join('; '));
    return;
  }
  const m = parsed.data;
  switch (m.type) {
    case 'snapshot':
      return applySnapshot(m.state);
    case 'entry':
      return upsert(m.entry);
    case 'delta':
      thinking.get(m.id)?.append(m.text);
      streams.get(m.id)?.append(m.text);
      dirty.add(m.id);
      if (frame === 0) frame = requestAnimationFrame(flushDeltas);
      return;
    case 'running':
      return composer.setRunning(m.running);
    case 'setup':
      return setSetup(m.setup);
    case 'notice':
      return setNotice(m.notice);
    case 'hooks':
      return setHooks(m.hooks);
    case 'usage':
      return composer.setUsage(m.usage);
    case 'model':
      return composer.setModel(m.model);
    case 'attached':
      return composer.addAttachment(m.attachment);
    case 'imageChecked':
      return composer.imageChecked(m.id, m.image, m.refusal);
    case 'commands':
      return composer.setCommands(m.commands);
    case 'toolsOff':
      return composer.setToolsOff(m.count);
    case 'agents':
      return composer.setAgents(m.agents);
    case 'handoffs':
      return composer.setHandoffs(m.handoffs);
    case 'mentionItems':
      return composer.setMentionItems(m.kind, m.query, m.items);
    case 'insertMention':
      return composer.insertMention(m.text);
    case 'focusInput':
      if (m.text !== undefined) composer.setText(m.text);
      composer.input.focus();
      return;
    default:
      assertNever(m);
  }
});

hooksLine.addEventListener('click', () => post({ type: 'showHooks' }));

/** The code block buttons (markdown.ts marks them with data-action), answered here for every block. */
content.addEventListener('click', (event) => {
  const target = (event.target as HTMLElement).closest<HTMLElement>('[data-action]');
  const block = target?.closest<HTMLElement>('.code-block');
  if (!target || !block) return;
  const code = block.querySelector('code')?.textContent ?? '';
  const action = target.dataset['action'];
  if (action === 'copy-code') {
    post({ type: 'copy', text: code });
    target.setAttribute('title', 'Copied');
    target.setAttribute('aria-label', 'Copied');
    target.querySelector('.codicon')?.classList.replace('codicon-copy', 'codicon-check');
    setTimeout(() => {
      target.setAttribute('title', 'Copy');
      target.setAttribute('aria-label', 'Copy');
      target.querySelector('.codicon')?.classList.replace('codicon-check', 'codicon-copy');
    }, 1200);
  } else if (action === 'insert-code') post({ type: 'insertCode', text: code });
  else if (action === 'apply-code') post({ type: 'applyCode', text: code, ...(block.dataset['path'] ? { path: block.dataset['path'] } : {}) });
});

post({ type: 'ready' });
