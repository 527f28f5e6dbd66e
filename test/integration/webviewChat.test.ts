// The chat webview's layout and behaviour in real headless Chromium with the real bundles (chat and
// highlighter) and CSS: an approval that arrives after a long answer is brought into view and read out
// even when the user had scrolled up; the view follows new content until the user scrolls up, then
// offers "Jump to latest"; code blocks have a toolbar above the code, highlighted, long lines scrolling;
// the message box keeps its width when Stop replaces Send and grows with its text; the empty state,
// the notice, tool cards and the turn footer post what the user asked for; a short, wide view (the
// bottom panel) keeps half its height for the conversation, its setup buttons on screen.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatState, webviewPageForFile } from './webviewPage';

const state = (entries: unknown[], extra: Record<string, unknown> = {}): unknown =>
  chatState({
    entries,
    hooks: { state: 'on', text: 'Completion check: tests · 3 of 3 left', tooltip: '3 objections left in this chat' },
    ...extra,
  });

const view = webviewPageForFile({ highlighter: true, viewport: { width: 420, height: 640 } });

const send = (message: unknown): Promise<void> => view.send(message);
const frames = (): Promise<unknown> => view.frames();
const posted = (): Promise<Array<Record<string, unknown>>> => view.posted();
const clearPosted = (): Promise<void> => view.clearPosted();

function longAnswer(): string {
  const code = Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // a line of code`).join('\n');
  return `Here is the plan.\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${'More words in a long paragraph. '.repeat(80)}`;
}

test('the empty state offers example prompts and the hooks line; a click puts the prompt in the box', async () => {
  await send({ type: 'snapshot', state: state([]) });
  assert.equal(await view.page.locator('[data-testid=example-prompt]').count(), 3);
  assert.match((await view.page.locator('[data-testid=empty-hooks]').textContent()) ?? '', /Completion check: tests/);
  assert.match((await view.page.locator('[data-testid=hooks-summary]').textContent()) ?? '', /Completion check: tests · 3 of 3 left/);
  await view.page.locator('[data-testid=example-prompt]').first().click();
  assert.equal(await view.page.locator('[data-testid=chat-input]').inputValue(), 'Explain how this project is organised');
});

test('an approval after a long answer is scrolled into view and announced, even when the user scrolled up', async () => {
  await send({ type: 'snapshot', state: state([{ kind: 'user', id: 'u', text: 'Write the file' }], { running: true }) });
  await send({ type: 'entry', entry: { kind: 'assistant', id: 'a', text: longAnswer(), done: true } });
  await frames();
  const atEnd = await view.page.evaluate(() => {
    const log = document.querySelector('.log')!;
    return log.scrollHeight - log.scrollTop - log.clientHeight;
  });
  assert.ok(atEnd < 30, `the view follows the answer to its end (${atEnd} px left)`);
  await view.page.evaluate(() => (document.querySelector('.log')!.scrollTop = 0));
  await frames();
  assert.equal(await view.page.locator('[data-testid=jump-latest]').isVisible(), true, 'scrolled up: Jump to latest shows');
  await send({ type: 'entry', entry: { kind: 'tool', id: 't-1', name: 'workspace__write_file', args: '{"path":"src/a.ts","content":"x"}', status: 'running' } });
  await send({
    type: 'entry',
    entry: { kind: 'tool', id: 't-1', name: 'workspace__write_file', args: '{"path":"src/a.ts","content":"x"}', status: 'awaiting_approval', approvalId: 'q', approvalScopes: ['once', 'chat', 'workspace'] },
  });
  await frames();
  const shown = await view.page.evaluate(() => {
    const log = document.querySelector('.log')!.getBoundingClientRect();
    const buttons = document.querySelector('[data-testid=approval] .approval-buttons')!.getBoundingClientRect();
    return { inside: buttons.top >= log.top && buttons.bottom <= log.bottom, said: document.querySelector('[data-testid=announcer]')?.textContent ?? '' };
  });
  assert.equal(shown.inside, true, 'the approval buttons are on screen');
  assert.match(shown.said, /Approval needed: Sprout wants to write file src\/a\.ts/);
  assert.match((await view.page.locator('[data-testid=tool-card] .tool-arg').first().textContent()) ?? '', /src\/a\.ts/);
  await clearPosted();
  await view.page.click('[data-testid=tool-approve]');
  assert.deepEqual(await posted(), [{ type: 'approve', approvalId: 'q', scope: 'once' }]);
  // Back at the end for the next test (a click on "Jump to latest" would wait for a button already hidden).
  await view.page.evaluate(() => {
    const log = document.querySelector('.log')!;
    log.scrollTop = log.scrollHeight;
  });
});

