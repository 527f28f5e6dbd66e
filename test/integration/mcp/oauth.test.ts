/**
 * Sign-in against a local authorization server (the SDK's server-side auth helpers) over 127.0.0.1:
 * the server's 401 starts OAuth (discovery, dynamic registration, PKCE), the user is sent to the page
 * once, the redirect lands on the loopback listener, and the tools work; an expired token is refreshed
 * without asking again; a new hub reuses the stored tokens; signing out forgets them; a 403
 * insufficient_scope (step-up) and a revoked refresh token each ask the user to sign in again.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ToolHostEvent } from '../../../src/agent/ports';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { OAuthHost } from '../../../src/mcp/oauthClient';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../fakes/oauthMcpServer';
import { InMemoryOAuthStore, signal } from './mcpHarness';

describe('OAuth sign-in for Streamable HTTP servers', () => {
  let server: OAuthMcpServer;
  const store = new InMemoryOAuthStore();
  const opened: string[] = [];
  const host: OAuthHost = {
    store,
    openSignIn: async (_server, url) => {
      opened.push(url.href);
      // The browser comes back asynchronously, as a user would.
      setTimeout(() => void browse(url).catch(() => undefined), 10);
    },
  };
  let hubs: McpHub[] = [];
  const newHub = () => {
    const hub = new McpHub([{ name: 'secure', transport: { type: 'http', url: server.url, headers: {} } }], { oauth: host, restart: { initialDelayMs: 50 } });
    hubs.push(hub);
    return hub;
  };

  before(async () => {
    server = await startOAuthMcpServer();
  });
  afterEach(async () => {
    await Promise.all(hubs.map((h) => h.close()));
    hubs = [];
  });
  after(async () => server.close());

  it('a 401 starts sign-in; after the redirect the tools work and the tokens are stored', async () => {
    const hub = newHub();
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['secure__whoami', 'secure__admin', 'secure__audit']);
    assert.equal(opened.length, 1);
    const url = new URL(opened[0] ?? '');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(url.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const result = await hub.callTool('secure', 'whoami', {}, { signal: signal() });
    assert.equal(result.text, `client ${server.auth.registered[0]?.client_id}`);
    const [record] = [...store.records.values()];
    assert.ok(record?.tokens?.access_token && record.tokens.refresh_token && record.client?.client_id);
    assert.deepEqual(server.auth.log, ['register', 'authorize', 'token:code']);
  });

  it('an expired access token is refreshed without asking the user again', async () => {
    const hub = newHub();
    await hub.listTools();
    server.auth.expireAccessTokens();
    const result = await hub.callTool('secure', 'whoami', {}, { signal: signal() });
    assert.match(result.text, /^client /);
    assert.ok(server.auth.log.includes('token:refresh'), server.auth.log.join(','));
    assert.equal(opened.length, 1, 'no second sign-in');
  });

  it('signing out forgets the tokens; the next use asks again', async () => {
    const hub = newHub();
    const events: ToolHostEvent[] = [];
    hub.subscribe((e) => events.push(e));
    await hub.listTools();
    await hub.signOut('secure');
    assert.equal(store.records.size, 0);
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['secure__whoami', 'secure__admin', 'secure__audit']);
    assert.equal(opened.length, 2);
  });

  it('a 403 insufficient_scope asks the user to sign in again with the union of the scopes, never a refresh loop; the call then runs', async () => {
    const hub = newHub();
    await hub.listTools();
    const signIns = opened.length;
    const log = server.auth.log.length;
    const admin = await hub.callTool('secure', 'admin', {}, { signal: signal() });
    assert.equal(admin.isError, false, admin.text);
    assert.equal(admin.text, 'admin with admin');
    assert.equal(new URL(opened[signIns] ?? '').searchParams.get('scope'), 'admin');
    const audit = await hub.callTool('secure', 'audit', {}, { signal: signal() });
    assert.equal(audit.text, 'audit with admin audit', 'the second step-up keeps the first scope');
    assert.equal(new URL(opened[signIns + 1] ?? '').searchParams.get('scope'), 'admin audit');
    assert.equal(opened.length, signIns + 2, 'one sign-in per step-up');
    assert.deepEqual(server.auth.log.slice(log), ['authorize', 'token:code', 'authorize', 'token:code'], 'no refresh of the smaller grant');
    assert.deepEqual(server.auth.authorizedScopes.slice(-2), ['admin', 'admin audit']);
    assert.equal((await hub.callTool('secure', 'admin', {}, { signal: signal() })).text, 'admin with admin audit');
  });

  it('a revoked refresh token leads to a new sign-in, not a failure', async () => {
    const hub = newHub();
    await hub.listTools();
    const signIns = opened.length;
    server.auth.expireAccessTokens();
    server.auth.revokeRefreshTokens();
    const result = await hub.callTool('secure', 'whoami', {}, { signal: signal() });
    assert.match(result.text, /^client /);
    assert.equal(opened.length, signIns + 1, 'asked to sign in once');
    assert.equal(server.auth.log.at(-1), 'token:code');
  });

  it('an authorization server on another origin, named by the protected-resource metadata: sign-in goes there and the tools work (https://github.com/open-webui/open-webui/pull/19795, https://github.com/punkpeye/mcp-remote/pull/193)', async () => {
    const split = await startOAuthMcpServer({ separateAuthorizationServer: true });
    try {
      assert.notEqual(new URL(split.issuer).origin, new URL(split.url).origin);
      const hub = new McpHub([{ name: 'split', transport: { type: 'http', url: split.url, headers: {} } }], { oauth: host, restart: { initialDelayMs: 50 } });
      hubs.push(hub);
      const signIns = opened.length;
      const tools = await hub.listTools();
      assert.deepEqual(tools.map((t) => t.qualifiedName), ['split__whoami', 'split__admin', 'split__audit']);
      assert.equal(opened.length, signIns + 1);
      assert.equal(new URL(opened[signIns] ?? '').origin, new URL(split.issuer).origin, 'the sign-in page is the authorization server\'s');
      const result = await hub.callTool('split', 'whoami', {}, { signal: signal() });
      assert.equal(result.text, `client ${split.auth.registered[0]?.client_id}`);
      assert.deepEqual(split.auth.log, ['register', 'authorize', 'token:code']);
    } finally {
      await split.close();
    }
  });

  it('without a sign-in host a 401 is a clear start failure', async () => {
    const hub = new McpHub([{ name: 'secure', transport: { type: 'http', url: server.url, headers: {} } }]);
    hubs.push(hub);
    const events: ToolHostEvent[] = [];
    hub.subscribe((e) => events.push(e));
    assert.deepEqual(await hub.listTools(), []);
    const error = events.find((e) => e.type === 'server_error');
    assert.match(error?.type === 'server_error' ? error.message : '', /MCP server "secure" \(URL http:\/\/127\.0\.0\.1:\d+\/mcp\) failed to start/);
  });
});
