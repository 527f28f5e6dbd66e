// E2E: what the editor knows, as a user sees it in the packaged extension at 1400x900, against the
// fake OpenAI server, the bundled workspace server, the editor's own server with VS Code's built-in
// TypeScript server, and a real MCP server with prompts (test/fakes/promptListServer.ts):
// - "Sprout: Enable Problems Hook" makes the Problems a completion check: a write that leaves a new
//   type error is objected to on a card whose row names the file and line (and opens it), the next
//   round fixes it and the check passes;
// - a shell command's approval card offers "Always allow “npm test”", which saves a command rule to the
//   user settings, and the next `npm test` runs without a question;
// - the repository's AGENTS.md shapes the turn: the turn's "1 instruction" line names it, and opens it;
// - `/` lists the workspace's prompt file, its Claude command, Sprout's own commands and the MCP prompt;
// - with `sprout.tools.runInTerminal` on, a command runs in the "Sprout" terminal beside the chat.
// Screenshots go to test-results/e2e (git-ignored): looked at, not compared.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import type { FakeOpenAi, FakeResponse } from '../fakes/fakeOpenAiServer';
import { startChatScenario, type ChatScenario } from './harness/hookScenario';
import type { CodeServerSession } from './harness/codeServerWithVsix';
import { chatView, runCommand, sendPrompt } from './harness/workbench';
import { waitFor } from '../waitFor';

const CART = 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n';
const BROKEN = "import { total } from './cart';\n\nexport const count: string = total([1]);\n";
const FIXED = "import { total } from './cart';\n\nexport const count: number = total([1]);\n";
const PACKAGE = JSON.stringify({ name: 'cart', version: '1.0.0', private: true, scripts: { test: 'node -e "console.log(\'3 passing\')"' } }, null, 2);
const PROMPT_FILE = '---\ndescription: Fix the failing tests in a file\nargument-hint: <file>\n---\nFix the failing tests in ${input:file}.\n';
const AGENTS = '# Cart\n\nKeep strict types. Run `npm test` before you finish.\n';
const CLAUDE_COMMAND = '---\ndescription: Review the staged change\n---\nReview the staged change: $ARGUMENTS\n';

const write = (path: string, content: string): FakeResponse => ({ type: 'reply', toolCalls: [{ name: 'workspace__write_file', arguments: { path, content } }] });
const run = (command: string): FakeResponse => ({ type: 'reply', toolCalls: [{ name: 'workspace__run_command', arguments: { command } }] });

function script(): FakeResponse[] {
  return [
    write('src/count.ts', BROKEN),
    { type: 'reply', text: 'Done: added count.ts.' },
    write('src/count.ts', FIXED),
    { type: 'reply', text: 'Fixed the type of count.' },
    run('npm test'),
    run('npm test'),
    { type: 'reply', text: 'The tests pass.' },
  ];
}

/** The `sprout.mcp.servers` entry that starts the prompt server (its prompt `review` takes a topic). */
function promptServer(): Record<string, unknown> {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { type: 'stdio', command: process.execPath, args: ['--import', tsx, join(__dirname, '..', 'fakes', 'promptListServer.ts')] };
}

