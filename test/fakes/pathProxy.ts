/**
 * code-server's `/proxy/<port>/` route for hosts that lack it: forwards `/proxy/<port>/<path>` to
 * 127.0.0.1:<port>/<path>. It stands for a remote window's port forwarding where the real one is not
 * there (the bare VS Code server of the editor suite, the integration tests' "remote window"), so the
 * sign-in redirect goes the way it does in a remote window. Records what it forwarded.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PathProxy {
  /** `http://127.0.0.1:<port>`: a port's address is `${base}/proxy/<port>/`. */
  base: string;
  /** Each forwarded request as `<status> <path without query>`. */
  forwarded: string[];
  close(): Promise<void>;
}

export async function startPathProxy(): Promise<PathProxy> {
  const forwarded: string[] = [];
  const http: Server = createServer((req, res) => {
    const m = /^\/proxy\/(\d+)(\/.*)$/.exec(req.url ?? '');
    if (m === null) return void res.writeHead(404).end();
    const path = m[2] ?? '/';
    const upstream = request({ host: '127.0.0.1', port: Number(m[1]), path, method: req.method, headers: req.headers }, (answer) => {
      forwarded.push(`${answer.statusCode} ${path.split('?')[0]}`);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  http.unref();
  return {
    base: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    forwarded,
    close: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
