// E2E: modes, custom agents and rewind as a user meets them in the packaged extension, at 1400x900,
// against the fake OpenAI server and the bundled workspace and todo servers: the mode picker lists the
// workspace's custom agent after Agent, Ask and Plan; a prompt in Plan mode ends with a plan card whose
// steps can be edited; Approve writes them into the todo list and runs the plan in Agent mode (the
// picker follows); each message offers Rewind to here, which takes the conversation back and returns
// the message to the box; a delegated task runs as a subagent whose own tool call shows nested under the
// delegate card; each turn shows its verdict, and Sprout: Back to Last Green says where the chat stands.
// Screenshots go to test-results/e2e (git-ignored): looked at, not compared.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import type { FakeOpenAi, FakeResponse } from '../fakes/fakeOpenAiServer';
import { startChatScenario, type ChatScenario } from './harness/hookScenario';
import type { CodeServerSession } from './harness/codeServerWithVsix';
import { chatView, runCommand, sendPrompt } from './harness/workbench';

const AGENT = '---\nname: reviewer\ndescription: Reviews a change and never edits.\ntools: ["read", "search"]\n---\nReview only: point at problems, never change a file.\n';
const PLAN = 'The plan:\n1. Read src/cart.ts\n2. Add a discount() helper\n3. Run the tests';

function script(): FakeResponse[] {
  return [
    { type: 'reply', text: PLAN },
    { type: 'reply', text: 'Working through the plan now.' },
    { type: 'reply', toolCalls: [{ name: 'sprout__delegate', arguments: { agent: 'reviewer', task: 'Read src/cart.ts and say what total does.' } }] },
    { type: 'reply', toolCalls: [{ name: 'workspace__read_file', arguments: { path: 'src/cart.ts' } }] },
    { type: 'reply', text: 'total sums the prices.' },
    { type: 'reply', text: 'The reviewer says total sums the prices.' },
  ];
}

describe('modes, custom agents and rewind in the packaged extension (1400x900)', { timeout: scaledMs(300_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;
  let fake: FakeOpenAi | undefined;

  before(async () => {
    scenario = await startChatScenario({
      name: 'modes',
      files: { 'src/cart.ts': 'export const total = (p: number[]) => p.reduce((a, b) => a + b, 0);\n', '.github/agents/reviewer.agent.md': AGENT },
      responses: script(),
      userSettings: {
        'workbench.colorTheme': 'Default Light Modern',
        'sprout.model.name': 'fake-model',
        'sprout.mcp.builtinServers': { workspace: true, todo: true, tests: false },
      },
    });
    ({ session, fake } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('lists the custom agent in the picker; a Plan answer becomes an editable plan card; Approve runs the edited plan in Agent mode', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    await chat.getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    const picker = chat.getByTestId('mode-picker');
    await picker.locator('option', { hasText: 'reviewer' }).waitFor({ state: 'attached', timeout: scaledMs(60_000) });
    assert.deepEqual((await picker.locator('option').allTextContents()).slice(0, 3), ['Agent', 'Ask', 'Plan']);
    await picker.selectOption('plan');
    await sendPrompt(chat, 'Plan a discount for the cart');
    const box = chat.getByTestId('plan-steps');
    await box.waitFor({ timeout: scaledMs(60_000) });
    assert.equal(await box.inputValue(), '1. Read src/cart.ts\n2. Add a discount() helper\n3. Run the tests');
    await box.fill('1. Read src/cart.ts\n2. Add a discount() helper with a rate check\n3. Run the tests');
    await session.screenshot('modes-1-plan-card');
    await chat.getByTestId('approve-plan').click();
    await chat.getByTestId('plan-state').waitFor({ timeout: scaledMs(60_000) });
    assert.match(await chat.getByTestId('plan-state').innerText(), /Approved/);
    assert.match(await chat.getByTestId('plan-card').innerText(), /2\. Add a discount\(\) helper with a rate check/, 'the card shows the steps as approved');
    assert.equal(await picker.inputValue(), 'agent', 'the approved plan runs in Agent mode, and the picker says so');
    await chat.getByTestId('assistant-message').filter({ hasText: 'Working through the plan' }).first().waitFor({ timeout: scaledMs(60_000) });
    const approved = fake.chatRequests()[1]?.body as { messages: Array<{ role: string; content: unknown }> } | undefined;
    assert.match(JSON.stringify(approved?.messages.findLast((m) => m.role === 'user')?.content), /approved this plan[\s\S]*a rate check/);
    await session.screenshot('modes-2-plan-approved');
  });

  it('Rewind to here takes the conversation back to before a message, which returns to the box', async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    const messages = chat.getByTestId('user-message');
    assert.equal(await messages.count(), 2);
    await messages.last().hover();
    await session.screenshot('modes-3-rewind-button');
    await messages.last().getByTestId('rewind').click();
    await chat.getByTestId('user-message').nth(1).waitFor({ state: 'detached', timeout: scaledMs(60_000) });
    assert.match(await chat.getByTestId('chat-input').inputValue(), /Carry out the approved plan/);
    await session.screenshot('modes-4-rewound');
  });

  it("a delegated task runs as a subagent whose tool call shows nested under the delegate card; the turn shows its verdict, and Back to Last Green says where the chat stands", async () => {
    assert.ok(session && fake);
    const { page } = session;
    const chat = chatView(page);
    await chat.getByTestId('chat-input').fill('');
    await sendPrompt(chat, 'Ask the reviewer what total does');
    await chat.getByTestId('assistant-message').filter({ hasText: 'The reviewer says total sums the prices.' }).first().waitFor({ timeout: scaledMs(90_000) });
    const child = chat.getByTestId('tool-card').filter({ has: chat.getByTestId('subagent-tag') }).first();
    await child.waitFor({ timeout: scaledMs(30_000) });
    // The reviewer's file names no model: the child ran on the chat's, which its card says.
    assert.match(await child.getByTestId('subagent-tag').innerText(), /^reviewer \(sub-\d+\) · fake-model$/);
    assert.equal(await child.getAttribute('data-status'), 'ok');
    const cards = await chat.getByTestId('tool-card').allInnerTexts();
    const delegateAt = cards.findIndex((t) => /delegate/i.test(t));
    const childAt = cards.findIndex((t) => /reviewer \(sub-/.test(t));
    assert.ok(delegateAt >= 0 && childAt > delegateAt, `the child's card comes under the delegate card: ${cards.join(' | ')}`);
    const verdict = chat.getByTestId('turn-verdict').last();
    await verdict.waitFor({ state: 'attached', timeout: scaledMs(30_000) });
    // The todo list is empty after the rewind, so no _Stop check is asked in this turn: not a green state.
    assert.equal(await verdict.getAttribute('data-verdict'), 'none');
    // "No checks" is drawn only where a completion check exists (the hooks line is not "off").
    const hooksOff = /\bstate-off\b/.test((await chat.getByTestId('hooks-summary').getAttribute('class')) ?? '');
    assert.equal(await verdict.isVisible(), !hooksOff, `"No checks" shown only with a completion check (hooks line off: ${hooksOff})`);
    await child.scrollIntoViewIfNeeded();
    await session.screenshot('modes-5-subagent-nested');
    await runCommand(page, 'Sprout: Back to Last Green');
    // The plan's turn was held by the todo _Stop; what the command says is read off the chat's own verdicts.
    const said = chat.getByTestId('hook-event').filter({ hasText: /^Back to last green: / }).first();
    await said.waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('modes-6-back-to-last-green');
  });
});
