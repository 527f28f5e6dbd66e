// The chat webview's rendering, in real headless Chromium with the real bundle: streamed text settles
// into fixed chunks at blank lines outside code fences (earlier chunks are never rebuilt), a code block
// with blank lines inside stays one block, and the finished answer is rendered whole (the hook cards:
// webviewHookCards.test.ts).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatState, webviewPageForFile } from './webviewPage';
import { ChatViewState } from '../../src/extension/chat/chatViewState';
import type { AgentEvent } from '../../src/agent/events';
import type { HostMessage } from '../../src/shared/protocol';

const view = webviewPageForFile();

const send = (message: unknown): Promise<void> => view.send(message);
const nextFrames = (): Promise<unknown> => view.frames();

test('streams into fixed chunks and renders the finished answer whole', async () => {
  const state = chatState({ running: true });
  await send({ type: 'snapshot', state });
  await send({ type: 'entry', entry: { kind: 'assistant', id: 'a', text: 'First paragraph.', done: false } });
  await send({ type: 'delta', id: 'a', text: '\n\nSecond' });
  await nextFrames();
  const firstChunk = await view.page.$('[data-testid=assistant-message] .md-chunk');
  assert.ok(firstChunk, 'the first paragraph settled into a chunk');
  assert.equal(await firstChunk.textContent(), 'First paragraph.\n');
  await view.page.evaluate(() => ((window as unknown as { __first: Element | null }).__first = document.querySelector('.md-chunk')));

  // A blank line inside a fence is not a boundary: the code block must not be cut in two.
  const parts = [' paragraph.\n\n```js\nconst a = 1;\n', '\n', '\nconst b = 2;\n```\n\n', 'Tail *text*'];
  for (const text of parts) {
    await send({ type: 'delta', id: 'a', text });
    await nextFrames();
  }
  const shown = await view.page.evaluate(() => ({
    sameFirst: (window as unknown as { __first: Element | null }).__first === document.querySelector('.md-chunk'),
    chunks: [...document.querySelectorAll('.md-chunk')].map((c) => c.innerHTML),
    tail: document.querySelector('.md-tail')?.innerHTML ?? '',
    codeBlocks: document.querySelectorAll('[data-testid=assistant-message] pre code').length,
  }));
  assert.equal(shown.sameFirst, true, 'a settled chunk is never rebuilt');
  assert.equal(shown.codeBlocks, 1);
  assert.ok(shown.chunks.some((c) => c.includes('const a = 1;\n\n\nconst b = 2;')), `chunks: ${shown.chunks.join(' | ')}`);
  assert.equal(shown.tail, '<p>Tail <em>text</em></p>\n');

  const full = 'First paragraph.\n\nSecond paragraph.\n\n```js\nconst a = 1;\n\n\nconst b = 2;\n```\n\nTail *text*';
  await send({ type: 'entry', entry: { kind: 'assistant', id: 'a', text: full, done: true } });
  const done = await view.page.evaluate(() => {
    const node = document.querySelector('[data-testid=assistant-message]');
    return { chunks: node?.querySelectorAll('.md-chunk').length, streaming: node?.classList.contains('streaming'), html: node?.innerHTML ?? '' };
  });
  assert.equal(done.chunks, 0);
  assert.equal(done.streaming, false);
  assert.match(done.html, /^<p>First paragraph\.<\/p>\n<p>Second paragraph\.<\/p>\n<div class="code-block"><div class="code-toolbar">/);
});

test('thinking is a collapsed part of its own: deltas append as text, it stays open once opened, markup stays text', async () => {
  await send({ type: 'entry', entry: { kind: 'thinking', id: 'th1', text: 'Consider <img src=x onerror="window.__pwned=1">', done: false } });
  await send({ type: 'delta', id: 'th1', text: ' and then answer.' });
  const streaming = await view.page.evaluate(() => {
    const node = document.querySelector<HTMLDetailsElement>('[data-testid=thinking]');
    return { open: node?.open, summary: node?.querySelector('summary')?.textContent, text: node?.querySelector('pre')?.textContent, imgs: node?.querySelectorAll('img').length };
  });
  assert.deepEqual(streaming, { open: false, summary: 'Thinking…', text: 'Consider <img src=x onerror="window.__pwned=1"> and then answer.', imgs: 0 });
  await view.page.click('[data-testid=thinking] summary');
  await send({ type: 'entry', entry: { kind: 'thinking', id: 'th1', text: 'Consider it and then answer.', done: true } });
  const done = await view.page.evaluate(() => {
    const node = document.querySelector<HTMLDetailsElement>('[data-testid=thinking]');
    return { open: node?.open, summary: node?.querySelector('summary')?.textContent, done: node?.dataset.done, pwned: (window as unknown as { __pwned?: number }).__pwned };
  });
  assert.deepEqual(done, { open: true, summary: 'Thinking', done: 'true', pwned: undefined });
});

