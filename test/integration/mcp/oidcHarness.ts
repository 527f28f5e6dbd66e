/**
 * A real OAuth authorization server from the npm registry (`oidc-provider`, with its own login and
 * consent pages, dynamic client registration, refresh, revocation and RFC 8707 resource indicators) on
 * one origin of 127.0.0.1, in front of a v2 `@modelcontextprotocol/server` on another: the MCP server is
 * a resource server only. It publishes its protected-resource metadata (RFC 9728) naming the provider,
 * verifies the provider's JWT access tokens (signature from the provider's JWKS, issuer, audience = the
 * MCP URL, expiry), answers 401 invalid_token or, per tool, 403 insufficient_scope with the SDK's
 * `WWW-Authenticate` challenge. Also `Browser`, the user's browser: a cookie jar that follows the
 * provider's redirects and submits its login and consent forms until the redirect reaches the client's
 * loopback listener.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  requireScopes,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
} from '@modelcontextprotocol/server';

/** The scopes the MCP server knows; its 401 asks for `whoami` only (the least it needs), so `admin` needs a step-up. */
const RESOURCE_SCOPES = ['whoami', 'admin'];

export interface OidcMcpServer {
  /** The MCP endpoint (the resource indicator of its tokens). */
  url: string;
  issuer: string;
  /** Every access token verified so far is refused from now on, as if it had expired. */
  expireAccessTokens(): void;
  /** Revokes a token at the provider's revocation endpoint, as the client itself would (RFC 7009). */
  revoke(token: string, clientId: string): Promise<number>;
  /** What the provider did, in order: `register`, `authorize`, `token:<grant type>`, `token_error:<error>`, `refresh_token.destroyed`. */
  log: string[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

/** oidc-provider: open dynamic registration, refresh tokens for every client allowed the grant, JWT access tokens for the one MCP resource. */
function authorizationServer(issuer: string, resource: string): Provider {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return new Provider(issuer, {
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['oidc-harness-cookie-key'] },
    scopes: ['offline_access', ...RESOURCE_SCOPES],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
          return { scope: RESOURCE_SCOPES.join(' '), audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: 3600, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    // A public native client that asks for the refresh grant gets refresh tokens (oidc-provider's
    // default ties them to offline_access, which the MCP client asks for only when advertised).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { RefreshToken: 86_400, Session: 86_400, Grant: 86_400, Interaction: 600, AuthorizationCode: 600 },
  });
}

function recordProvider(provider: Provider, log: string[]): void {
  provider.on('registration_create.success', () => log.push('register'));
  provider.on('authorization.success', () => log.push('authorize'));
  provider.on('grant.success', (ctx) => log.push(`token:${(ctx.oidc.params?.grant_type as string | undefined) ?? '?'}`));
  provider.on('grant.error', (_ctx, error) => log.push(`token_error:${(error as { error?: string }).error ?? 'unknown'}`));
  provider.on('refresh_token.destroyed', () => log.push('refresh_token.destroyed'));
}

/** The MCP server's tools: who signed in, and `admin`, which needs the `admin` scope (403 insufficient_scope until the token has it). */
function mcpServer(authInfo: AuthInfo | undefined): McpServer {
  const server = new McpServer({ name: 'oidc-resource', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Who the token belongs to.' }, () => ({ content: [{ type: 'text', text: `${authInfo?.extra?.sub as string} via ${authInfo?.clientId}` }] }));
  server.registerTool('admin', { description: 'Needs the "admin" scope.', scopeChallenge: requireScopes('admin') }, () => ({
    content: [{ type: 'text', text: `admin with ${authInfo?.scopes.join(' ')}` }],
  }));
  return server;
}

/** Starts oidc-provider and the protected MCP server (both protocol eras), each on a free port of 127.0.0.1. */
export async function startOidcMcpServer(): Promise<OidcMcpServer> {
  const asHttp = createServer();
  const issuer = (await listen(asHttp)).href.replace(/\/$/, '');
  const rsHttp = createServer();
  const mcpUrl = new URL('/mcp', await listen(rsHttp));
  const provider = authorizationServer(issuer, mcpUrl.href);
  const log: string[] = [];
  recordProvider(provider, log);
  asHttp.on('request', provider.callback());

  const asMetadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as OAuthMetadata;
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const protectedResource = JSON.stringify(
    buildOAuthProtectedResourceMetadata({ oauthMetadata: asMetadata, resourceServerUrl: mcpUrl, scopesSupported: RESOURCE_SCOPES, resourceName: 'oidc-resource' }),
  );
  const jwks = createRemoteJWKSet(new URL(String(asMetadata.jwks_uri)));
  const seen = new Set<string>();
  const expired = new Set<string>();
  const verifier = {
    verifyAccessToken: async (token: string): Promise<AuthInfo> => {
      const claims = await jwtVerify(token, jwks, { issuer, audience: mcpUrl.href }).then(
        (r) => r.payload,
        (error: unknown) => {
          throw new OAuthError(OAuthErrorCode.InvalidToken, `access token refused: ${(error as Error).message}`);
        },
      );
      if (expired.has(token)) throw new OAuthError(OAuthErrorCode.InvalidToken, 'access token expired');
      seen.add(token);
      const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
      return { token, clientId: String(claims.client_id), scopes, expiresAt: claims.exp, resource: new URL(mcpUrl), extra: { sub: claims.sub } };
    },
  };
  const handler = createMcpHandler(({ authInfo }) => mcpServer(authInfo));
  const node = toNodeHandler(handler);
  rsHttp.on('request', (req: IncomingMessage & { auth?: AuthInfo }, res) => {
    const path = new URL(req.url ?? '/', mcpUrl).pathname;
    if (path === new URL(resourceMetadataUrl).pathname) return void res.writeHead(200, { 'content-type': 'application/json' }).end(protectedResource);
    if (path !== mcpUrl.pathname) return void res.writeHead(404).end();
    verifyBearerToken(req.headers.authorization, { verifier, resourceMetadataUrl, expectedResource: mcpUrl, requiredScopes: ['whoami'] }).then(
      async (auth) => {
        req.auth = auth;
        await node(req, res);
      },
      async (error: unknown) => {
        const answer = bearerAuthChallengeResponse(error, { resourceMetadataUrl, requiredScopes: ['whoami'] });
        res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
      },
    );
  });

  return {
    url: mcpUrl.href,
    issuer,
    log,
    expireAccessTokens: () => seen.forEach((token) => expired.add(token)),
    revoke: async (token, clientId) => {
      const body = new URLSearchParams({ token, client_id: clientId });
      return (await fetch(String(asMetadata.revocation_endpoint), { method: 'POST', body })).status;
    },
    close: async () => {
      for (const http of [asHttp, rsHttp]) {
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      }
      await handler.close?.();
    },
  };
}

interface Cookie {
  value: string;
  path: string;
}

/**
 * The user's browser: keeps the provider's cookies (by name and path, as a browser does), follows
 * redirects, and on a page with a form submits it, filling the login form as `account`. It stops when
 * a redirect reaches the loopback redirect URI (`http://127.0.0.1:<port>/callback`), which it opens.
 */
export class Browser {
  private readonly jar = new Map<string, Cookie & { name: string }>();
  /** The pages it was shown, in order: `login`, `consent`. */
  readonly pages: string[] = [];

  constructor(private readonly account = 'alice') {}

  async open(start: URL | string): Promise<number> {
    let request: { url: URL; body?: URLSearchParams } = { url: new URL(start) };
    for (let hop = 0; hop < 20; hop++) {
      if (request.url.pathname === '/callback') return (await fetch(request.url)).status;
      const response = await fetch(request.url, {
        method: request.body === undefined ? 'GET' : 'POST',
        redirect: 'manual',
        headers: { cookie: this.cookiesFor(request.url), ...(request.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      this.keep(response.headers.getSetCookie());
      const location = response.headers.get('location');
      if (location !== null) {
        request = { url: new URL(location, request.url) };
        continue;
      }
      const page = await response.text();
      const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/.exec(page);
      if (form === null) throw new Error(`the sign-in page at ${request.url.pathname} has no form (${response.status}): ${page.slice(0, 300)}`);
      const fields = new URLSearchParams([...(form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
      this.pages.push(fields.get('prompt') ?? 'form');
      if (/name="login"/.test(form[2] ?? '')) {
        fields.set('login', this.account);
        fields.set('password', 'any');
      }
      request = { url: new URL(form[1] ?? '', request.url), body: fields };
    }
    throw new Error('the sign-in did not reach the redirect URI in 20 steps');
  }

  private cookiesFor(url: URL): string {
    return [...this.jar.values()]
      .filter((c) => url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const gone = attributes.some((a) => /^expires=.*1970/i.test(a) || /^max-age=0$/i.test(a)) || value === '';
      if (gone) this.jar.delete(`${name} ${path}`);
      else this.jar.set(`${name} ${path}`, { name, value, path });
    }
  }
}
