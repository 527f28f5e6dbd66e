// E2E: a new user's `npm run start` on a headless box, run for real (scripts/start.ts, with the .vsix
// `npm run test:e2e` packaged) and with Workspace Trust ON, as a user has it. The script makes the
// sample workspace and a profile under the user's cache folder (never inside the served folder),
// says in the console what to do next, and serves the folder. In the browser the trust question
// comes once; after "Yes, I trust the authors" Sprout is enabled and its chat asks for a model, and
// VS Code's own chat is not there to compete. A second start reopens the same folder without asking
// again and keeps what the user changed in it.
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { editorCacheDir } from '../../scripts/ensureCodeServer';
import { launchChromium } from './harness/chromium';
import { EXTENSION_ID, loadWorkbench, repoRoot, screenshotDir, vsixPath } from './harness/codeServerWithVsix';
import { freePort, scrubbedEnv, spawnGroup, type GroupProcess } from './harness/processGroup';
import { tearDown } from './harness/teardown';
import { chatView, openSproutContainer, sproutActivityItem } from './harness/workbench';

const TRUST_QUESTION = /Do you trust the authors of the files in this folder\?/;

describe('npm run start, first run (Workspace Trust on)', { timeout: scaledMs(360_000) }, () => {
  let temp = '';
  let cache = '';
  let port = 0;
  let start: GroupProcess | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let url = '';

  async function runStart(): Promise<string> {
    const env = scrubbedEnv({
      SPROUT_START_CODE_SERVER: '1',
      SPROUT_START_VSIX: vsixPath(),
      PORT: String(port),
      HOST: '127.0.0.1',
      // The user's cache folder is the temp one; the editor install is the shared one.
      XDG_CACHE_HOME: cache,
      SPROUT_EDITOR_CACHE: editorCacheDir(),
      SPROUT_EDITOR_PROFILE: undefined,
    });
    start = spawnGroup(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'start.ts')], { cwd: repoRoot, env });
    await start.waitForOutput(/Sprout Agent is running in code-server: (\S+)/, 180_000);
    return /Sprout Agent is running in code-server: (\S+)/.exec(start.output())?.[1] ?? '';
  }

  async function openWorkbench(): Promise<Page> {
    assert.ok(context);
    const p = await context.newPage();
    await loadWorkbench(p, url);
    return p;
  }

  async function screenshot(name: string): Promise<void> {
    mkdirSync(screenshotDir, { recursive: true });
    await page?.mouse.move(900, 600);
    await page?.screenshot({ path: join(screenshotDir, `${name}.png`) });
  }

  before(async () => {
    temp = mkdtempSync(join(tmpdir(), 'sprout-e2e-start-'));
    cache = join(temp, 'cache');
    port = await freePort();
    url = await runStart();
    browser = await launchChromium();
    // One browser profile for the whole test: the trust answer lives in the browser, as a user's does.
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  });

  after(() =>
    tearDown(
      ['the browser', () => browser?.close()],
      ['sprout-agent start', () => start?.stop()],
      ['the temp folder', () => rmSync(temp, { recursive: true, force: true })],
    ),
  );

  it('says what to do next, and keeps the sample workspace and the profile in the user\'s cache folder', () => {
    assert.ok(start);
    const sample = join(cache, 'sprout-agent', 'sample-workspace');
    const profile = join(cache, 'sprout-agent', 'code-server-profile');
    assert.equal(url, `http://127.0.0.1:${port}/?folder=${encodeURIComponent(sample)}`);
    const out = start.output();
    for (const text of ['Next:', 'Yes, I trust the authors', 'Click the Sprout icon', 'Sprout: Set API Key', 'sprout.model.baseUrl', 'Sprout: Select Model', 'Make the failing test pass']) {
      assert.ok(out.includes(text), `console mentions ${text}:\n${out.slice(-3000)}`);
    }
    assert.ok(existsSync(join(sample, 'src', 'slugify.js')) && existsSync(join(sample, 'test', 'slugify.test.js')), 'the sample workspace was made');
    const extension = join(profile, 'extensions', `${EXTENSION_ID}-0.1.0`);
    assert.ok(existsSync(join(extension, 'package.json')), 'the .vsix went into the profile');
    assert.ok(relative(sample, extension).startsWith('..'), 'the extension is not inside the served folder');
    assert.equal(statSync(profile).mode & 0o777, 0o700, 'the profile (it holds the API key) is private');
    const settings = JSON.parse(readFileSync(join(profile, 'user', 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(settings['chat.disableAIFeatures'], true);
    assert.equal(settings['security.workspace.trust.enabled'], undefined, 'Workspace Trust stays on');
  });

  it('asks about trust; after "Yes, I trust the authors" Sprout is enabled and its chat asks for a model', async () => {
    page = await openWorkbench();
    const question = page.locator('.monaco-dialog-box').filter({ hasText: TRUST_QUESTION });
    await question.waitFor({ timeout: scaledMs(60_000) });
    await screenshot('first-run-trust-question');
    await page.getByRole('button', { name: /Yes, I trust the authors/ }).click();
    await question.waitFor({ state: 'hidden', timeout: scaledMs(15_000) });
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'detached', timeout: scaledMs(15_000) });
    await openSproutContainer(page);
    const setup = chatView(page).getByTestId('setup-card');
    await setup.waitFor({ timeout: scaledMs(60_000) });
    assert.match(await setup.innerText(), /Set up Sprout/);
    await screenshot('first-run-sprout-setup');
  });

  it('VS Code\'s own chat is not offered next to Sprout\'s', async () => {
    assert.ok(page);
    assert.equal(await page.locator('[aria-label="Toggle Chat"]').count(), 0, 'no built-in chat button in the title bar');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: scaledMs(15_000) });
    await input.fill('>Chat: Export Chat');
    await page.locator('.quick-input-list').waitFor({ timeout: scaledMs(15_000) });
    // Give the list time to fill, then look: a command that exists shows within a moment.
    await page.waitForTimeout(1500);
    const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    await page.keyboard.press('Escape');
    assert.ok(!rows.some((r) => r.includes('Chat: Export Chat')), `built-in chat commands are hidden: ${rows.join(' | ')}`);
  });

  it('a second start reopens the folder without asking again and keeps the user\'s changes', async () => {
    assert.ok(start);
    const readme = join(cache, 'sprout-agent', 'sample-workspace', 'README.md');
    appendFileSync(readme, '\nA note the user added.\n');
    await page?.close();
    await start.stop();
    assert.equal(await runStart(), url);
    assert.match(readFileSync(readme, 'utf8'), /A note the user added\./, 'the sample workspace is not overwritten');
    assert.doesNotMatch(start.output(), /Created the sample workspace/);
    page = await openWorkbench();
    await sproutActivityItem(page).waitFor({ timeout: scaledMs(60_000) });
    await openSproutContainer(page);
    await chatView(page).getByTestId('setup-card').waitFor({ timeout: scaledMs(60_000) });
    assert.equal(await page.locator('.monaco-dialog-box').filter({ hasText: TRUST_QUESTION }).count(), 0, 'trust was asked once');
    assert.equal(await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).count(), 0);
    await screenshot('first-run-second-start');
  });
});