test('the setup card offers a model already in VS Code first when VS Code has one', async () => {
  const setup = { reason: 'Sprout needs a model: one already in VS Code, an API key for api.openai.com, or the URL of a local OpenAI-compatible server.', needsKey: true, needsModel: true, vscodeModels: true };
  await send({ type: 'snapshot', state: chatState({ chatId: 'setup', setup }) });
  const card = view.page.locator('[data-testid=setup-card]');
  await card.waitFor();
  assert.deepEqual(await card.locator('button').allTextContents(), ['Use a model already in VS Code', 'Set API Key', 'Use a local endpoint']);
  assert.equal(await card.locator('button.primary').textContent(), 'Use a model already in VS Code');
  await view.page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
  await card.locator('button.primary').click();
  assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted), [{ type: 'setup', action: 'useVscodeModel' }]);
  await send({ type: 'setup', setup: { ...setup, vscodeModels: false } });
  assert.deepEqual(await card.locator('button').allTextContents(), ['Set API Key', 'Use a local endpoint', 'Select Model']);
  // A key is stored but no model chosen: both ways to pick stay on the card.
  await send({ type: 'setup', setup: { ...setup, needsKey: false } });
  assert.deepEqual(await card.locator('button').allTextContents(), ['Use a model already in VS Code', 'Select Model']);
});

test('the model in use is named beside Send; the button opens Select Model; hidden while none is chosen', async () => {
  const model = { label: 'GPT-4o', source: 'vscode', detail: 'GPT-4o (copilot, gpt-4o), a model in VS Code' };
  await send({ type: 'snapshot', state: chatState({ chatId: 'model', model }) });
  const chip = view.page.locator('[data-testid=model-button]');
  await chip.waitFor();
  assert.equal(await chip.textContent(), 'GPT-4o');
  assert.equal(await chip.getAttribute('aria-label'), 'Model: GPT-4o (copilot, gpt-4o), a model in VS Code. Select Model to change it.');
  assert.equal(await chip.locator('.codicon-vscode').count(), 1, 'a VS Code model shows the VS Code icon');
  await view.page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
  await chip.click();
  assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted), [{ type: 'setup', action: 'selectModel' }]);
  await send({ type: 'model', model: { label: 'a-very-long-local-model-name-that-would-push-send-out-of-the-box:latest-q4_K_M', source: 'openai', detail: 'x at localhost:11434' } });
  assert.equal(await chip.locator('.codicon-server-environment').count(), 1, 'an endpoint model shows the server icon');
  const fits = await view.page.evaluate(() => {
    const send = document.querySelector('[data-testid=send]')!.getBoundingClientRect();
    const box = document.querySelector('.input-box')!.getBoundingClientRect();
    return send.right <= box.right && send.width > 0;
  });
  assert.equal(fits, true, 'a long model name is cut, Send stays in the box');
  await send({ type: 'model', model: null });
  assert.equal(await chip.isHidden(), true);
});

test('the copy button of a code block posts its code (found by its data-action, not a test id)', async () => {
  await send({ type: 'entry', entry: { kind: 'assistant', id: 'copy', text: 'Run:\n\n```sh\nnpm test\n```', done: true } });
  const button = (await view.page.$$('[data-testid=assistant-message] .code-block [data-action=copy-code]')).at(-1);
  assert.ok(button, 'the code block has a copy button keyed by data-action');
  await button.click();
  const posted = await view.page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; text?: string }> }).__posted.filter((m) => m.type === 'copy'));
  assert.deepEqual(posted.at(-1), { type: 'copy', text: 'npm test\n' });
  assert.equal(await button.getAttribute('aria-label'), 'Copied');
});