test("the user's own new message brings the view back to the end, wherever it was scrolled", async () => {
  await view.page.evaluate(() => (document.querySelector('.log')!.scrollTop = 0));
  await frames();
  await send({ type: 'entry', entry: { kind: 'user', id: 'u-again', text: 'And now?' } });
  await frames();
  const left = await view.page.evaluate(() => {
    const log = document.querySelector('.log')!;
    return log.scrollHeight - log.scrollTop - log.clientHeight;
  });
  assert.ok(left < 30, `the new message is at the end, in view (${left} px left)`);
  assert.equal(await view.page.locator('[data-testid=jump-latest]').isVisible(), false);
});

test('code blocks: a toolbar above the code, highlighting, long lines scroll instead of wrapping', async () => {
  const long = `const x = "${'y'.repeat(400)}";`;
  await send({ type: 'entry', entry: { kind: 'assistant', id: 'code', text: `\`\`\`ts src/long.ts\n${long}\nfunction f() { return 1; }\n\`\`\``, done: true } });
  await frames();
  const block = await view.page.evaluate(() => {
    const blocks = document.querySelectorAll('.code-block');
    const node = blocks.item(blocks.length - 1);
    const toolbar = node.querySelector('.code-toolbar')!.getBoundingClientRect();
    const pre = node.querySelector('pre')!;
    return {
      below: pre.getBoundingClientRect().top >= toolbar.bottom - 0.5,
      scrolls: pre.scrollWidth > pre.clientWidth,
      keywords: node.querySelectorAll('.hljs-keyword').length,
      label: node.querySelector('.code-lang')?.textContent,
      apply: node.querySelector('[data-action=apply-code]')?.getAttribute('aria-label'),
    };
  });
  assert.deepEqual(block, { below: true, scrolls: true, keywords: 3, label: 'ts · src/long.ts', apply: 'Apply to src/long.ts' });
  await clearPosted();
  await view.page.locator('.code-block').last().locator('[data-action=apply-code]').click();
  await view.page.locator('.code-block').last().locator('[data-action=insert-code]').click();
  const sent = await posted();
  assert.deepEqual(sent.map((m) => [m['type'], m['path']]), [['applyCode', 'src/long.ts'], ['insertCode', undefined]]);
});

test('the message box keeps its width when Stop replaces Send, and grows with its text', async () => {
  const box = view.page.locator('[data-testid=chat-input]');
  const idle = await box.boundingBox();
  await send({ type: 'running', running: true });
  const busy = await box.boundingBox();
  assert.equal(busy?.width, idle?.width);
  assert.equal(await view.page.locator('[data-testid=stop]').isVisible(), true);
  await box.fill('one\ntwo\nthree\nfour');
  await box.dispatchEvent('input');
  const grown = await box.boundingBox();
  assert.ok((grown?.height ?? 0) > (idle?.height ?? 0) * 2, `grew from ${idle?.height} to ${grown?.height}`);
  await send({ type: 'running', running: false });
  await box.fill('');
  // The box saves its draft a moment after the last keystroke: wait for it, so it is not posted during the next test.
  await view.page.waitForFunction(() => (window as unknown as { __posted: Array<Record<string, unknown>> }).__posted.some((m) => m['type'] === 'draft' && m['text'] === ''));
});

test('the message box\'s placeholder fits on its line in a side bar of the default width', async () => {
  // VS Code's side bar opens 300 px wide; the webview inside it is narrower still.
  await view.page.setViewportSize({ width: 280, height: 640 });
  try {
    await send({ type: 'snapshot', state: state([]) });
    const fit = await view.page.locator('[data-testid=chat-input]').evaluate((box: HTMLTextAreaElement) => {
      const style = getComputedStyle(box);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: box.placeholder, needs: context.measureText(box.placeholder).width, room };
    });
    assert.ok(fit.text.length > 0, 'the box has a placeholder');
    assert.ok(fit.needs <= fit.room, `"${fit.text}" needs ${fit.needs.toFixed(0)} px, the box has ${fit.room} px`);
  } finally {
    await view.page.setViewportSize({ width: 420, height: 640 });
  }
});

