// The chat webview's hook cards (src/webview/hookCards.ts), in real headless Chromium with the real
// bundle: a turn that ends with a hook objection standing says why, shows the hook's text and offers
// "Continue anyway"; an objection lists its failing tests (by package in a monorepo), each opening its
// file; a `_PreToolUse` denial is said on its tool card, an injection is a card naming its hook and
// server, and the footer counts the quiet calls. Hook text is always text, never markup.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatState, webviewPageForFile } from './webviewPage';

const view = webviewPageForFile({ first: [{ type: 'snapshot', state: chatState({ chatId: 'h', running: true }) }] });

const send = (message: unknown): Promise<void> => view.send(message);

test('a turn cut by the round cap with an objection standing says so and offers Continue anyway', async () => {
  const objection = { server: 'tests', text: '2 tests fail <b>not bold</b>' };
  await send({ type: 'entry', entry: { kind: 'outcome', id: 'o1', reason: 'max_rounds', unresolved: { cause: 'max_rounds', objections: [objection] } } });
  const card = await view.page.evaluate(() => {
    const node = document.querySelector('[data-testid=turn-outcome][data-reason=max_rounds]');
    return { head: node?.querySelector('.head')?.textContent, why: node?.querySelector('.unresolved')?.textContent, hook: node?.querySelector('.hook-text')?.textContent, bold: node?.querySelectorAll('b').length };
  });
  assert.deepEqual(card, {
    head: 'Stopped: the maximum number of rounds was reached (sprout.agent.maxRounds).',
    why: 'The round limit came before the agent could act on the objection:',
    hook: 'tests: 2 tests fail <b>not bold</b>',
    bold: 0,
  });
  await view.page.click('[data-testid=turn-outcome][data-reason=max_rounds] [data-testid=continue-anyway]');
  const posted = await view.page.evaluate(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.map((m) => m.type));
  assert.ok(posted.includes('continueAnyway'), `posted: ${posted.join(', ')}`);
});

test('an objection that carries failing tests lists them; each opens its file at the line, and "Show in Testing" asks for the Testing view', async () => {
  const failures = [
    { name: 'cart › totals prices', file: 'src/cart.test.js', line: 5, message: 'expect(received).toBe(expected)\nExpected: 11\nReceived: 12' },
    { name: '<img src=x onerror=alert(1)> no file', message: 'boom <b>not bold</b>' },
  ];
  await send({ type: 'entry', entry: { kind: 'objection', id: 'obj1', server: 'tests', text: 'The tests fail.', used: 1, max: 3, failures } });
  const card = await view.page.evaluate(() => {
    const node = document.querySelector('[data-testid=hook-objection]:last-of-type');
    const items = [...(node?.querySelectorAll('[data-testid=objection-failure]') ?? [])];
    return {
      items: items.map((li) => ({
        name: li.querySelector('.failure-name')?.textContent,
        open: li.querySelector('[data-testid=failure-open]')?.textContent ?? null,
        message: li.querySelector('.failure-message')?.textContent,
      })),
      injected: node?.querySelectorAll('img, b').length,
      hookText: node?.querySelector('.hook-text')?.textContent,
    };
  });
  assert.deepEqual(card, {
    items: [
      { name: 'cart › totals prices', open: 'src/cart.test.js:5', message: 'expect(received).toBe(expected)\nExpected: 11\nReceived: 12' },
      { name: '<img src=x onerror=alert(1)> no file', open: null, message: 'boom <b>not bold</b>' },
    ],
    injected: 0,
    hookText: 'The tests fail.',
  });
  await view.page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
  await view.page.click('[data-testid=hook-objection] [data-testid=failure-open]');
  await view.page.click('[data-testid=hook-objection] [data-testid=show-in-testing]');
  const posted = await view.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted);
  assert.deepEqual(posted, [{ type: 'openLocation', file: 'src/cart.test.js', line: 5 }, { type: 'showInTesting' }]);
});