test('a host message the protocol rejects is logged, not acted on', async () => {
  const warnings: string[] = [];
  const onConsole = (message: { type(): string; text(): string }): void => {
    if (message.type() === 'warning') warnings.push(message.text());
  };
  view.page.on('console', onConsole);
  try {
    const before = await view.page.evaluate(() => document.querySelectorAll('[data-testid=hook-event]').length);
    await send({ type: 'entry', entry: { kind: 'hookEvent', id: 'bad', level: 'loud', text: 'not a level' } });
    await nextFrames();
    assert.equal(await view.page.evaluate(() => document.querySelectorAll('[data-testid=hook-event]').length), before, 'nothing rendered');
    assert.ok(warnings.some((w) => /dropped an invalid message from the host/.test(w) && /entry\.level/.test(w)), `warnings: ${warnings.join(' | ')}`);
  } finally {
    view.page.off('console', onConsole);
  }
});

test('a running tool card shows its last progress; a finished one does not', async () => {
  await send({ type: 'snapshot', state: chatState({ chatId: 'p', running: true }) });
  const tool = { kind: 'tool', id: 't-1', name: 'srv__build', args: '{}', status: 'running' };
  await send({ type: 'entry', entry: { ...tool, progress: { progress: 3, total: 6, message: 'Linking' } } });
  assert.equal(await view.page.textContent('[data-testid=tool-progress]'), '3/6 · Linking');
  await send({ type: 'entry', entry: { ...tool, status: 'ok', result: 'built', progress: { progress: 6, total: 6 } } });
  assert.equal(await view.page.$('[data-testid=tool-progress]'), null);
});

test("a subagent's call card names the agent and the model it ran on (hidden characters shown); without a model, the agent alone", async () => {
  await send({ type: 'snapshot', state: { chatId: 's', entries: [], running: true, draft: '', setup: null, notice: null } });
  await send({ type: 'entry', entry: { kind: 'tool', id: 'd', name: 'sprout__delegate', args: '{}', status: 'running' } });
  await send({ type: 'entry', entry: { kind: 'tool', id: 'c1', name: 'workspace__read_file', args: '{}', status: 'ok', subagent: { id: 'sub-1', name: 'scout', model: 'vendor/claude-haiku\u202e-4-5' } } });
  await send({ type: 'entry', entry: { kind: 'tool', id: 'c2', name: 'workspace__read_file', args: '{}', status: 'ok', subagent: { id: 'sub-2', name: 'scout' } } });
  const tags = await view.page.locator('[data-testid=subagent-tag]').allInnerTexts();
  assert.deepEqual(tags.map((t) => t.trim()), ['scout (sub-1) · vendor/claude-haiku\\u202e-4-5', 'scout (sub-2)']);
  assert.equal(await view.page.locator('[data-testid=subagent-model]').getAttribute('title'), 'The model subagent scout ran on');
});

test("a server's question renders its fields, refuses an invalid answer and sends a valid one", async () => {
  await send({ type: 'snapshot', state: chatState({ chatId: 'q', running: true }) });
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      age: { type: 'integer', title: 'Age', minimum: 1, maximum: 120 },
      color: { type: 'string', enum: ['red', 'blue'], default: 'blue' },
      agree: { type: 'boolean', title: 'Agree', default: false },
    },
    required: ['name'],
  };
  const entry = { kind: 'elicitation', id: 'q-r1', requestId: 'r1', server: 'srv', message: 'Who are you? <img src=x onerror=alert(1)>', schema, status: 'pending' };
  await send({ type: 'entry', entry });
  assert.equal(await view.page.textContent('[data-testid=elicitation-card] .question'), 'Who are you? <img src=x onerror=alert(1)>');
  assert.equal(await view.page.$('[data-testid=elicitation-card] img'), null, 'server text is never markup');
  await view.page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
  await view.page.fill('[data-field=age]', '500');
  await view.page.click('[data-testid=elicitation-accept]');
  const errors = await view.page.$$eval('[data-testid=elicitation-card] .field-error', (nodes) => nodes.map((n) => n.textContent));
  assert.ok(errors.some((t) => t?.includes('Name is required')) && errors.some((t) => t?.includes('at most 120')), JSON.stringify(errors));
  assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted), [], 'nothing is sent while the form is invalid');
  await view.page.fill('[data-field=name]', 'Ada');
  await view.page.fill('[data-field=age]', '36');
  await view.page.click('[data-testid=elicitation-accept]');
  const posted = await view.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted);
  assert.deepEqual(posted, [{ type: 'elicitationAnswer', id: 'r1', action: 'accept', content: { name: 'Ada', age: 36, color: 'blue', agree: false } }]);
  await send({ type: 'entry', entry: { ...entry, status: 'decline' } });
  assert.match((await view.page.textContent('[data-testid=elicitation-card]')) ?? '', /You declined to answer/);
  assert.equal(await view.page.$('[data-testid=elicitation-accept]'), null);
});

