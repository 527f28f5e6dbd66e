// The e2e harness: installs the packaged .vsix into a fresh code-server (fresh user-data and
// extensions dirs, so no run sees another's state), starts it on a free port with the workspace,
// opens the workbench in headless Chromium and hands the test a Playwright page. `stop()` closes
// the browser, kills code-server's whole process group (extension host and MCP servers included)
// and removes the temp dirs; `restart()` reloads the window the way a user would.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { ensureCodeServer } from '../../../scripts/ensureCodeServer';
import { scaledMs } from '../../loadScale';
import { launchChromium } from './chromium';
import { tearDown } from './teardown';
import { freePort, scrubbedEnv, spawnGroup, waitForHttp, type GroupProcess } from './processGroup';

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const EXTENSION_ID = 'sprout.sprout-agent';
export const screenshotDir = join(repoRoot, 'test-results', 'e2e');

/** Settings that keep the workbench quiet and deterministic (no welcome page, no trust prompt, no network). */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.tips.enabled': false,
  'window.restoreWindows': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export interface CodeServerOptions {
  workspace: string;
  userSettings?: Record<string, unknown>;
  /** Added to code-server's environment, which the extension host inherits. */
  env?: Record<string, string>;
  vsix?: string;
  /** `untrusted`: Workspace Trust on, so the folder opens in Restricted Mode (no prompt). */
  trust?: 'untrusted';
  /** More .vsix files installed beside Sprout's (test fixtures, such as a language model provider). */
  extraVsix?: string[];
  /** The browser is on another machine: it reaches the workbench under `host`, through this network only. */
  browserNetwork?: { host: string; chromiumArgs: string[] };
}

export interface CodeServerSession {
  page: Page;
  url: string;
  /** Where code-server unpacked the extension (to check what the .vsix shipped). */
  extensionDir: string;
  screenshot(name: string): Promise<string>;
  /** Reloads the window (the workbench and the extension host restart, the server stays). */
  reload(): Promise<void>;
  stop(): Promise<void>;
}

/** The .vsix `npm run package` writes (or SPROUT_E2E_VSIX, to test another build). */
export function vsixPath(): string {
  const override = process.env['SPROUT_E2E_VSIX'];
  if (override) return resolve(override);
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
}

function codeServerDirs(temp: string): string[] {
  return ['--config', join(temp, 'config.yaml'), '--user-data-dir', join(temp, 'user'), '--extensions-dir', join(temp, 'ext')];
}

function installExtension(nodeBin: string, entry: string, temp: string, env: NodeJS.ProcessEnv, vsix: string): string {
  const r = spawnSync(nodeBin, [entry, ...codeServerDirs(temp), '--install-extension', vsix], { env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function installVsix(nodeBin: string, entry: string, temp: string, env: NodeJS.ProcessEnv, vsix: string): string {
  const stdout = installExtension(nodeBin, entry, temp, env, vsix);
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const dir = join(temp, 'ext', `${EXTENSION_ID}-${pkg.version}`);
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`installed extension not found at ${dir}:\n${stdout}`);
  return dir;
}

async function openWorkbench(browser: Browser, url: string): Promise<Page> {
  // The size the screenshots are judged at.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await loadWorkbench(page, url);
  return page;
}

/**
 * Opens the workbench at `url` and waits until it has restored its parts. The waits are hang guards
 * scaled by the machine's load: Playwright's 30 s for the page's load event failed a reload on a busy
 * machine, so navigation waits only for the server's answer and the workbench's parts are waited on.
 */
export async function loadWorkbench(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'commit', timeout: scaledMs(30_000) });
  await page.locator('.monaco-workbench').waitFor({ timeout: scaledMs(60_000) });
  // The activity bar appears once the workbench has restored its parts.
  await page.locator('.part.activitybar').waitFor({ timeout: scaledMs(60_000) });
}

export async function startCodeServerWithVsix(options: CodeServerOptions): Promise<CodeServerSession> {
  const install = ensureCodeServer();
  const vsix = options.vsix ?? vsixPath();
  if (!existsSync(vsix)) throw new Error(`${vsix} not found: run \`npm run package\` first`);
  const temp = mkdtempSync(join(tmpdir(), 'sprout-e2e-'));
  for (const d of ['user/User', 'ext', 'xdg-config', 'xdg-data']) mkdirSync(join(temp, d), { recursive: true });
  const trust = options.trust === 'untrusted' ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' } : {};
  writeFileSync(join(temp, 'user', 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trust, ...options.userSettings }, null, 2));
  // code-server writes into $HOME even for --version: keep all of it in the temp dir.
  const env = scrubbedEnv({ ...options.env, HOME: temp, XDG_CONFIG_HOME: join(temp, 'xdg-config'), XDG_DATA_HOME: join(temp, 'xdg-data') });
  let server: GroupProcess | undefined;
  let browser: Browser | undefined;
  const cleanup = (): Promise<void> =>
    tearDown(
      ['the browser', () => browser?.close()],
      ['code-server', () => server?.stop()],
      ['its temp folder', () => rmSync(temp, { recursive: true, force: true })],
    );
  try {
    const extensionDir = installVsix(install.nodeBin, install.codeServerEntry, temp, env, vsix);
    for (const extra of options.extraVsix ?? []) installExtension(install.nodeBin, install.codeServerEntry, temp, env, extra);
    const port = await freePort();
    server = spawnGroup(
      install.nodeBin,
      [
        install.codeServerEntry,
        ...['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check'],
        ...(options.trust === 'untrusted' ? [] : ['--disable-workspace-trust']),
        ...['--disable-getting-started-override', '--ignore-last-opened'],
        ...codeServerDirs(temp),
        options.workspace,
      ],
      { cwd: temp, env },
    );
    const alive = (): boolean => server?.child.exitCode === null;
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, alive);
    browser = await launchChromium(options.browserNetwork?.chromiumArgs);
    const url = `http://${options.browserNetwork?.host ?? '127.0.0.1'}:${port}/?folder=${encodeURIComponent(options.workspace)}`;
    let page = await openWorkbench(browser, url);
    const liveBrowser = browser;
    const session: CodeServerSession = {
      get page() {
        return page;
      },
      url,
      extensionDir,
      async screenshot(name) {
        mkdirSync(screenshotDir, { recursive: true });
        const file = join(screenshotDir, `${name}.png`);
        // Park the pointer so no hover tooltip covers what the screenshot is for.
        await page.mouse.move(900, 600);
        await page.waitForTimeout(700);
        await page.screenshot({ path: file });
        return file;
      },
      async reload() {
        await page.context().close();
        page = await openWorkbench(liveBrowser, url);
      },
      stop: cleanup,
    };
    return session;
  } catch (e) {
    const out = server?.output().slice(-3000) ?? '';
    const cleanupError = await cleanup().then(() => '', (c: Error) => `\n(and ${c.message})`);
    if (e instanceof Error) e.message += cleanupError + (out ? `\n--- code-server output ---\n${out}` : '');
    throw e;
  }
}