test('a monorepo objection groups its failing tests by package, package names as text', async () => {
  const failures = [
    { name: 'totals prices', file: 'packages/cart/src/cart.test.js', line: 4, message: 'Expected: 11', package: '@mono/cart' },
    { name: 'labels many items', file: 'packages/labels/src/label.test.js', line: 9, message: 'Expected: 3 items', package: '<b>@mono/labels</b>' },
    { name: 'one item', file: 'packages/cart/src/cart.test.js', line: 12, message: 'Expected: 4', package: '@mono/cart' },
  ];
  await send({ type: 'entry', entry: { kind: 'objection', id: 'obj-mono', server: 'tests', text: 'The tests fail.', used: 1, max: 3, failures } });
  const groups = await view.page.evaluate(() => {
    const node = [...document.querySelectorAll('[data-testid=hook-objection]')].pop();
    return {
      groups: [...(node?.querySelectorAll('[data-testid=failure-package]') ?? [])].map((g) => ({
        name: g.querySelector('.failure-package-name')?.textContent,
        tests: [...g.querySelectorAll('[data-testid=objection-failure] .failure-name')].map((n) => n.textContent),
      })),
      injected: node?.querySelectorAll('b').length,
    };
  });
  assert.deepEqual(groups, {
    groups: [
      { name: '@mono/cart (2)', tests: ['totals prices', 'one item'] },
      { name: '<b>@mono/labels</b> (1)', tests: ['labels many items'] },
    ],
    injected: 0,
  });
});

test('a call a _PreToolUse hook denied says "Blocked by <server>: <text>" on its card, in view; an injection is a card naming its hook and server; the footer counts quiet calls', async () => {
  const hostile = 'no <script>alert(1)</script> rm -rf';
  await send({
    type: 'entry',
    entry: { kind: 'tool', id: 't-bad', name: 'workspace__run_command', args: '{"command":"rm -rf /"}', status: 'denied', result: '{"hook":"_PreToolUse"}', blocked: { server: 'guard', text: hostile } },
  });
  await send({ type: 'entry', entry: { kind: 'injection', id: 'i1', hook: '_UserPromptSubmit', server: 'ctx', text: 'Prefer <b>small</b> diffs.\nAnd tests.' } });
  await send({
    type: 'entry',
    entry: { kind: 'outcome', id: 'o-hooks', reason: 'end_turn', turn: 0, checks: [{ server: 'guard', hook: '_PreToolUse', durationMs: 9, calls: 2 }, { server: 'tests', hook: '_Stop', durationMs: 4 }] },
  });
  const shown = await view.page.evaluate(() => {
    const card = document.querySelector<HTMLElement>('[data-testid=tool-card][data-status=denied]');
    const injection = document.querySelector<HTMLDetailsElement>('[data-testid=hook-injection]');
    return {
      blocked: card?.querySelector('[data-testid=tool-blocked]')?.textContent,
      state: card?.querySelector('.tool-state')?.textContent,
      scripts: document.querySelectorAll('main script, main b').length,
      result: card?.querySelector('.result')?.textContent ?? null,
      injectionOpen: injection?.open,
      injection: injection?.querySelector('.injection-who')?.textContent,
      preview: injection?.querySelector('.injection-preview')?.textContent,
      injected: injection?.querySelector('.hook-text')?.textContent,
      details: injection?.querySelector('.hook-details')?.textContent ?? '',
      checks: [...document.querySelectorAll('[data-testid=checks-passed]')].at(-1)?.getAttribute('title'),
      checksText: [...document.querySelectorAll('[data-testid=checks-passed]')].at(-1)?.textContent,
    };
  });
  assert.equal(await view.page.locator('[data-testid=tool-blocked]').isVisible(), true, 'the denial shows without opening the card');
  assert.match(shown.details, /Hook _UserPromptSubmit of the MCP server ctx/);
  assert.deepEqual(
    { ...shown, details: undefined },
    {
      blocked: `Blocked by guard: ${hostile}`,
      state: undefined,
      scripts: 0,
      result: null,
      injectionOpen: false,
      injection: 'Prompt check by ctx:',
      preview: 'Prefer <b>small</b> diffs.',
      injected: 'Prefer <b>small</b> diffs.\nAnd tests.',
      details: undefined,
      checks: 'guard _PreToolUse: allowed the call (2 calls, up to 9 ms)\ntests _Stop: no objection (4 ms)',
      checksText: 'Tool check, Completion check passed (guard, tests)',
    },
  );
});