test('the "N instructions" note names each file as a link that opens it (the file name as text; the click names its note)', async () => {
  const files = ['AGENTS.md', 'packages/<b>web</b>/AGENTS.md'];
  await send({ type: 'entry', entry: { kind: 'hookEvent', id: 'instr1', level: 'info', text: '2 instructions: AGENTS.md (at the workspace root), packages/<b>web</b>/AGENTS.md (in packages/<b>web</b>).', files } });
  const links = await view.page.evaluate(() => [...document.querySelectorAll('[data-testid=hook-event]:last-of-type [data-testid=note-file]')].map((b) => b.textContent));
  assert.deepEqual(links, files);
  assert.equal(await view.page.evaluate(() => document.querySelectorAll('[data-testid=hook-event] b').length), 0, 'a file name is text, not markup');
  await view.page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
  await view.page.click('[data-testid=hook-event]:last-of-type [data-testid=note-file]:nth-of-type(2)');
  assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted), [{ type: 'openLocation', file: 'packages/<b>web</b>/AGENTS.md', entryId: 'instr1' }]);
});

// A lone </think> (DeepSeek-R1 distills on vLLM, https://github.com/vllm-project/vllm/issues/13125): the
// text shown live as the answer is taken back. The host's own view state turns the core's events into
// messages, and the page draws them: the streamed part becomes the collapsed thinking, the answer follows.
test('text streamed as the answer, then reclassified as thinking, is redrawn as the thinking part; the answer follows apart', async () => {
  const posted: HostMessage[] = [];
  const state = new ChatViewState((m) => posted.push(m));
  await send({ type: 'snapshot', state: chatState({ chatId: 'r', running: true }) });
  const events: AgentEvent[] = [
    { type: 'prompt_started', text: 'add' },
    { type: 'text_delta', delta: 'Two plus' },
    { type: 'text_delta', delta: ' two.' },
  ];
  const play = async (list: AgentEvent[]): Promise<void> => {
    for (const event of list) state.apply(event);
    for (const message of posted.splice(0)) await send(message);
    await nextFrames();
  };
  await play(events);
  assert.match((await view.page.textContent('[data-testid=assistant-message]:last-of-type')) ?? '', /Two plus two\./, 'shown live as the answer first');
  await play([
    { type: 'text_reclassified', text: 'Two plus two.' },
    { type: 'reasoning_delta', delta: ' Four.' },
    { type: 'text_delta', delta: 'It is 4.' },
    { type: 'message', message: { role: 'assistant', content: 'It is 4.', reasoning: 'Two plus two. Four.' } },
  ]);
  const shown = await view.page.evaluate(() => ({
    answers: [...document.querySelectorAll('[data-testid=assistant-message]')].map((n) => n.textContent ?? ''),
    thinking: [...document.querySelectorAll('[data-testid=thinking]')].map((n) => ({ text: n.querySelector('pre')?.textContent ?? '', open: (n as HTMLDetailsElement).open })),
  }));
  assert.ok(!shown.answers.some((a) => a.includes('Two plus two')), `no answer part holds the thinking: ${shown.answers.join(' | ')}`);
  assert.ok(shown.answers.some((a) => a.includes('It is 4.')), shown.answers.join(' | '));
  assert.deepEqual(shown.thinking.at(-1), { text: 'Two plus two. Four.', open: false });
});
