// The composer's mode picker in real headless Chromium with the real chat bundle: the mode picked goes
// with the prompt (`send` carries it; Agent, the default, is left out), and it is kept per chat: another
// chat shows Agent, and coming back shows the mode picked there; a reopened chat starts in the mode of its
// last message, and Ask and Plan messages are tagged. What the host and core do with the mode
// is tested through the CLI (test/integration/cli/cliModes.test.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { chatState, HOOKS_OFF, webviewPageForFile } from './webviewPage';

const SHOTS = resolve(__dirname, '..', '..', 'test-results', 'webview');

const state = (chatId: string, entries: unknown[] = []): unknown => chatState({ chatId, entries, hooks: HOOKS_OFF });

const view = webviewPageForFile({ viewport: { width: 420, height: 640 } });

async function sendPrompt(text: string): Promise<Record<string, unknown> | undefined> {
  await view.clearPosted();
  await view.page.locator('[data-testid=chat-input]').fill(text);
  await view.page.locator('[data-testid=chat-input]').press('Enter');
  return (await view.posted()).find((m) => m.type === 'send');
}

test('the picked mode goes with the prompt; Agent is the default and is not sent', async () => {
  await view.send({ type: 'snapshot', state: state('one') });
  const picker = view.page.locator('[data-testid=mode-picker]');
  assert.equal(await picker.inputValue(), 'agent');
  assert.deepEqual(await picker.locator('option').allTextContents(), ['Agent', 'Ask', 'Plan']);
  assert.deepEqual(await sendPrompt('hello'), { type: 'send', text: 'hello' });
  await picker.selectOption('plan');
  assert.match((await picker.getAttribute('title')) ?? '', /numbered plan/);
  assert.deepEqual(await sendPrompt('plan the discount'), { type: 'send', text: 'plan the discount', mode: 'plan' });
  assert.deepEqual(await sendPrompt('and the tests?'), { type: 'send', text: 'and the tests?', mode: 'plan' }, 'the mode stays for the next prompt');
});

test('the mode is kept per chat: another chat shows Agent, coming back shows Plan', async () => {
  await view.send({ type: 'snapshot', state: state('one') });
  const picker = view.page.locator('[data-testid=mode-picker]');
  await picker.selectOption('plan');
  await view.send({ type: 'snapshot', state: state('two') });
  assert.equal(await picker.inputValue(), 'agent');
  await picker.selectOption('ask');
  assert.deepEqual(await sendPrompt('where is the total?'), { type: 'send', text: 'where is the total?', mode: 'ask' });
  await view.send({ type: 'snapshot', state: state('one') });
  assert.equal(await picker.inputValue(), 'plan');
  await view.send({ type: 'snapshot', state: state('two') });
  assert.equal(await picker.inputValue(), 'ask');
});

test('a reopened chat starts in the mode of its last message, which is tagged with it', async () => {
  const entries = [
    { kind: 'user', id: 'u1', text: 'where is the total?', mode: 'ask' },
    { kind: 'assistant', id: 'a1', text: 'In cart.ts.', done: true },
    { kind: 'user', id: 'u2', text: 'plan a discount', mode: 'plan' },
    { kind: 'assistant', id: 'a2', text: '1. Add a field', done: true },
  ];
  await view.send({ type: 'snapshot', state: state('reopened', entries) });
  assert.equal(await view.page.locator('[data-testid=mode-picker]').inputValue(), 'plan');
  assert.deepEqual(await view.page.locator('[data-testid=message-mode]').allTextContents(), ['Ask', 'Plan']);
  await view.send({ type: 'snapshot', state: state('plain', [{ kind: 'user', id: 'u', text: 'hi' }]) });
  assert.equal(await view.page.locator('[data-testid=mode-picker]').inputValue(), 'agent');
  assert.equal(await view.page.locator('[data-testid=message-mode]').count(), 0, 'Agent messages carry no tag');
});

test('a plan card offers its steps to edit and Approve, which posts the edited text once; approved, the picker goes back to Agent', async () => {
  const entries = [
    { kind: 'user', id: 'u1', text: 'plan a discount', mode: 'plan' },
    { kind: 'assistant', id: 'a1', text: '1. Add a field\n2. Apply it', done: true },
    { kind: 'plan', id: 'p1', steps: ['Add a field', 'Apply it'], state: 'open' },
  ];
  await view.send({ type: 'snapshot', state: state('planned', entries) });
  const picker = view.page.locator('[data-testid=mode-picker]');
  assert.equal(await picker.inputValue(), 'plan');
  const box = view.page.locator('[data-testid=plan-steps]');
  assert.equal(await box.inputValue(), '1. Add a field\n2. Apply it');
  await box.fill('1. Add a field\n2. Apply it at checkout\n3. Test it');
  await view.clearPosted();
  await view.page.locator('[data-testid=approve-plan]').click();
  assert.deepEqual((await view.posted()).filter((m) => m.type === 'approvePlan'), [{ type: 'approvePlan', text: '1. Add a field\n2. Apply it at checkout\n3. Test it' }]);
  assert.equal(await view.page.locator('[data-testid=approve-plan]').isDisabled(), true, 'one click, one approval');
  mkdirSync(SHOTS, { recursive: true });
  await view.page.screenshot({ path: join(SHOTS, 'plan-card-open.png') });
  await view.send({ type: 'entry', entry: { kind: 'plan', id: 'p1', steps: ['Add a field', 'Apply it at checkout', 'Test it'], state: 'approved' } });
  assert.match(await view.page.locator('[data-testid=plan-state]').textContent() ?? '', /Approved: the steps are the todo list/);
  assert.equal(await view.page.locator('[data-testid=approve-plan]').count(), 0);
  assert.equal(await picker.inputValue(), 'agent', 'the approved plan runs in Agent mode, and the picker says so');
});
