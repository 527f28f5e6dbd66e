// E2E: no API key and no endpoint, but a chat model in VS Code (the ScriptedLmProvider fixture,
// installed beside the packaged extension). The setup card offers "Use a model already in VS Code",
// the picker lists the model with its vendor and family, and a chat completes through the real
// Language Model API: a tool run approved on its card, a _Stop objection from a real hook server, the
// final answer. Then Select Model lists both sources under their headings.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import { packScriptedLmProvider } from '../editor/lmProvider/buildScriptedLmProvider';
import { SCRIPTED_LM_SCRIPT_ENV, type ScriptedLmReply } from '../editor/lmProvider/scriptedLmTypes';
import { startCodeServerWithVsix, type CodeServerSession } from './harness/codeServerWithVsix';
import { objectingHookServer } from './harness/hookScenario';
import { chatView, openSproutContainer } from './harness/workbench';

const OBJECTION = 'E2E objection: say which tests ran.';
const PROMPT = 'Echo ping with the tool, then finish.';

const SCRIPT: ScriptedLmReply[] = [
  { kind: 'toolCalls', calls: [{ name: 'hooks__echo', input: { text: 'ping' } }] },
  { kind: 'text', text: 'The echo tool answered ping. All done.' },
  { kind: 'text', text: 'No tests ran: this workspace has none.' },
];

describe('a model already in VS Code, in the packaged extension', { timeout: scaledMs(240_000) }, () => {
  let session: CodeServerSession | undefined;
  let workspace = '';

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'sprout-e2e-lm-'));
    writeFileSync(join(workspace, 'notes.md'), '# notes\n');
    session = await startCodeServerWithVsix({
      workspace,
      extraVsix: [await packScriptedLmProvider()],
      env: { [SCRIPTED_LM_SCRIPT_ENV]: JSON.stringify(SCRIPT) },
      // No base URL, no model, no key: the state of a fresh install.
      userSettings: {
        'sprout.mcp.servers': objectingHookServer(OBJECTION),
        'sprout.mcp.builtinServers': { workspace: false, todo: false, tests: false },
        'sprout.hooks.servers': ['hooks'],
      },
    });
    await openSproutContainer(session.page);
  });

  after(async () => {
    await session?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('offers the VS Code model on the setup card, and a chat with a tool and an objection completes', async () => {
    assert.ok(session);
    const { page } = session;
    const chat = chatView(page);
    const offer = chat.getByTestId('setup-card').getByRole('button', { name: 'Use a model already in VS Code' });
    await offer.waitFor({ timeout: scaledMs(60_000) });
    await session.screenshot('lm-1-setup-card');
    await offer.click();

    const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Scripted Model' }).first();
    await row.waitFor({ timeout: scaledMs(30_000) });
    assert.match(await row.innerText(), /sprout-test · scripted/);
    await session.screenshot('lm-2-model-picker');
    await row.click();
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: scaledMs(15_000) });
    await chat.getByTestId('setup-card').waitFor({ state: 'hidden', timeout: scaledMs(30_000) });

    const input = chat.getByTestId('chat-input');
    await input.fill(PROMPT);
    await input.press('Enter');
    await chat.getByTestId('tool-card').first().waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('tool-approve').first().click();
    const objection = chat.getByTestId('hook-objection').first();
    await objection.waitFor({ timeout: scaledMs(60_000) });
    assert.match(await objection.innerText(), /say which tests ran/);
    await chat.getByTestId('assistant-message').filter({ hasText: 'No tests ran' }).first().waitFor({ timeout: scaledMs(60_000) });
    const outcome = chat.getByTestId('turn-outcome').last();
    // A turn that ends well has a quiet footer, which may be empty: attached, not necessarily visible.
    await outcome.waitFor({ state: 'attached', timeout: scaledMs(60_000) });
    assert.equal(await outcome.getAttribute('data-reason'), 'end_turn');
    assert.equal(await chat.getByTestId('tool-card').first().getAttribute('data-status'), 'ok');
    await session.screenshot('lm-3-chat-completed');
  });

  it('Select Model lists both sources, each under its heading, the model in use marked', async () => {
    assert.ok(session);
    const { page } = session;
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: scaledMs(15_000) });
    await input.fill('>Sprout: Select Model');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: scaledMs(15_000) });
    await page.keyboard.press('Enter');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'Type a model name' }).first().waitFor({ timeout: scaledMs(60_000) });
    const text = (await rows.allInnerTexts()).join('\n');
    assert.match(text, /Models in VS Code/);
    assert.match(text, /Scripted Model\s*sprout-test · scripted · in use/);
    assert.match(text, /OpenAI-compatible endpoint · https:\/\/api\.openai\.com\/v1/);
    await session.screenshot('lm-4-picker-both-sources');
    await page.keyboard.press('Escape');
  });
});
