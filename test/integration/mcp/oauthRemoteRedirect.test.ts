/**
 * Sign-in where the browser does not share the loopback of the machine Sprout runs on (an editor's
 * remote window): the host names the address the browser reaches the loopback listener at (here a
 * path proxy standing for the editor's port forwarding, as code-server's /proxy/<port>/), and that
 * address is registered, sent as the redirect, and reached through the forwarder with the state check
 * and the fixed answer page unchanged. A window at another address registers the client again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHub } from '../../../src/mcp/mcpHub';
import type { OAuthHost, OAuthRecord } from '../../../src/mcp/oauthClient';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../fakes/oauthMcpServer';
import { startPathProxy, type PathProxy } from '../../fakes/pathProxy';
import { signal } from './mcpHarness';

describe('OAuth sign-in in a remote window (the browser reaches the listener through a forwarded address)', () => {
  let server: OAuthMcpServer;
  let forwarders: PathProxy[] = [];
  let window: PathProxy;
  const records = new Map<string, OAuthRecord>();
  const opened: URL[] = [];
  const answers: number[] = [];
  const host: OAuthHost = {
    store: {
      load: async (key) => records.get(key),
      save: async (key, record) => void records.set(key, structuredClone(record)),
      clear: async (key) => void records.delete(key),
    },
    openSignIn: (_server, url) => {
      opened.push(url);
      setTimeout(() => void browse(url).then((status) => answers.push(status), () => answers.push(0)), 10);
    },
    reachableRedirect: async (loopback) => {
      const { port, pathname } = new URL(loopback);
      return `${window.base}/proxy/${port}${pathname}`;
    },
  };
  const withHub = async <T>(use: (hub: McpHub) => Promise<T>): Promise<T> => {
    const hub = new McpHub([{ name: 'secure', transport: { type: 'http', url: server.url, headers: {} } }], { oauth: host });
    try {
      return await use(hub);
    } finally {
      await hub.close();
    }
  };

  before(async () => {
    server = await startOAuthMcpServer();
    forwarders = [await startPathProxy(), await startPathProxy()];
    window = forwarders[0]!;
  });
  after(async () => {
    await server.close();
    await Promise.all(forwarders.map((f) => f.close()));
  });

  it('registers and sends the forwarded address, and the redirect reaches the listener through it', async () => {
    const text = await withHub(async (hub) => (await hub.callTool('secure', 'whoami', {}, { signal: signal() })).text);
    assert.equal(text, `client ${server.auth.registered[0]?.client_id}`);
    const redirect = opened[0]?.searchParams.get('redirect_uri') ?? '';
    assert.match(redirect, new RegExp(`^${window.base}/proxy/\\d+/callback$`));
    assert.deepEqual(server.auth.registered[0]?.redirect_uris, [redirect]);
    assert.deepEqual(window.forwarded, ['200 /callback'], 'the listener answered its fixed page through the forwarder');
    assert.deepEqual(answers, [200]);
  });

  it('a window at another address keeps valid tokens, and its next sign-in registers the client again there', async () => {
    window = forwarders[1]!;
    await withHub((hub) => hub.listTools());
    assert.equal(opened.length, 1, 'the stored tokens still work: no sign-in');
    server.auth.expireAccessTokens();
    server.auth.revokeRefreshTokens();
    await withHub((hub) => hub.callTool('secure', 'whoami', {}, { signal: signal() }));
    assert.equal(opened.length, 2);
    assert.equal(server.auth.log.filter((step) => step === 'register').length, 2);
    const redirect = opened[1]?.searchParams.get('redirect_uri') ?? '';
    assert.match(redirect, new RegExp(`^${window.base}/proxy/\\d+/callback$`));
    assert.deepEqual(server.auth.registered[1]?.redirect_uris, [redirect]);
    assert.deepEqual(window.forwarded, ['200 /callback']);
  });
});
