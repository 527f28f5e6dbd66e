/**
 * Sign-in for Streamable HTTP servers that ask for it (the MCP authorization spec: a 401 with
 * `WWW-Authenticate` starts OAuth with PKCE and dynamic client registration), as the SDK's
 * OAuthClientProvider. The host supplies where secrets live (an OAuthStore: VS Code's SecretStorage,
 * the CLI's private state folder) and how the user is sent to the sign-in page (a browser, a printed
 * URL). The redirect comes back to a loopback listener on 127.0.0.1, open only while a connection is
 * being made; its port is kept with the client registration so the registered redirect stays valid.
 * Where the user's browser does not share that loopback (an editor's remote window), the host names
 * the address the browser reaches the listener at, and that address is what gets registered.
 */
import { randomBytes } from 'node:crypto';
import { registerClient, type OAuthClientInformationFull, type OAuthClientMetadata, type OAuthClientProvider, type OAuthDiscoveryState, type StoredOAuthClientInformation, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './config';
import { LoopbackRedirect } from './loopbackRedirect';
import { quotedName } from '../agent/nameText';

/** Everything kept for one server: never in settings, logs or a child's environment. */
export interface OAuthRecord {
  tokens?: StoredOAuthTokens;
  client?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  codeVerifier?: string;
  /** The loopback port the client was registered with. */
  redirectPort?: number;
  /** The redirect URI registered instead of the loopback one, when the browser reaches the listener elsewhere. */
  redirectUrl?: string;
}

export interface OAuthStore {
  load(key: string): Promise<OAuthRecord | undefined>;
  save(key: string, record: OAuthRecord): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface OAuthHost {
  store: OAuthStore;
  /** Sends the user to the sign-in page (opens a browser, prints the URL). */
  openSignIn(server: string, url: URL): void | Promise<void>;
  /** How long to wait for the user to finish signing in; default 5 minutes. */
  signInTimeoutMs?: number;
  clientName?: string;
  /**
   * Where the user's browser reaches the loopback listener at `loopback`, when that is not the
   * loopback itself (the extension host of a remote window); absent or the same URI: the loopback.
   */
  reachableRedirect?(loopback: string): Promise<string>;
}

/** The store key of a server: its name and URL, so a changed URL never gets another server's tokens. */
function oauthKey(server: string, url: string): string {
  return `${server} ${url}`;
}

/** The sign-in helper of an HTTP server, when the host can sign in. */
export function serverOAuth(config: McpServerConfig, host: OAuthHost | undefined): ServerOAuth | undefined {
  const t = config.transport;
  return t.type === 'http' && host !== undefined ? new ServerOAuth(config.name, t.url, host) : undefined;
}

/** Deletes what is stored for the server's sign-in; false when it has none to forget. */
export async function forgetSignIn(config: McpServerConfig, host: OAuthHost | undefined): Promise<boolean> {
  const t = config.transport;
  if (t.type !== 'http' || host === undefined) return false;
  await host.store.clear(oauthKey(config.name, t.url));
  return true;
}

export class ServerOAuth implements OAuthClientProvider {
  private record: OAuthRecord = {};
  private redirect: LoopbackRedirect | undefined;
  private expectedState = '';
  /** Resolves with the redirect's parameters (code, iss) once the user signed in; set by redirectToAuthorization. */
  pendingCode: Promise<URLSearchParams> | undefined;

  constructor(
    private readonly server: string,
    private readonly url: string,
    private readonly host: OAuthHost,
  ) {}

  /**
   * Loads what is stored and settles the redirect URI: the loopback port the client was registered
   * with (or a free one picked now; the listener itself opens only while a sign-in waits for its
   * redirect), as the host says the browser reaches it.
   */
  async prepare(): Promise<void> {
    this.record = (await this.host.store.load(this.key)) ?? {};
    const port = this.record.redirectPort ?? (await LoopbackRedirect.freePort());
    const loopback = LoopbackRedirect.callbackUrl(port);
    const reachable = (await this.host.reachableRedirect?.(loopback)) ?? loopback;
    const redirectUrl = reachable === loopback ? undefined : reachable;
    if (port === this.record.redirectPort && redirectUrl === this.record.redirectUrl) return;
    // A registration names its redirect URI: with a new one it must be made again.
    const { client: _dropped, redirectUrl: _old, ...rest } = this.record;
    this.record = { ...rest, redirectPort: port, ...(redirectUrl === undefined ? {} : { redirectUrl }) };
    await this.persist();
  }

  /** Ends a sign-in in progress (the connection is gone) and closes the listener. */
  async done(): Promise<void> {
    const redirect = this.redirect;
    this.redirect = undefined;
    this.pendingCode = undefined;
    await redirect?.close();
  }

  get redirectUrl(): string {
    return this.record.redirectUrl ?? LoopbackRedirect.callbackUrl(this.record.redirectPort ?? 0);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.host.clientName ?? 'Sprout Agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex');
    return this.expectedState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.record.client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this.update({ client });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.update({ tokens });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update({ codeVerifier });
  }

  codeVerifier(): string {
    if (this.record.codeVerifier === undefined) throw new Error(`MCP server ${quotedName(this.server)}: no sign-in is in progress`);
    return this.record.codeVerifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery });
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const drop: Record<typeof scope, (keyof OAuthRecord)[]> = {
      all: ['tokens', 'client', 'discovery', 'codeVerifier'],
      client: ['client'],
      tokens: ['tokens'],
      verifier: ['codeVerifier'],
      discovery: ['discovery'],
    };
    const next = { ...this.record };
    for (const key of drop[scope]) delete next[key];
    this.record = next;
    await this.persist();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.registerForScope(authorizationUrl);
    await this.redirect?.close();
    const redirect = await this.openListener();
    this.redirect = redirect;
    const timeoutMs = this.host.signInTimeoutMs ?? 5 * 60_000;
    const code = redirect.waitForCallback(this.expectedState, timeoutMs, this.server);
    this.pendingCode = code.finally(() => void redirect.close().catch(() => undefined));
    // Never unhandled: the connection awaits it, or gives up on it when closed.
    this.pendingCode.catch(() => undefined);
    await this.host.openSignIn(this.server, authorizationUrl);
  }

  /**
   * A registration names the scopes the client may ask for (RFC 7591 `scope`; the SDK registers with
   * the scope of the first sign-in), and a strict authorization server (oidc-provider) refuses anything
   * more with invalid_scope. A step-up that asks for more registers again with the scopes it asks for,
   * and this sign-in goes out under the new client id.
   */
  private async registerForScope(authorizationUrl: URL): Promise<void> {
    const registered = (this.record.client as Partial<OAuthClientInformationFull> | undefined)?.scope;
    const wanted = authorizationUrl.searchParams.get('scope')?.split(' ').filter(Boolean) ?? [];
    const discovery = this.record.discovery;
    if (registered === undefined || discovery === undefined || wanted.every((s) => registered.split(' ').includes(s))) return;
    const metadata = discovery.authorizationServerMetadata;
    const client = await registerClient(discovery.authorizationServerUrl, { ...(metadata !== undefined ? { metadata } : {}), clientMetadata: this.clientMetadata, scope: wanted.join(' ') });
    await this.update({ client: { ...client, ...(this.record.client?.issuer !== undefined ? { issuer: this.record.client.issuer } : {}) } });
    authorizationUrl.searchParams.set('client_id', client.client_id);
  }

  /** The listener on the registered port; when another program took it, the next try registers anew. */
  private async openListener(): Promise<LoopbackRedirect> {
    const port = this.record.redirectPort ?? 0;
    try {
      return await LoopbackRedirect.open(port, true);
    } catch (error) {
      const { client: _dropped, redirectPort: _port, redirectUrl: _url, ...rest } = this.record;
      this.record = rest;
      await this.persist();
      throw new Error(`MCP server ${quotedName(this.server)}: the sign-in redirect port ${port} on 127.0.0.1 is taken (${(error as Error).message}); try again`, { cause: error });
    }
  }

  private get key(): string {
    return oauthKey(this.server, this.url);
  }

  private async update(change: Partial<OAuthRecord>): Promise<void> {
    this.record = { ...this.record, ...change };
    await this.persist();
  }

  private persist(): Promise<void> {
    return this.host.store.save(this.key, this.record);
  }
}
