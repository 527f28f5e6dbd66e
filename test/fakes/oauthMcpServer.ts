/**
 * An MCP server behind OAuth on 127.0.0.1, for sign-in tests, on the v2 SDK: the resource-server side
 * (verifyBearerToken on /mcp, a per-tool scope challenge answering 403 insufficient_scope) in front of a
 * createMcpHandler serving both protocol eras, and the authorization-server helpers the v2 line keeps
 * in `@modelcontextprotocol/server-legacy/auth` (mcpAuthRouter: metadata, dynamic registration,
 * authorize, token, revoke) over InMemoryAuthorizationServer, which signs the user in at once (no login
 * page), grants the scopes asked for, and records what it did. Access tokens can be expired and refresh
 * tokens revoked on demand. Also `browse`, a stand-in for the user's browser: it follows the
 * authorization redirect to the client's loopback listener, as a browser would.
 */
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  bearerAuthChallengeResponse,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  requireScopes,
  verifyBearerToken,
  type AuthInfo,
  type OAuthClientInformationFull,
  type OAuthTokenRevocationRequest,
  type OAuthTokens,
} from '@modelcontextprotocol/server';
// The v2 SDK keeps only the resource-server side; its authorization-server helpers live on here.
import { InvalidGrantError, mcpAuthRouter, type AuthorizationParams, type OAuthRegisteredClientsStore, type OAuthServerProvider } from '@modelcontextprotocol/server-legacy/auth';

interface Grant {
  clientId: string;
  expiresAt: number;
  scopes: string[];
}

class InMemoryAuthorizationServer implements OAuthServerProvider {
  readonly registered: OAuthClientInformationFull[] = [];
  readonly log: string[] = [];
  private readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  private readonly access = new Map<string, Grant>();
  private readonly refresh = new Map<string, { clientId: string; scopes: string[] }>();
  /** The scope each authorization asked for, in order (empty when none). */
  readonly authorizedScopes: string[] = [];

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
    this.authorizedScopes.push((params.scopes ?? []).join(' '));
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
    return this.issue(client.client_id, entry.params.scopes ?? []);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    // invalid_grant, as a real authorization server answers a revoked or expired refresh token.
    if (grant?.clientId !== client.client_id) throw new InvalidGrantError('refresh token revoked or expired');
    this.refresh.delete(refreshToken);
    this.log.push('token:refresh');
    return this.issue(client.client_id, grant.scopes);
  }

  async revokeToken(_client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    this.access.delete(request.token);
    this.refresh.delete(request.token);
    this.log.push('revoke');
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    // invalid_token is what makes the bearer check answer 401 (anything else is a 500).
    if (grant === undefined || grant.expiresAt < Date.now()) throw new OAuthError(OAuthErrorCode.InvalidToken, 'invalid or expired token');
    return { token, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000) + 1 };
  }

  /** Every access token given out so far stops working (as if they expired). */
  expireAccessTokens(): void {
    this.access.clear();
  }

  /** Every refresh token given out so far stops working (revoked at the authorization server). */
  revokeRefreshTokens(): void {
    this.refresh.clear();
  }

  private issue(clientId: string, scopes: string[]): OAuthTokens {
    const accessToken = randomUUID();
    const refreshToken = randomUUID();
    this.access.set(accessToken, { clientId, expiresAt: Date.now() + 3_600_000, scopes });
    this.refresh.set(refreshToken, { clientId, scopes });
    return { access_token: accessToken, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken, ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}) };
  }
}

export interface OAuthMcpServer {
  url: string;
  /** The authorization server's issuer URL (the MCP server's origin unless it was started on its own). */
  issuer: string;
  auth: InMemoryAuthorizationServer;
  close(): Promise<void>;
}

/** The server's tools: who the token belongs to, and two that each need one more scope (step-up). */
function oauthMcpServer(authInfo: AuthInfo | undefined): McpServer {
  const server = new McpServer({ name: 'oauth-fake', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Who the token belongs to.' }, () => ({ content: [{ type: 'text', text: `client ${authInfo?.clientId ?? 'unknown'}` }] }));
  for (const scope of ['admin', 'audit']) {
    const granted = () => ({ content: [{ type: 'text' as const, text: `${scope} with ${authInfo?.scopes.join(' ')}` }] });
    server.registerTool(scope, { description: `Needs the "${scope}" scope.`, scopeChallenge: requireScopes(scope) }, granted);
  }
  return server;
}

export interface OAuthMcpServerOptions {
  /**
   * The authorization server on its own origin (another port of 127.0.0.1), as hosted servers have it
   * (Todoist, Supabase, Linear): the MCP server's protected-resource metadata names it.
   */
  separateAuthorizationServer?: boolean;
}

async function listen(app: express.Express): Promise<HttpServer> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

async function closeHttp(http: HttpServer): Promise<void> {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
}

/** A protected MCP server (both protocol eras): `whoami` answers the client id of the token; `admin` and `audit` answer 403 insufficient_scope until the token has that scope. */
export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const auth = new InMemoryAuthorizationServer();
  const app = express();
  const http = await listen(app);
  const base = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  const mcpUrl = new URL('/mcp', base);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const authApp = options.separateAuthorizationServer ? express() : undefined;
  const authHttp = authApp ? await listen(authApp) : undefined;
  const issuer = authHttp ? new URL(`http://127.0.0.1:${(authHttp.address() as AddressInfo).port}`) : base;
  (authApp ?? app).use(mcpAuthRouter({ provider: auth, issuerUrl: issuer, resourceServerUrl: mcpUrl }));
  // The resource's own metadata names the authorization server, wherever it lives (RFC 9728).
  if (authApp) app.get(new URL(resourceMetadataUrl).pathname, (_req, res) => void res.json({ resource: mcpUrl.href, authorization_servers: [issuer.href] }));
  const handler = createMcpHandler(({ authInfo }) => oauthMcpServer(authInfo));
  const node = toNodeHandler(handler);
  app.all('/mcp', async (req, res) => {
    try {
      (req as typeof req & { auth?: AuthInfo }).auth = await verifyBearerToken(req.headers.authorization, { verifier: auth, resourceMetadataUrl });
    } catch (error) {
      return void (await sendResponse(res, bearerAuthChallengeResponse(error, { resourceMetadataUrl })));
    }
    await node(req, res);
  });
  return {
    url: mcpUrl.href,
    issuer: issuer.href,
    auth,
    close: async () => {
      await closeHttp(http);
      if (authHttp) await closeHttp(authHttp);
      await handler.close?.();
    },
  };
}

/** Writes a web-standard Response (the SDK's challenge) to Express. */
async function sendResponse(res: Response, answer: globalThis.Response): Promise<void> {
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.status(answer.status).send(await answer.text());
}

/** The user's browser: opens the sign-in URL and follows the redirect back to the client's listener. */
export async function browse(url: URL | string): Promise<number> {
  const authorize = await fetch(url, { redirect: 'manual' });
  const location = authorize.headers.get('location');
  if (location === null) throw new Error(`the authorization server did not redirect (${authorize.status})`);
  const back = await fetch(location);
  return back.status;
}
