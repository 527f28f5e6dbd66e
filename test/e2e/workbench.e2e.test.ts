// E2E smoke: the packaged .vsix installs into a fresh code-server with everything the extension
// needs (and nothing it doesn't), the workbench loads in a real browser, the Sprout container shows
// its Chat webview (with its content) and Hooks tree, and the extension's commands reach the command
// palette. The browser is on "another machine" (remoteBrowserNetwork.ts): it reaches the workbench
// under a host name of its own and cannot reach the extension host's loopback, so signing in to an
// OAuth-protected HTTP server works only through the window's external address for the sign-in redirect.
// Last, the chat moved to the short panel still shows its intro from the top.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaledMs } from '../loadScale';
import { startOAuthMcpServer, type OAuthMcpServer } from '../fakes/oauthMcpServer';
import { startCodeServerWithVsix, vsixPath, type CodeServerSession } from './harness/codeServerWithVsix';
import { expectedPackageFiles } from './harness/packageContents';
import { startRemoteBrowserNetwork, type RemoteBrowserNetwork } from './harness/remoteBrowserNetwork';
import { tearDown } from './harness/teardown';
import { chatView, expandHooksView, hooksTree, moveChatView, openSproutContainer, runCommand } from './harness/workbench';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => relative(dir, f));
}