test('the notice is dismissible, the diff and undo actions post their requests', async () => {
  await send({ type: 'notice', notice: 'Restricted Mode: Sprout does not start db.' });
  assert.equal(await view.page.locator('[data-testid=notice]').isVisible(), true);
  await clearPosted();
  await view.page.click('[data-testid=dismiss-notice]');
  await send({ type: 'entry', entry: { kind: 'tool', id: 't-9', name: 'workspace__edit_file', args: '{"path":"b.ts"}', status: 'ok', result: 'ok', change: { path: 'b.ts', undone: false } } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'o9', reason: 'end_turn', turn: 2, files: { paths: ['b.ts'], undone: false }, checks: [{ server: 'tests', hook: '_Stop', durationMs: 4 }] } });
  await view.page.locator('[data-testid=open-diff]').last().click();
  await view.page.locator('[data-testid=undo-turn]').last().click();
  assert.deepEqual(await posted(), [{ type: 'dismissNotice' }, { type: 'openDiff', entryId: 't-9' }, { type: 'undoTurn', turn: 2 }]);
  assert.match((await view.page.locator('[data-testid=checks-passed]').last().textContent()) ?? '', /Completion check passed \(tests\)/);
});

test("a command's card in a Sprout terminal has Show terminal, which posts its request", async () => {
  await clearPosted();
  await send({ type: 'entry', entry: { kind: 'tool', id: 't-run', name: 'workspace__run_command', args: '{"command":"npm test"}', status: 'running', terminal: true } });
  await send({ type: 'entry', entry: { kind: 'tool', id: 't-hidden', name: 'workspace__run_command', args: '{"command":"ls"}', status: 'ok', result: 'ok' } });
  assert.equal(await view.page.locator('[data-testid=show-terminal]').count(), 1, 'only the card in a terminal has the button');
  await view.page.locator('[data-testid=show-terminal]').click();
  assert.deepEqual(await posted(), [{ type: 'showTerminal', entryId: 't-run' }]);
});

test("a user message's Rewind to here posts its number; an unresolved turn offers Back to last green", async () => {
  await clearPosted();
  await send({ type: 'entry', entry: { kind: 'user', id: 'u7', text: 'make the tests pass', prompt: 3 } });
  await view.page.locator('[data-testid=user-message]').last().hover();
  await view.page.locator('[data-testid=rewind]').last().click();
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'o7', reason: 'end_turn', turn: 2, unresolved: { cause: 'budget_exhausted', objections: [{ server: 'tests', text: '1 failing' }] } } });
  await view.page.locator('[data-testid=back-to-green]').last().click();
  assert.deepEqual(await posted(), [{ type: 'rewind', prompt: 3 }, { type: 'backToGreen' }]);
});

test("each turn's end draws its _Stop verdict: Green, Not green (on a card too), No checks", async () => {
  await send({ type: 'hooks', hooks: { state: 'on', text: 'Completion check: tests · 3 of 3 left', tooltip: '3 objections left in this chat' } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'v1', reason: 'end_turn', turn: 4, verdict: 'passed', checks: [{ server: 'tests', hook: '_Stop', durationMs: 4 }] } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'v2', reason: 'end_turn', turn: 5, verdict: 'objected', unresolved: { cause: 'declined', objections: [{ server: 'tests', text: '1 failing' }] } } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'v3', reason: 'end_turn', turn: 6, verdict: 'none' } });
  const badges = view.page.locator('[data-testid=turn-verdict]');
  const last3 = async (): Promise<Array<[string | null, string]>> => {
    const all = await badges.all();
    return Promise.all(all.slice(-3).map(async (b) => [await b.getAttribute('data-verdict'), (await b.textContent()) ?? ''] as [string | null, string]));
  };
  assert.deepEqual(await last3(), [['passed', 'Green'], ['objected', 'Not green'], ['none', 'No checks']]);
  for (const badge of (await badges.all()).slice(-3)) assert.equal(await badge.isVisible(), true, 'drawn, not only in the DOM');
  assert.match((await badges.nth(-3).getAttribute('title')) ?? '', /Back to last green returns here/);
});

