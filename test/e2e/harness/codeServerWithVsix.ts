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
import { ensureCodeServer, type EditorInstall } from '../../../scripts/ensureCodeServer';
import { scaledMs } from '../../loadScale';
import { launchChromium } from './chromium';
import { tearDown } from './teardown';
import { freePort, scrubbedEnv, spawnGroup, waitForHttp, type GroupProcess } from './processGroup';
import { endExtensionHostsSince, extensionHosts, sharedServerFromEnv, type SharedServer } from './sharedServer';

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
  /** The user settings file the window reads (and the extension writes user settings to). */
  userSettingsFile: string;
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

export function installVsix(nodeBin: string, entry: string, temp: string, env: NodeJS.ProcessEnv, vsix: string): string {
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

/** A fresh temp folder laid out for code-server: user settings (quiet, plus `settings`), extensions, XDG dirs. */
export function codeServerTemp(prefix: string): string {
  const temp = mkdtempSync(join(tmpdir(), prefix));
  for (const d of ['user/User', 'ext', 'xdg-config', 'xdg-data']) mkdirSync(join(temp, d), { recursive: true });
  return temp;
}

/** The user settings file of a code-server started on `temp` (every window it serves reads it). */
export function userSettingsFile(temp: string): string {
  return join(temp, 'user', 'User', 'settings.json');
}

/** Writes the user settings a window starts with: the quiet ones, Workspace Trust as asked, then the test's own. */
export function writeUserSettings(temp: string, options: Pick<CodeServerOptions, 'trust' | 'userSettings'>): void {
  const trust = options.trust === 'untrusted' ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' } : {};
  writeFileSync(userSettingsFile(temp), JSON.stringify({ ...QUIET_SETTINGS, ...trust, ...options.userSettings }, null, 2));
}

/** code-server's environment: ours scrubbed, plus `extra`; it writes into $HOME even for --version: keep all of it in `temp`. */
export function codeServerEnv(temp: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return scrubbedEnv({ ...extra, HOME: temp, XDG_CONFIG_HOME: join(temp, 'xdg-config'), XDG_DATA_HOME: join(temp, 'xdg-data') });
}

/**
 * Starts code-server on a free port with the dirs under `temp`, waiting until it answers. `folder`:
 * the folder it opens by default (a shared server has none: each window names its own in the URL).
 */
export async function spawnCodeServer(install: EditorInstall, temp: string, env: NodeJS.ProcessEnv, options: { folder?: string; trustFlag: boolean }): Promise<{ server: GroupProcess; port: number }> {
  const port = await freePort();
  const server = spawnGroup(
    install.nodeBin,
    [
      install.codeServerEntry,
      ...['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check'],
      ...(options.trustFlag ? [] : ['--disable-workspace-trust']),
      ...['--disable-getting-started-override', '--ignore-last-opened'],
      ...codeServerDirs(temp),
      ...(options.folder === undefined ? [] : [options.folder]),
    ],
    { cwd: temp, env },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, () => server.child.exitCode === null);
  } catch (e) {
    await server.stop();
    if (e instanceof Error) e.message += `\n--- code-server output ---\n${server.output().slice(-3000)}`;
    throw e;
  }
  return { server, port };
}

/** The workbench URL of `workspace` on the server at `port`, as the browser reaches it. */
export function workbenchUrl(port: number, workspace: string, host = '127.0.0.1'): string {
  return `http://${host}:${port}/?folder=${encodeURIComponent(workspace)}`;
}

/**
 * A browser with the workbench at `url` open, as a session: `reload` opens the window again in a fresh
 * browser context; `stop` runs `cleanup` (which closes the browser among what it takes down).
 */
export async function openSession(browser: Browser, url: string, temp: string, extensionDir: string, cleanup: () => Promise<void>): Promise<CodeServerSession> {
  let page = await openWorkbench(browser, url);
  return {
    get page() {
      return page;
    },
    url,
    extensionDir,
    userSettingsFile: userSettingsFile(temp),
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
      page = await openWorkbench(browser, url);
    },
    stop: cleanup,
  };
}

/**
 * code-server with the packaged extension and the workbench open on `options.workspace`. Under the e2e
 * runner (test/e2e/run.ts) the window opens on the run's shared code-server (sharedCodeServer.ts) when
 * the options allow it; alone, or with options only a server of its own can honour (an environment,
 * more extensions, another .vsix), a code-server of its own is started and stopped with the session.
 */
export async function startCodeServerWithVsix(options: CodeServerOptions): Promise<CodeServerSession> {
  const shared = sharedServerFromEnv();
  if (shared && options.env === undefined && options.extraVsix === undefined && options.vsix === undefined) return openSharedWindow(shared, options);
  const install = ensureCodeServer();
  const vsix = options.vsix ?? vsixPath();
  if (!existsSync(vsix)) throw new Error(`${vsix} not found: run \`npm run package\` first`);
  const temp = codeServerTemp('sprout-e2e-');
  writeUserSettings(temp, options);
  const env = codeServerEnv(temp, options.env);
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
    let port: number;
    ({ server, port } = await spawnCodeServer(install, temp, env, { folder: options.workspace, trustFlag: options.trust === 'untrusted' }));
    browser = await launchChromium(options.browserNetwork?.chromiumArgs);
    return await openSession(browser, workbenchUrl(port, options.workspace, options.browserNetwork?.host), temp, extensionDir, cleanup);
  } catch (e) {
    const out = server?.output().slice(-3000) ?? '';
    const cleanupError = await cleanup().then(() => '', (c: Error) => `\n(and ${c.message})`);
    if (e instanceof Error) e.message += cleanupError + (out ? `\n--- code-server output ---\n${out}` : '');
    throw e;
  }
}

/**
 * A window of its own on the run's shared code-server: the user settings are this window's (written
 * before it opens: the files run one at a time), the browser is new (the workbench keeps its layout
 * in the browser), and `stop` closes the browser and ends the window's extension hosts.
 */
async function openSharedWindow(shared: SharedServer, options: CodeServerOptions): Promise<CodeServerSession> {
  writeUserSettings(shared.temp, options);
  const before = extensionHosts(shared.pid);
  let browser: Browser | undefined;
  const cleanup = (): Promise<void> =>
    tearDown(
      ['the browser', () => browser?.close()],
      ["the window's extension host", () => endExtensionHostsSince(shared.pid, before)],
    );
  try {
    browser = await launchChromium(options.browserNetwork?.chromiumArgs);
    return await openSession(browser, workbenchUrl(shared.port, options.workspace, options.browserNetwork?.host), shared.temp, shared.extensionDir, cleanup);
  } catch (e) {
    const cleanupError = await cleanup().then(() => '', (c: Error) => `\n(and ${c.message})`);
    if (e instanceof Error) e.message += cleanupError;
    throw e;
  }
}
