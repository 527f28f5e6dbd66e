// E2E: lifecycle hooks beyond `_Stop` as a user sees them in the packaged extension, at 1400x900: a
// real hook server (FakeHookServer) adds a team rule to every prompt (`_UserPromptSubmit`) and denies
// `run_command` (`_PreToolUse`). The model's `rm -rf build` is blocked without an approval question;
// its tool card says who blocked it and why, the added rule is a collapsed card naming the hook and
// its server, the model reads both inside their envelopes, and the Hooks view has a row per hook.
// Screenshots go to test-results/e2e (git-ignored).
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import type { FakeOpenAi, FakeResponse } from '../fakes/fakeOpenAiServer';
import { hookServerSetting, startChatScenario, type ChatScenario } from './harness/hookScenario';
import type { CodeServerSession } from './harness/codeServerWithVsix';
import { chatView, expandHooksView, hooksTree, sendPrompt } from './harness/workbench';

const PROMPT = 'Clean the build folder';
const RULE = 'Team rule: never delete folders; ask the user instead.';
const DENIAL = 'run_command is off in this repository: ask the user to run it.';

function script(): FakeResponse[] {
  return [
    { type: 'reply', toolCalls: [{ name: 'workspace__run_command', arguments: { command: 'rm -rf build' } }] },
    { type: 'reply', text: 'The guard does not let me run commands here. Please run `rm -rf build` yourself.' },
  ];
}

describe('lifecycle hooks in the packaged extension (1400x900)', { timeout: scaledMs(240_000) }, () => {
  let scenario: ChatScenario | undefined;
  let session: CodeServerSession | undefined;
  let fake: FakeOpenAi | undefined;

  before(async () => {
    scenario = await startChatScenario({
      name: 'lifecycle',
      files: { 'build/out.txt': 'built\n' },
      responses: script(),
      userSettings: {
        'workbench.colorTheme': 'Default Light Modern',
        'sprout.model.name': 'fake-model',
        'sprout.mcp.servers': hookServerSetting({
          _UserPromptSubmit: { kind: 'text', text: RULE },
          _PreToolUse: { kind: 'ifMeta', key: 'toolName', value: 'run_command', then: { kind: 'text', text: DENIAL } },
        }),
        'sprout.mcp.builtinServers': { workspace: true, todo: false, tests: false },
        'sprout.hooks.servers': ['hooks'],
      },
    });
    ({ session, fake } = scenario);
  });

  after(async () => {
    await scenario?.stop();
  });

  it('a denied call is blocked on its card without a question; the added rule is a card of its own; the model reads both', async () => {
    assert.ok(session && fake);
    const chat = chatView(session.page);
    await chat.getByTestId('chat-input').waitFor({ timeout: scaledMs(60_000) });
    await sendPrompt(chat, PROMPT);
    const injection = chat.getByTestId('hook-injection').first();
    await injection.waitFor({ timeout: scaledMs(60_000) });
    assert.match(await injection.innerText(), /Prompt check\s+by hooks:\s+Team rule: never delete folders/);
    assert.equal(await injection.getAttribute('aria-label'), 'Prompt check by hooks added context for the agent');
    const card = chat.locator('[data-testid=tool-card][data-status=denied]').first();
    await card.waitFor({ timeout: scaledMs(60_000) });
    assert.equal((await card.getByTestId('tool-blocked').innerText()).trim(), `Blocked by hooks: ${DENIAL}`);
    assert.match((await card.locator('summary').getAttribute('aria-label')) ?? '', /Run command rm -rf build, Blocked by a hook/);
    assert.equal(await card.locator('.tool-arg').innerText(), 'rm -rf build', 'the head has room for the whole command');
    await chat.getByTestId('assistant-message').filter({ hasText: 'Please run' }).first().waitFor({ timeout: scaledMs(60_000) });
    assert.equal(await chat.getByTestId('tool-approve').count(), 0, 'nobody was asked to approve the blocked call');
    await session.screenshot('hooks-1-blocked-and-injected');

    const requests = fake.chatRequests().map((r) => r.body as { messages: Array<{ role: string; content: unknown }> });
    assert.equal(requests.length, 2);
    const seen = (requests[1]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.ok(seen.some((c) => c.includes('"hook":"_UserPromptSubmit"') && c.includes(RULE)), `the rule went to the model in its envelope: ${seen.join(' | ')}`);
    assert.ok(seen.some((c) => c.includes('"hook":"_PreToolUse"') && c.includes(DENIAL)), `the denial went to the model as the call's result: ${seen.join(' | ')}`);
  });

  it('the Hooks view has a row for each hook of the server', async () => {
    assert.ok(session);
    await expandHooksView(session.page);
    const tree = hooksTree(session.page);
    await tree.getByText('Tool check', { exact: true }).waitFor({ timeout: scaledMs(30_000) });
    await tree.getByText('Prompt check', { exact: true }).waitFor({ timeout: scaledMs(30_000) });
    // No server here offers a completion check, so there is no objection budget to count.
    await tree.getByText('No completion checks', { exact: true }).waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('hooks-2-hooks-view');
  });
});