describe('what the editor knows, in the packaged extension (1400x900)', { timeout: scaledMs(420_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;
  let fake: FakeOpenAi | undefined;

  before(async () => {
    scenario = await startChatScenario({
      name: 'editor',
      files: {
        'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', noEmit: true }, include: ['src'] }),
        'src/cart.ts': CART,
        'package.json': PACKAGE,
        '.github/prompts/fix-tests.prompt.md': PROMPT_FILE,
        '.claude/commands/review-staged.md': CLAUDE_COMMAND,
        'AGENTS.md': AGENTS,
      },
      responses: script(),
      userSettings: {
        'workbench.colorTheme': 'Default Light Modern',
        'sprout.model.name': 'fake-model',
        'sprout.mcp.servers': { prompts: promptServer() },
        'sprout.mcp.builtinServers': { workspace: true, todo: false, tests: false },
        // The writes run unasked, as a user who allowed them; the commands are asked.
        'sprout.tools.autoApprove': ['workspace__write_file'],
        // The wait for the TypeScript server is bounded by the hook timeout: generous on a shared machine.
        'sprout.hooks.timeoutMs': scaledMs(60_000),
        'sprout.hooks.repeatedEndTurnStops': true,
      },
    });
    ({ session, fake } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('Enable Problems Hook: a new type error is objected to on a card whose row opens the file at the line; the fix passes', async () => {
    assert.ok(session && fake && scenario);
    const { page } = session;
    const chat = chatView(page);
    await chat.getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    await runCommand(page, 'Sprout: Enable Problems Hook');
    await page.locator('.notification-toast', { hasText: "the editor's Problems are now a completion check" }).waitFor({ timeout: scaledMs(30_000) });
    const workspaceSettings = JSON.parse(readFileSync(join(scenario.workspace, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(workspaceSettings['sprout.hooks.servers'], ['editor']);
    await page.keyboard.press('Escape');
    await sendPrompt(chat, 'Add a count of the cart.');
    const objection = chat.getByTestId('hook-objection').first();
    await objection.waitFor({ timeout: scaledMs(120_000) });
    const row = objection.getByTestId('objection-failure').first();
    await row.waitFor({ timeout: scaledMs(30_000) });
    assert.match(await row.innerText(), /ts\(2322\)/);
    assert.match(await row.getByTestId('failure-open').innerText(), /^src\/count\.ts:3\b/);
    assert.match(await row.innerText(), /Type 'number' is not assignable to type 'string'/);
    assert.equal(await objection.getByTestId('objection-failure').count(), 1, 'one new error, nothing else');
    assert.equal(await objection.getByTestId('show-in-testing').count(), 0, 'the Testing view has no Problems: no button to it');
    await chat.getByTestId('assistant-message').filter({ hasText: 'Fixed the type of count.' }).first().waitFor({ timeout: scaledMs(120_000) });
    await objection.getByTestId('objection-outcome').filter({ hasText: 'The agent acted on it' }).waitFor({ timeout: scaledMs(60_000) });
    await session.screenshot('editor-1-problems-objection');
    // The repository's AGENTS.md reached the model as instructions, and the turn says so with a link to it.
    const instructions = chat.getByTestId('hook-event').filter({ hasText: '1 instruction: AGENTS.md (at the workspace root)' }).first();
    await instructions.waitFor({ timeout: scaledMs(30_000) });
    await instructions.scrollIntoViewIfNeeded();
    await session.screenshot('editor-1b-instructions-line');
    const system = JSON.stringify((fake.chatRequests()[0]?.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'system'));
    assert.match(system, /Keep strict types\. Run `npm test` before you finish\./, 'AGENTS.md went to the model as instructions');
    await instructions.getByTestId('note-file').filter({ hasText: 'AGENTS.md' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'AGENTS.md' }).first().waitFor({ timeout: scaledMs(30_000) });
    await row.getByTestId('failure-open').click();
    await page.locator('.tabs-container .tab', { hasText: 'count.ts' }).first().waitFor({ timeout: scaledMs(30_000) });
    assert.equal(fake.chatRequests().length, 4, 'write, done (objected), fix, done (passed)');
  });

  it('offers "Always allow “npm test”" on the command\'s card, saves the rule to the user settings, and the next npm test runs unasked', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    await sendPrompt(chat, 'Run the tests.');
    const offer = chat.getByTestId('tool-approve-rule');
    await offer.waitFor({ timeout: scaledMs(60_000) });
    assert.equal((await offer.innerText()).trim(), 'Always allow “npm test”');
    assert.equal(await offer.getAttribute('aria-label'), 'Always allow “npm test” (a command rule in your user settings)');
    await session.screenshot('editor-2-always-allow-npm-test');
    await offer.click();
    await chat.getByTestId('assistant-message').filter({ hasText: 'The tests pass.' }).first().waitFor({ timeout: scaledMs(120_000) });
    const cards = chat.locator('[data-testid=tool-card]').filter({ hasText: 'npm test' });
    assert.equal(await cards.count(), 2);
    assert.deepEqual([await cards.nth(0).getAttribute('data-status'), await cards.nth(1).getAttribute('data-status')], ['ok', 'ok']);
    const user = JSON.parse(readFileSync(session.userSettingsFile, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(user['sprout.tools.commandRules'], [{ allow: 'npm test' }]);
    assert.equal(fake.chatRequests().length, 7, 'the second npm test was not asked: the model went on at once');
  });

  it('lists the prompt file, the Claude command, Sprout\'s commands and the MCP prompt in the / menu', async () => {
    assert.ok(session);
    const chat = chatView(session.page);
    const input = chat.getByTestId('chat-input');
    const menu = chat.getByTestId('slash-menu');
    const items = menu.getByTestId('slash-item');
    // The MCP prompt joins the list once the server is up: type / until it is there.
    await waitFor(
      async () => {
        await input.fill('');
        await input.pressSequentially('/');
        await menu.waitFor({ timeout: scaledMs(15_000) });
        return (await items.allInnerTexts()).some((t) => t.includes('/mcp.prompts.review')) || undefined;
      },
      'the MCP prompt in the / menu',
      { idleBoundMs: 60_000, everyMs: 1000 },
    );
    const texts = await items.allInnerTexts();
    for (const expected of [/\/new\b/, /\/fix-tests <file>[\s\S]*Fix the failing tests in a file/, /\/review-staged[\s\S]*Review the staged change/, /\/mcp\.prompts\.review[\s\S]*Review a topic/]) {
      assert.ok(texts.some((t) => expected.test(t)), `${expected} in the menu: ${texts.join(' | ')}`);
    }
    // The MCP prompt's name with its arguments is long for the sidebar: its description goes under it, not off the edge.
    const review = items.filter({ hasText: '/mcp.prompts.review' });
    const fits = await review.evaluate((item) => {
      const box = item.getBoundingClientRect();
      const parts = [...item.querySelectorAll('.slash-name, .slash-description')].map((p) => p.getBoundingClientRect());
      return parts.every((p) => p.width > 0 && p.right <= box.right + 1);
    });
    assert.equal(fits, true, 'the name and the description of /mcp.prompts.review are inside the menu');
    await session.screenshot('editor-3-slash-menu');
    await input.pressSequentially('fix');
    assert.match((await items.first().innerText()).trim(), /^\/fix-tests/);
    await input.press('Escape');
    await input.fill('');
  });
});

describe('the Sprout terminal beside the chat (sprout.tools.runInTerminal)', { timeout: scaledMs(240_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;

  before(async () => {
    scenario = await startChatScenario({
      name: 'terminal',
      files: { 'package.json': PACKAGE },
      responses: [run('npm test'), { type: 'reply', text: 'The tests pass.' }],
      userSettings: {
        'workbench.colorTheme': 'Default Light Modern',
        'sprout.model.name': 'fake-model',
        'sprout.mcp.builtinServers': { workspace: true, todo: false, tests: false },
        'sprout.tools.runInTerminal': true,
        // The DOM renderer: the terminal's text is in the page, for the test to read.
        'terminal.integrated.gpuAcceleration': 'off',
      },
    });
    ({ session } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('runs the approved command in a terminal named Sprout, shown in the panel while the chat stays open', async () => {
    assert.ok(session);
    const { page } = session;
    const chat = chatView(page);
    await chat.getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    await sendPrompt(chat, 'Run the tests in a terminal I can watch.');
    await chat.getByTestId('tool-approve').click({ timeout: scaledMs(60_000) });
    // The card links to its terminal; the panel shows it (how the command ends is not this test's).
    // Where the terminal could not be used, the chat says so: that fails at once, not after the guard.
    const hidden = chat.getByText('Commands run as a hidden process');
    await chat.getByTestId('show-terminal').or(hidden).first().waitFor({ timeout: scaledMs(60_000) });
    assert.equal(await hidden.count(), 0, 'the command ran as a hidden process: the terminal\'s shell integration did not start');
    const panel = page.locator('.part.panel');
    await panel.locator('.terminal-wrapper').first().waitFor({ timeout: scaledMs(60_000) });
    await panel.locator('.xterm-rows, .xterm-screen').filter({ hasText: 'npm test' }).first().waitFor({ timeout: scaledMs(60_000) });
    await session.screenshot('editor-4-sprout-terminal');
    // The panel's terminal title names it; the chat stays open beside it.
    await panel.locator('.single-terminal-tab, .terminal-tabs-entry').filter({ hasText: /^\s*Sprout\s*$/ }).first().waitFor({ timeout: scaledMs(30_000) });
    assert.equal(await chat.getByTestId('user-message').filter({ hasText: 'Run the tests in a terminal I can watch.' }).isVisible(), true);
  });
});