test('"No checks" is not drawn while no completion check exists; a verdict of checks that ran still is', async () => {
  await send({ type: 'hooks', hooks: { state: 'off', text: 'No completion checks', tooltip: 'No hooks are on.' } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'n1', reason: 'end_turn', turn: 7, verdict: 'none' } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'n2', reason: 'error', message: 'The model failed.', turn: 8, verdict: 'none' } });
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'n3', reason: 'end_turn', turn: 9, verdict: 'passed', checks: [{ server: 'tests', hook: '_Stop', durationMs: 4 }] } });
  await frames();
  assert.equal(await view.page.locator('[data-verdict=none]:visible').count(), 0, 'no "No checks" on any turn');
  assert.equal(await view.page.locator('[data-testid=turn-outcome][data-reason=error] .turn-footer').last().isVisible(), false, "the error card keeps no empty footer row");
  assert.equal(await view.page.locator('[data-verdict=passed]').last().isVisible(), true, 'checks that ran still show their verdict');
  await send({ type: 'hooks', hooks: { state: 'on', text: 'Completion check: tests · 3 of 3 left', tooltip: '3 objections left in this chat' } });
  await frames();
  assert.equal(await view.page.locator('[data-verdict=none]').last().isVisible(), true, 'a check exists again: "No checks" says the turn is no green state');
});

test("a handoff button picks its agent and puts its prompt in the box; one with send: true sends it as that agent", async () => {
  // VS Code's custom agents' `handoffs` (https://code.visualstudio.com/docs/copilot/customization/custom-agents#_handoffs).
  await send({ type: 'agents', agents: [{ name: 'test-runner', description: 'Runs the tests', source: '.claude/agents/test-runner.md' }] });
  await send({ type: 'handoffs', handoffs: [{ label: 'Run it', agent: 'test-runner', prompt: 'Run the tests.' }] });
  const handoff = view.page.locator('[data-testid=handoff]');
  assert.equal(await handoff.count(), 1);
  await clearPosted();
  await handoff.click();
  assert.equal(await view.page.locator('[data-testid=mode-picker]').inputValue(), 'agent:test-runner', 'its agent is picked');
  assert.equal(await view.page.locator('[data-testid=chat-input]').inputValue(), 'Run the tests.');
  assert.equal(await view.page.locator('[data-testid=handoffs]').isVisible(), false, 'the buttons are gone once one is used');
  assert.deepEqual(await posted(), [], 'not sent: the user reads the prompt first');
  await view.page.locator('[data-testid=chat-input]').fill('');
  await view.page.locator('[data-testid=mode-picker]').selectOption('agent');

  await send({ type: 'handoffs', handoffs: [{ label: 'Ship', agent: 'TEST-RUNNER', prompt: 'Ship it.', send: true }] });
  await view.page.locator('[data-testid=handoff]').click();
  const sent = (await posted()).filter((m) => m['type'] === 'send');
  assert.equal(sent.length, 1, JSON.stringify(await posted()));
  assert.equal(sent[0]?.['text'], 'Ship it.');
  assert.equal(sent[0]?.['agent'], 'test-runner', 'the agent by its own name, matched in any case');
  await view.page.locator('[data-testid=mode-picker]').selectOption('agent');
});

