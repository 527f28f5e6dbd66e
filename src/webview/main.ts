/**
 * The chat webview: renders what the host sends and reports what the user does. Host messages are
 * validated with the shared schema; the host owns all state. Rendering is incremental: an entry's node
 * is replaced only when that entry changes, and streamed text re-renders only the unfinished tail of the
 * open message (StreamingMarkdown), at most once per animation frame, so cost per token stays flat as a
 * session or an answer grows (test/bench/webviewBench.ts measures it).
 */
import { budgetText } from '../shared/budgetText';
import { assertNever, describeIssues, hostMessageSchema, type Budget, type ChatEntry, type ChatState, type WebviewMessage } from '../shared/protocol';
import { el, renderEntry } from './entries';
import { StreamingMarkdown } from './streamingMarkdown';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage): void => vscode.postMessage(message);

const app = document.getElementById('app')!;
const header = el('header', { class: 'toolbar' });
const budget = el('span', { class: 'budget', 'aria-live': 'polite' });
const newChat = el('button', { 'data-testid': 'new-chat', 'aria-label': 'New chat', title: 'New chat' }, 'New chat');
const historySelect = el('select', { 'data-testid': 'chat-history', 'aria-label': 'Past chats' });
header.append(newChat, historySelect, budget);
const notice = el('div', { class: 'notice', role: 'status', hidden: '' });
const setup = el('div', { class: 'card setup', 'data-testid': 'setup-card', hidden: '' });
const log = el('div', { class: 'log', role: 'log', 'aria-label': 'Conversation' });
const form = el('form', { class: 'composer' });
const input = el('textarea', { 'data-testid': 'chat-input', 'aria-label': 'Message Sprout (Enter sends, Shift+Enter adds a line)', placeholder: 'Ask Sprout… (Enter to send, Shift+Enter for a new line)', rows: '3' });
const sendButton = el('button', { type: 'submit', 'data-testid': 'send', 'aria-label': 'Send' }, 'Send');
const stopButton = el('button', { type: 'button', 'data-testid': 'stop', 'aria-label': 'Stop', class: 'danger', hidden: '' }, 'Stop');
form.append(input, sendButton, stopButton);
app.append(header, notice, setup, log, form);

const nodes = new Map<string, HTMLElement>();
const streams = new Map<string, StreamingMarkdown>();
/** The text element of each thinking part still streaming: deltas append to it as text. */
const thinking = new Map<string, HTMLElement>();
const dirty = new Set<string>();
let frame = 0;

function upsert(entry: ChatEntry): void {
  const node = renderEntry(entry, post);
  streams.delete(entry.id);
  thinking.delete(entry.id);
  if (entry.kind === 'thinking' && !entry.done) thinking.set(entry.id, node.querySelector('pre') ?? node);
  if (entry.kind === 'assistant' && !entry.done) {
    const stream = new StreamingMarkdown(node);
    stream.append(entry.text);
    stream.render();
    streams.set(entry.id, stream);
  }
  const old = nodes.get(entry.id);
  // A part the user opened stays open when it is redrawn.
  if (old instanceof HTMLDetailsElement && old.open && node instanceof HTMLDetailsElement) node.open = true;
  if (old) old.replaceWith(node);
  else log.append(node);
  nodes.set(entry.id, node);
  dirty.delete(entry.id);
  scrollToEnd();
}

function flushDeltas(): void {
  frame = 0;
  for (const id of dirty) streams.get(id)?.render();
  dirty.clear();
  scrollToEnd();
}

function scrollToEnd(): void {
  const nearEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 120;
  if (nearEnd) log.scrollTop = log.scrollHeight;
}

function setRunning(running: boolean): void {
  stopButton.hidden = !running;
  sendButton.disabled = running;
}

function setSetup(info: ChatState['setup']): void {
  setup.hidden = info === null;
  setup.replaceChildren();
  if (!info) return;
  setup.append(el('div', { class: 'head' }, 'Set up Sprout'), el('div', {}, info.reason));
  const actions: [string, 'setApiKey' | 'setBaseUrl' | 'selectModel' | 'useVscodeModel'][] = [];
  if (info.vscodeModels) actions.push(['Use a model already in VS Code', 'useVscodeModel']);
  if (info.needsKey) actions.push(['Set API Key', 'setApiKey'], ['Use a local endpoint', 'setBaseUrl']);
  // With nothing configured the VS Code button already is the way to pick; the full picker would repeat it.
  if (info.needsModel && !(info.vscodeModels && info.needsKey)) actions.push(['Select Model', 'selectModel']);
  for (const [label, action] of actions) {
    const b = el('button', { class: actions[0]?.[1] === action ? 'primary' : '' }, label);
    b.addEventListener('click', () => post({ type: 'setup', action }));
    setup.append(b);
  }
}

function setHistory(history: ChatState['history'], current?: string): void {
  historySelect.replaceChildren(el('option', { value: '' }, 'Past chats…'));
  for (const chat of history) {
    const option = el('option', { value: chat.id }, `${chat.title} · ${new Date(chat.updatedAt).toLocaleString()}`);
    if (chat.id === current) option.selected = true;
    historySelect.append(option);
  }
}

/** One line in the toolbar, cut with an ellipsis in a narrow view; the whole text is the tooltip. */
function setBudget(value: Budget | null): void {
  const text = budgetText(value).line;
  budget.textContent = text;
  budget.title = text;
}

let currentChat = '';
function applySnapshot(state: ChatState): void {
  currentChat = state.chatId;
  log.replaceChildren();
  nodes.clear();
  streams.clear();
  thinking.clear();
  dirty.clear();
  for (const entry of state.entries) upsert(entry);
  setRunning(state.running);
  if (input.value === '' || state.draft !== '') input.value = state.draft;
  setHistory(state.history, state.chatId);
  setSetup(state.setup);
  notice.hidden = state.notice === null;
  notice.textContent = state.notice ?? '';
  setBudget(state.budget);
  log.scrollTop = log.scrollHeight;
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
      return setRunning(m.running);
    case 'history':
      return setHistory(m.history, currentChat);
    case 'setup':
      return setSetup(m.setup);
    case 'notice':
      notice.hidden = m.notice === null;
      notice.textContent = m.notice ?? '';
      return;
    case 'budget':
      return setBudget(m.budget);
    case 'focusInput':
      if (m.text !== undefined) input.value = m.text;
      input.focus();
      return;
    default:
      assertNever(m);
  }
});

function submit(): void {
  const text = input.value.trim();
  if (text === '' || sendButton.disabled) return;
  post({ type: 'send', text });
  input.value = '';
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  submit();
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
});
let draftTimer: ReturnType<typeof setTimeout> | undefined;
input.addEventListener('input', () => {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => post({ type: 'draft', text: input.value }), 300);
});
stopButton.addEventListener('click', () => post({ type: 'stop' }));
newChat.addEventListener('click', () => post({ type: 'newChat' }));
historySelect.addEventListener('change', () => {
  if (historySelect.value !== '') post({ type: 'openChat', chatId: historySelect.value });
});
log.addEventListener('click', (event) => {
  const target = (event.target as HTMLElement).closest<HTMLElement>('[data-action="copy-code"]');
  if (!target) return;
  const code = target.parentElement?.querySelector('code')?.textContent ?? '';
  post({ type: 'copy', text: code });
  target.textContent = 'Copied';
  setTimeout(() => (target.textContent = 'Copy'), 1200);
});

post({ type: 'ready' });
