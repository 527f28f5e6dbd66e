// Runs an extension's mocha suite inside a real VS Code extension host: the VS Code server bundled
// in code-server (server-main.js, under Node 24), opened by headless Chromium with the test payload.
// The workbench reports the suite's result through `codeAutomationExit`, so the exit code is the
// suite's own. Everything started here (server, extension host, its MCP servers, browser, temp dirs)
// is stopped on every path.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { type EditorInstall } from '../../scripts/ensureCodeServer';
import { launchChromium } from '../e2e/harness/chromium';
import { startPathProxy } from '../fakes/pathProxy';
import { freePort, scrubbedEnv, spawnGroup, waitForHttp } from '../e2e/harness/processGroup';

export interface ExtensionTestRun {
  install: EditorInstall;
  extensionDevelopmentPath: string;
  /** Folder or file of the compiled suite whose `run()` the extension host calls. */
  extensionTestsPath: string;
  /** Folder opened in the workbench. */
  workspace?: string;
  /** Reaches the extension host (it inherits the server's environment). */
  env?: Record<string, string>;
  /**
   * Hang guard: the run fails once the extension host has printed nothing for this long (default 5
   * minutes). Every test prints a line and has its own mocha timeout, so only a stuck host stays
   * silent; a bound on the whole run failed a healthy suite that was merely slow on a busy machine.
   */
  silenceMs?: number;
  log?: (line: string) => void;
  /** `untrusted` launches with Workspace Trust on, so the opened folder starts in Restricted Mode. */
  workspaceTrust?: 'disabled' | 'untrusted';
  /**
   * .vsix files installed before the server starts (test fixtures such as a language model provider):
   * the web workbench takes one extensionDevelopmentPath only.
   */
  installVsix?: string[];
}

/** Info lines the workbench itself logs on every start; kept out of the suite's output unless it fails. */
const WORKBENCH_CHATTER = /^(\[(AgentHost|AgentHost:remote|ChatModelSelection|AccountPolicyGate|reconnection-grace-time)\]|Creating a socket|Updating additional builtin|Resolv(ing|ed) connection token)/;

function payloadUrl(port: number, run: ExtensionTestRun): string {
  const remote = (p: string): string => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(run.extensionDevelopmentPath)],
    ['extensionTestsPath', remote(run.extensionTestsPath)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const folder = run.workspace ? `folder=${encodeURIComponent(run.workspace)}&` : '';
  return `http://127.0.0.1:${port}/?${folder}payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function installFixtures(run: ExtensionTestRun, temp: string, env: NodeJS.ProcessEnv): void {
  for (const vsix of run.installVsix ?? []) {
    const dirs = ['--server-data-dir', join(temp, 'data'), '--user-data-dir', join(temp, 'user'), '--extensions-dir', join(temp, 'ext')];
    const r = spawnSync(run.install.nodeBin, [run.install.serverMain, '--accept-server-license-terms', ...dirs, '--install-extension', vsix], { env, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`installing ${vsix} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
}

/**
 * The extension host's log entries warning about a deprecated API the extension under test used (its
 * own code or a library bundled into it: a stack frame in its dist/ bundles, not in the suite's own
 * bundle beside them). VS Code logs them quietly, and a later release turns them into errors.
 */
function deprecationsFrom(temp: string, extensionPath: string): string[] {
  const shipped = join(extensionPath, 'dist') + sep;
  const logs = join(temp, 'user', 'logs');
  const files = existsSync(logs) ? readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((f) => /exthost\d*\/.*exthost\.log$/.test(f)) : [];
  return files.flatMap((file) =>
    readFileSync(join(logs, file), 'utf8')
      .split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/)
      .filter((entry) => entry.includes('[Deprecation Warning]') && entry.includes(shipped))
      .map((entry) => entry.split('\n').slice(0, 8).join('\n')),
  );
}