test('a short, wide view (the bottom panel) keeps half its height for the conversation, with the setup card and with a running chat', async () => {
  // About what the bottom panel gives the webview in a 900 px high window.
  await view.page.setViewportSize({ width: 900, height: 260 });
  const logShare = (): Promise<number> => view.page.evaluate(() => document.querySelector('.log')!.getBoundingClientRect().height / window.innerHeight);
  const setup = { reason: 'Sprout needs an API key for api.openai.com, or the URL of a local OpenAI-compatible server.', needsKey: true, needsModel: true, vscodeModels: false, pendingPrompt: 'Add a discount function to src/cart.ts' };
  try {
    await send({ type: 'snapshot', state: state([], { setup }) });
    await frames();
    const withSetup = await logShare();
    assert.ok(withSetup >= 0.5, `with the setup card the conversation keeps ${(withSetup * 100).toFixed(0)}% of the view`);
    // Every step stays on screen and answers a click, in the panel and in a short view half as wide.
    for (const width of [900, 480]) {
      await view.page.setViewportSize({ width, height: 260 });
      await clearPosted();
      const buttons = view.page.locator('[data-testid=setup-card] [data-testid^=setup-]');
      assert.equal(await buttons.count(), 3);
      for (const b of await buttons.all()) {
        const box = await b.boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= 260 && box.x >= 0 && box.x + box.width <= width, `${await b.textContent()} is on screen at ${width} px: ${JSON.stringify(box)}`);
        await b.click();
      }
      // What the buttons posted (the composer may save its draft between the clicks, on a timer of its own).
      assert.deepEqual((await posted()).filter((m) => m['type'] === 'setup').map((m) => m['action']), ['setApiKey', 'setBaseUrl', 'selectModel']);
    }
    await view.page.setViewportSize({ width: 900, height: 260 });
    const model = { label: 'fake-model', source: 'openai', detail: 'fake-model at localhost' };
    const entries = [{ kind: 'user', id: 'u', text: 'Explain the plan' }, { kind: 'assistant', id: 'a', text: longAnswer(), done: false }];
    await send({ type: 'snapshot', state: state(entries, { running: true, model, usage: { used: 4000, window: 128000, estimated: false } }) });
    await frames();
    const running = await logShare();
    assert.ok(running >= 0.5, `in a running chat the conversation keeps ${(running * 100).toFixed(0)}% of the view`);
    // A long draft grown in the side bar shrinks when the view moves to the panel, and stays out of the conversation's half.
    await view.page.setViewportSize({ width: 420, height: 640 });
    const box = view.page.locator('[data-testid=chat-input]');
    await box.fill('one\ntwo\nthree\nfour\nfive\nsix\nseven\neight');
    await box.dispatchEvent('input');
    assert.ok(((await box.boundingBox())?.height ?? 0) > 130, 'the draft grew in the tall view');
    await view.page.setViewportSize({ width: 900, height: 260 });
    await frames();
    const drafting = await logShare();
    assert.ok(drafting >= 0.5, `with a long draft the conversation keeps ${(drafting * 100).toFixed(0)}% of the view`);
    await box.fill('');
    await view.page.waitForFunction(() => (window as unknown as { __posted: Array<Record<string, unknown>> }).__posted.some((m) => m['type'] === 'draft' && m['text'] === ''));
  } finally {
    await view.page.setViewportSize({ width: 420, height: 640 });
  }
});

test('a command no rule allows offers "Always allow" its first words, as text; the click answers with the rule scope', async () => {
  const hostile = 'npm <img src=x onerror="window.__pwned=1">';
  const entry = { kind: 'tool', id: 't-rule', name: 'workspace__run_command', args: '{"command":"npm test -- -t x"}', status: 'awaiting_approval', approvalId: 'r', approvalScopes: ['once', 'chat', 'workspace', 'rule'] };
  await send({ type: 'snapshot', state: state([{ ...entry, approvalRule: 'npm test' }], { running: true }) });
  await frames();
  assert.equal((await view.page.locator('[data-testid=tool-approve-rule]').textContent())?.trim(), 'Always allow “npm test”');
  await clearPosted();
  await view.page.click('[data-testid=tool-approve-rule]');
  assert.deepEqual(await posted(), [{ type: 'approve', approvalId: 'r', scope: 'rule' }]);
  // The words come from the model's command: shown as text, never as markup.
  await send({ type: 'snapshot', state: state([{ ...entry, approvalId: 'r2', approvalRule: hostile }], { running: true }) });
  await frames();
  assert.equal((await view.page.locator('[data-testid=tool-approve-rule]').textContent())?.trim(), `Always allow “${hostile}”`);
  assert.equal(await view.page.locator('[data-testid=approval] img').count(), 0);
  assert.equal(await view.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  // Not offered (a compound command, a protected write): no such button.
  await send({ type: 'snapshot', state: state([{ ...entry, approvalId: 'r3', approvalScopes: ['once', 'chat', 'workspace'] }], { running: true }) });
  await frames();
  assert.equal(await view.page.locator('[data-testid=tool-approve-rule]').count(), 0);
});