describe('packaged extension in code-server', { timeout: scaledMs(180_000) }, () => {
  let session: CodeServerSession | undefined;
  let network: RemoteBrowserNetwork | undefined;
  let oauth: OAuthMcpServer | undefined;
  let workspace = '';

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'sprout-e2e-ws-'));
    writeFileSync(join(workspace, 'hello.ts'), 'export const greeting = "hello";\n');
    oauth = await startOAuthMcpServer();
    network = await startRemoteBrowserNetwork();
    // The authorization server is on the internet: the browser reaches it, unlike the extension host's loopback.
    network.allow(new URL(oauth.url).host);
    const userSettings = { 'sprout.mcp.servers': { secure: { type: 'http', url: oauth.url } }, 'sprout.mcp.builtinServers': { workspace: false, todo: false, tests: false } };
    session = await startCodeServerWithVsix({ workspace, userSettings, browserNetwork: network });
  });

  after(() =>
    tearDown(
      ['code-server', () => session?.stop()],
      ['the browser\'s network', () => network?.close()],
      ['the OAuth server', () => oauth?.close()],
      ['the workspace', () => rmSync(workspace, { recursive: true, force: true })],
    ),
  );

  it('the .vsix is small and unpacks to exactly what the extension runs', () => {
    assert.ok(session);
    const size = statSync(vsixPath()).size;
    assert.ok(size < 8 * 1024 * 1024, `.vsix is ${size} bytes`);
    const installed = filesUnder(session.extensionDir);
    const missing = expectedPackageFiles().filter((f) => !existsSync(join(session!.extensionDir, f)));
    assert.deepEqual(missing, [], `missing from the installed extension; it has: ${installed.join(', ')}`);
    const unwanted = installed.filter((f) => /(^|\/)(node_modules|src|test|\.cache|out)\/|\.map$|\.ts$|^dist\/cli\.js$|^media\/chat\.css$/.test(f));
    assert.deepEqual(unwanted, []);
  });

  it('the listing: a 128x128 PNG icon, and every README link and image resolves off the repository', () => {
    assert.ok(session);
    const png = readFileSync(join(session.extensionDir, 'media', 'icon.png'));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'IHDR width and height');
    // vsce rewrote relative links to the repository; an in-page anchor must name a heading that exists.
    const readme = readFileSync(join(session.extensionDir, 'readme.md'), 'utf8');
    const anchors = new Set([...readme.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(targets.length > 10, `the README has links (${targets.length})`);
    const unresolved = targets.filter((t) => (t.startsWith('#') ? !anchors.has(t.slice(1)) : !t.startsWith('https://')));
    assert.deepEqual(unresolved, []);
    assert.deepEqual(targets.filter((t) => t.endsWith('.svg')), [], 'the listings refuse SVG images');
  });

  it('shows the Sprout container with the Chat view and the Hooks tree', async () => {
    assert.ok(session);
    const { page } = session;
    await openSproutContainer(page);
    await page.locator('.pane-header', { hasText: /^chat/i }).first().waitFor({ timeout: scaledMs(30_000) });
    await page.locator('.pane-header', { hasText: /^hooks/i }).first().waitFor({ timeout: scaledMs(30_000) });
    // The view's header comes with the workbench; its content only once the extension has activated,
    // resolved the view and answered the webview's `ready` (measured on a loaded machine: the host's
    // HTML came 15-30 s after the header, then the page drew its first snapshot within about a second).
    // The screenshot is of what the user then sees: the empty chat's intro and, with no model, setup.
    const chat = chatView(page);
    await chat.getByTestId('empty-state').waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('setup-card').waitFor({ timeout: scaledMs(30_000) });
    assert.match(await chat.getByTestId('setup-card').innerText(), /Set up Sprout/);
    await session.screenshot('workbench-sprout-container');
  });

  it('lists the Sprout commands in the command palette', async () => {
    assert.ok(session);
    const { page } = session;
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: scaledMs(15_000) });
    await input.fill('>Sprout: ');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: scaledMs(15_000) });
    await session.screenshot('workbench-command-palette');
    // The list shows only the rows that fit (at 1400x900, fewer than Sprout has): look each one up.
    for (const title of ['Sprout: New Chat', 'Sprout: Show Hooks', 'Sprout: Set API Key', 'Sprout: Past Chats', 'Sprout: Set Model Endpoint']) {
      await input.fill(`>${title}`);
      const labels = (await rows.allInnerTexts()).join('\n');
      await rows.filter({ hasText: title }).first().waitFor({ timeout: scaledMs(15_000) }).catch(() => assert.fail(`${title} is not in the palette: ${labels}`));
    }
    await page.keyboard.press('Escape');
  });

  it('signs in to an OAuth-protected HTTP server through the address the window gives the browser, not the loopback of the extension host', async () => {
    assert.ok(session && network && oauth);
    const { page } = session;
    const signInTab = page.context().waitForEvent('page', { timeout: scaledMs(120_000) });
    await runCommand(page, 'Sprout: Restart MCP Servers');
    const signIn = page.locator('.notification-toast', { hasText: 'asks you to sign in' }).getByRole('button', { name: 'Sign In in Browser' });
    await signIn.waitFor({ timeout: scaledMs(60_000) });
    await session.screenshot('workbench-oauth-1-asked');
    await signIn.click();
    const tab = await signInTab;
    // The redirect lands on a page the browser reaches, or on one it cannot: whichever comes first.
    const unreachable = network.refusal(/\/callback/).then((url) => assert.fail(`the sign-in redirect went where the browser cannot reach: ${url}`));
    await Promise.race([tab.getByText('Signed in to the MCP server').waitFor({ timeout: scaledMs(60_000) }), unreachable]);
    const [registered] = oauth.auth.registered;
    assert.match(registered?.redirect_uris[0] ?? '', new RegExp(`^http://${network.host.replace(/\./g, '\\.')}:\\d+/proxy/\\d+/callback$`));
    await page.bringToFront();
    await expandHooksView(page);
    await hooksTree(page).filter({ hasText: /secure/ }).filter({ hasText: /tools only/ }).waitFor({ timeout: scaledMs(60_000) });
    assert.deepEqual(oauth.auth.log.slice(0, 3), ['register', 'authorize', 'token:code']);
    await session.screenshot('workbench-oauth-2-signed-in');
  });

  it('the chat moved to the panel shows the empty chat from its top, not scrolled to its end', async () => {
    assert.ok(session);
    const { page } = session;
    await moveChatView(page, 'New Panel Entry');
    const chat = chatView(page);
    const heading = chat.getByTestId('empty-state').getByRole('heading', { name: 'Ask Sprout' });
    await heading.waitFor({ timeout: scaledMs(60_000) });
    await chat.getByTestId('setup-card').waitFor({ timeout: scaledMs(30_000) });
    await session.screenshot('workbench-chat-in-panel');
    const seen = await heading.evaluate((el) => {
      const log = document.querySelector('.log')!;
      const box = log.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return { overflows: log.scrollHeight > log.clientHeight, top: r.top, logTop: box.top, bottom: r.bottom, logBottom: box.bottom };
    });
    // The point of the check: the intro is taller than the panel, so which end shows is a choice.
    assert.ok(seen.overflows, `the empty chat fits the panel, so this test shows nothing: ${JSON.stringify(seen)}`);
    assert.ok(seen.top >= seen.logTop - 1 && seen.bottom <= seen.logBottom + 1, `"Ask Sprout" is out of view: ${JSON.stringify(seen)}`);
  });
});
