/**
 * Sprout's MCP client (the McpHub, as the editor and the CLI compose it) signs in to a real
 * authorization server from the npm registry, oidc-provider, in front of a v2 MCP server that only
 * accepts the provider's JWT access tokens for its own URL (RFC 8707 resource indicator): dynamic
 * registration, PKCE, the provider's login and consent pages, RFC 9207 `iss` on the redirect; a
 * refresh when the access token stops working; a clear new sign-in when the refresh token was
 * revoked at the provider; and a step-up to the union of the scopes on 403 insufficient_scope.
 * One provider for the whole file.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { OAuthHost } from '../../../src/mcp/oauthClient';
import { InMemoryOAuthStore, signal } from './mcpHarness';
import { Browser, startOidcMcpServer, type OidcMcpServer } from './oidcHarness';

describe('OAuth against oidc-provider (a real authorization server)', () => {
  let server: OidcMcpServer;
  const store = new InMemoryOAuthStore();
  const browser = new Browser('alice');
  const signIns: URL[] = [];
  const browsing: Promise<number>[] = [];
  const host: OAuthHost = {
    store,
    openSignIn: (_server, url) => {
      signIns.push(url);
      browsing.push(browser.open(url));
    },
  };
  let hubs: McpHub[] = [];
  const newHub = () => {
    const hub = new McpHub([{ name: 'oidc', transport: { type: 'http', url: server.url, headers: {} } }], { oauth: host });
    hubs.push(hub);
    return hub;
  };
  const record = () => [...store.records.values()][0];
  const call = async (hub: McpHub, tool: string) => hub.callTool('oidc', tool, {}, { signal: signal() });

  before(async () => {
    server = await startOidcMcpServer();
  });
  afterEach(async () => {
    await Promise.all(hubs.map((h) => h.close()));
    hubs = [];
  });
  after(async () => server?.close());

  it('first sign-in: registers, signs in through the login and consent pages, and the tools work with a token for this server', async () => {
    const hub = newHub();
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['oidc__whoami', 'oidc__admin']);
    assert.equal(signIns.length, 1);
    const url = signIns[0] as URL;
    assert.equal(url.origin, server.issuer, 'the sign-in goes to the provider');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('resource'), server.url);
    assert.equal(await browsing[0], 200, 'the loopback listener accepted the redirect');
    assert.deepEqual(browser.pages, ['login', 'consent']);
    const who = await call(hub, 'whoami');
    assert.equal(who.isError, false, who.text);
    assert.equal(who.text, `alice via ${record()?.client?.client_id}`);
    assert.ok(record()?.tokens?.refresh_token, 'a refresh token is kept');
    assert.deepEqual(server.log, ['register', 'authorize', 'token:authorization_code']);
  });

  it('an access token that stopped working is refreshed at the provider without asking the user', async () => {
    const hub = newHub();
    await hub.listTools();
    server.expireAccessTokens();
    const who = await call(hub, 'whoami');
    assert.match(who.text, /^alice via /);
    assert.equal(server.log.at(-1), 'token:refresh_token');
    assert.equal(signIns.length, 1, 'no second sign-in');
  });

  it('a refresh token revoked at the provider leads to one clear sign-in, not a loop', async () => {
    const hub = newHub();
    await hub.listTools();
    const before = record();
    assert.equal(await server.revoke(before?.tokens?.refresh_token ?? '', before?.client?.client_id ?? ''), 200);
    assert.equal(server.log.at(-1), 'refresh_token.destroyed', 'the provider revoked it');
    server.expireAccessTokens();
    const log = server.log.length;
    const who = await call(hub, 'whoami');
    assert.match(who.text, /^alice via /);
    assert.equal(signIns.length, 2, 'asked to sign in once');
    assert.deepEqual(server.log.slice(log), ['token_error:invalid_grant', 'authorize', 'token:authorization_code']);
  });

  it('a tool needing a larger scope: 403 insufficient_scope leads to a sign-in with the union of the scopes; the call then runs', async () => {
    const hub = newHub();
    await hub.listTools();
    const asked = signIns.length;
    const log = server.log.length;
    const admin = await call(hub, 'admin');
    assert.equal(admin.isError, false, admin.text);
    assert.equal(signIns.length, asked + 1, 'one sign-in for the step-up');
    const scope = new Set(signIns.at(-1)?.searchParams.get('scope')?.split(' '));
    assert.ok(scope.has('admin') && scope.has('whoami'), [...scope].join(' '));
    assert.match(admin.text, /^admin with /);
    assert.ok(admin.text.split(' ').includes('whoami'), admin.text);
    // oidc-provider holds a client to the scopes it registered with: the client registers again for the union.
    assert.deepEqual(server.log.slice(log), ['register', 'authorize', 'token:authorization_code'], 'no refresh of the smaller grant');
    assert.equal((await call(hub, 'whoami')).text.startsWith('alice via '), true);
  });
});
