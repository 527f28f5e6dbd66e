/**
 * An MCP server behind OAuth on 127.0.0.1, for sign-in tests: the SDK's server-side auth helpers
 * (mcpAuthRouter: metadata, dynamic registration, authorize, token; requireBearerAuth on /mcp) over
 * InMemoryAuthorizationServer, an authorization server that signs the user in at once (no login page)
 * and records what it did. Access tokens can be expired on demand to prove the client refreshes.
 * Also `browse`, a stand-in for the user's browser: it follows the authorization redirect to the
 * client's loopback listener, as a browser would.
 */
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

interface Grant {
  clientId: string;
  expiresAt: number;
}

class InMemoryAuthorizationServer implements OAuthServerProvider {
  readonly registered: OAuthClientInformationFull[] = [];
  readonly log: string[] = [];
  private readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  private readonly access = new Map<string, Grant>();
  private readonly refresh = new Map<string, string>();

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.registered.find((c) => c.client_id === id),
    registerClient: async (client) => {
      const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
      this.registered.push(full);
      this.log.push('register');
      return full;
    },
  };

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    if (!client.redirect_uris.includes(params.redirectUri)) throw new Error('unregistered redirect_uri');
    const code = randomUUID();
    this.codes.set(code, { client, params });
    this.log.push('authorize');
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (entry === undefined) throw new Error('unknown code');
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (entry === undefined || entry.client.client_id !== client.client_id) throw new Error('bad code');
    this.codes.delete(code);
    this.log.push('token:code');
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    if (this.refresh.get(refreshToken) !== client.client_id) throw new Error('bad refresh token');
    this.refresh.delete(refreshToken);
    this.log.push('token:refresh');
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    // InvalidTokenError is what makes requireBearerAuth answer 401 (anything else is a 500).
    if (grant === undefined || grant.expiresAt < Date.now()) throw new InvalidTokenError('invalid or expired token');
    return { token, clientId: grant.clientId, scopes: [], expiresAt: Math.floor(grant.expiresAt / 1000) + 1 };
  }

  /** Every access token given out so far stops working (as if they expired). */
  expireAccessTokens(): void {
    this.access.clear();
  }

  private issue(clientId: string): OAuthTokens {
    const accessToken = randomUUID();
    const refreshToken = randomUUID();
    this.access.set(accessToken, { clientId, expiresAt: Date.now() + 3_600_000 });
    this.refresh.set(refreshToken, clientId);
    return { access_token: accessToken, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken };
  }
}

export interface OAuthMcpServer {
  url: string;
  auth: InMemoryAuthorizationServer;
  close(): Promise<void>;
}

/** A protected MCP server with one tool, `whoami`, answering the client id its token belongs to. */
export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const auth = new InMemoryAuthorizationServer();
  const app = express();
  const http: HttpServer = await new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  const base = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  const mcpUrl = new URL('/mcp', base);
  app.use(mcpAuthRouter({ provider: auth, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  app.all('/mcp', requireBearerAuth({ verifier: auth, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) }), express.json(), async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
      const server = new McpServer({ name: 'oauth-fake', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Who the token belongs to.' }, (extra) => ({ content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'unknown'}` }] }));
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: mcpUrl.href,
    auth,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** The user's browser: opens the sign-in URL and follows the redirect back to the client's listener. */
export async function browse(url: URL | string): Promise<number> {
  const authorize = await fetch(url, { redirect: 'manual' });
  const location = authorize.headers.get('location');
  if (location === null) throw new Error(`the authorization server did not redirect (${authorize.status})`);
  const back = await fetch(location);
  return back.status;
}