/** Resolves with the suite's exit code (0 = every test passed). */
export async function runExtensionTests(run: ExtensionTestRun): Promise<number> {
  const log = run.log ?? ((line: string) => console.log(line));
  const temp = mkdtempSync(join(tmpdir(), 'sprout-editor-'));
  for (const d of ['data', 'user', 'ext', 'xdg-config', 'xdg-data']) mkdirSync(join(temp, d));
  // A real user's bash reads a ~/.bashrc (HISTCONTROL, a coloured PS1, a PROMPT_COMMAND): the terminals meet one.
  copyFileSync(join(__dirname, 'home', '.bashrc'), join(temp, '.bashrc'));
  const port = await freePort();
  const ports = await startPathProxy();
  const noise: string[] = [];
  let code = 1;
  const env = scrubbedEnv({
    ...run.env,
    HOME: temp,
    XDG_CONFIG_HOME: join(temp, 'xdg-config'),
    XDG_DATA_HOME: join(temp, 'xdg-data'),
    VSCODE_AGENT_FOLDER: join(temp, 'data'),
    // The window is remote, so asExternalUri maps the extension host's loopback ports to the address
    // this template names; the bare server has no /proxy/<port>/ route of its own as code-server has.
    VSCODE_PROXY_URI: `${ports.base}/proxy/{{port}}/`,
  });
  installFixtures(run, temp, env);
  const server = spawnGroup(
    run.install.nodeBin,
    [
      run.install.serverMain,
      ...['--host', '127.0.0.1', '--port', String(port), '--without-connection-token', '--accept-server-license-terms'],
      ...['--enable-smoke-test-driver', '--disable-telemetry'],
      ...(run.workspaceTrust === 'untrusted' ? [] : ['--disable-workspace-trust']),
      ...['--server-data-dir', join(temp, 'data'), '--user-data-dir', join(temp, 'user'), '--extensions-dir', join(temp, 'ext')],
    ],
    { cwd: temp, env },
    (line) => noise.push(`[server] ${line}`),
  );
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  try {
    await waitForHttp(`http://127.0.0.1:${port}/version`, 60_000, () => server.child.exitCode === null);
    browser = await launchChromium();
    const page = await browser.newPage();
    let reportExit: (code: number) => void = () => undefined;
    const exit = new Promise<number>((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(Number(code)));
    let heard: () => void = () => undefined;
    await page.exposeFunction('codeAutomationLog', (level: string, msg: unknown) => {
      heard();
      const text = Array.isArray(msg) ? msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ') : String(msg);
      // The extension host's console arrives at info level; workbench noise (no gallery, no GitHub) is kept for failures.
      if (level === 'info' && !WORKBENCH_CHATTER.test(text)) log(text);
      else noise.push(`[workbench ${level}] ${text}`);
    });
    page.on('pageerror', (e) => noise.push(`[page error] ${e.message}`));
    // Only until the server answers: a busy machine loads the workbench for longer than Playwright's
    // 30 s default, and the silence guard below covers the load and the suite alike.
    await page.goto(payloadUrl(port, run), { waitUntil: 'commit' });
    const silenceMs = run.silenceMs ?? 5 * 60_000;
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<number>((resolve) => {
      heard = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          log(`editor tests: the extension host printed nothing for ${silenceMs} ms: its suite is stuck`);
          resolve(1);
        }, silenceMs);
      };
      heard();
    });
    const serverDied = new Promise<number>((resolve) => server.child.once('exit', () => resolve(1)));
    code = await Promise.race([exit, silence, serverDied]);
    heard = () => undefined;
    clearTimeout(timer);
    const deprecated = deprecationsFrom(temp, run.extensionDevelopmentPath);
    if (deprecated.length > 0) {
      log(`editor tests: the extension host warned about ${deprecated.length} deprecated use(s) in the extension:\n${deprecated.join('\n')}`);
      code = code === 0 ? 1 : code;
    }
    return code;
  } finally {
    if (code !== 0) for (const line of noise.slice(-80)) log(line);
    await browser?.close().catch(() => undefined);
    await server.stop();
    await ports.close();
    rmSync(temp, { recursive: true, force: true });
  }
}
