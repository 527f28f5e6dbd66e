/**
 * The OAuth redirect target on 127.0.0.1 (RFC 8252 loopback redirect): a tiny HTTP listener that takes
 * one `/callback?code=...&state=...` (with `iss` when the authorization server sends it, RFC 9207), checks the state, and answers the browser with a fixed page (it
 * never echoes what it received). It listens on the port the client was registered with when that is
 * free, else on a fresh one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { quotedName } from '../agent/nameText';

const PAGE_OK = '<!doctype html><meta charset="utf-8"><title>Signed in</title><p>Signed in to the MCP server. You can close this tab and return to Sprout.</p>';
const PAGE_FAILED = '<!doctype html><meta charset="utf-8"><title>Sign-in failed</title><p>Sign-in did not complete. Return to Sprout for details.</p>';

interface Waiter {
  state: string;
  resolve: (params: URLSearchParams) => void;
  reject: (error: Error) => void;
}

export class LoopbackRedirect {
  private waiter: Waiter | undefined;

  private constructor(private readonly http: Server) {
    http.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') return void res.writeHead(404).end();
      const ok = this.settle(url.searchParams);
      res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(ok ? PAGE_OK : PAGE_FAILED);
    });
  }

  /** Listens on `port` when given and free, else (unless `strict`) on any free port. */
  static async open(port?: number, strict = false): Promise<LoopbackRedirect> {
    const listen = (p: number) =>
      new Promise<Server>((resolve, reject) => {
        const http = createServer();
        http.once('error', reject);
        http.listen(p, '127.0.0.1', () => resolve(http));
      });
    let http: Server;
    try {
      http = await listen(port ?? 0);
    } catch (error) {
      if (port === undefined || strict) throw error;
      http = await listen(0);
    }
    http.unref();
    return new LoopbackRedirect(http);
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  /** The redirect URI a listener on `port` answers. */
  static callbackUrl(port: number): string {
    return `http://127.0.0.1:${port}/callback`;
  }

  /** A port that was free a moment ago, for a redirect URI registered before its listener opens. */
  static async freePort(): Promise<number> {
    const probe = await LoopbackRedirect.open();
    const port = probe.port;
    await probe.close();
    return port;
  }

  /**
   * The parameters of the next redirect carrying `state` and a code (the SDK reads `code` and checks
   * `iss` from them); rejects on an error redirect or after `timeoutMs`.
   */
  waitForCallback(state: string, timeoutMs: number, server: string): Promise<URLSearchParams> {
    this.waiter?.reject(new Error('a newer sign-in replaced this one'));
    return new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`MCP server ${quotedName(server)}: sign-in was not completed within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      const done = (): void => {
        clearTimeout(timer);
        this.waiter = undefined;
      };
      this.waiter = {
        state,
        resolve: (params) => (done(), resolve(params)),
        reject: (error) => (done(), reject(error)),
      };
    });
  }

  async close(): Promise<void> {
    this.waiter?.reject(new Error('sign-in was abandoned (the connection closed)'));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private settle(params: URLSearchParams): boolean {
    const waiter = this.waiter;
    if (waiter === undefined || params.get('state') !== waiter.state) return false;
    const code = params.get('code');
    if (code !== null && code !== '') {
      waiter.resolve(params);
      return true;
    }
    const error = (params.get('error') ?? 'no code').slice(0, 100);
    waiter.reject(new Error(`the authorization server refused the sign-in (${error})`));
    return false;
  }
}
