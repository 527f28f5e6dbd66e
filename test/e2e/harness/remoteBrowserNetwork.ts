// The network of a browser on another machine than the extension host (a remote window): Chromium
// sends every request through this proxy, loopback included, and the proxy reaches only the
// workbench, under a host name of its own, and the origins a test allows (an authorization server on
// the internet). Everything else is refused, above all the extension host's loopback ports, which a
// remote browser cannot reach. Refusals are recorded, so a test waits on them instead of a timeout.
import { Agent, createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * The workbench's host name as the browser knows it: the proxy maps it to 127.0.0.1 on any port. A
 * `.localhost` name is a secure context as the https of a real deployment is (the workbench's webviews
 * need service workers), while the browser still reaches it only through the proxy.
 */
export const REMOTE_HOST = 'code-server.localhost';

export interface RemoteBrowserNetwork {
  host: string;
  /** Chromium's arguments that send every request through the proxy (Chromium bypasses it for loopback otherwise). */
  chromiumArgs: string[];
  /** Lets the browser reach `origin` (`host:port`). */
  allow(origin: string): void;
  /** Resolves with the first refused URL matching `pattern`. */
  refusal(pattern: RegExp): Promise<string>;
  close(): Promise<void>;
}

export async function startRemoteBrowserNetwork(): Promise<RemoteBrowserNetwork> {
  const allowed = new Set<string>();
  const refused: string[] = [];
  const listeners = new Set<() => void>();
  // Every socket on either side of the proxy, so closing it ends them all: a CONNECT tunnel is no
  // longer an HTTP connection (closeAllConnections skips it), and a half-closed one would hold close()
  // open for ever. Requests go upstream on sockets of their own, never kept alive in a shared pool.
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const agent = new Agent({ keepAlive: false });
  const target = (origin: string): { host: string; port: number } | undefined => {
    const { hostname, port } = new URL(`http://${origin}`);
    if (hostname === REMOTE_HOST) return { host: '127.0.0.1', port: Number(port || 80) };
    return allowed.has(origin) ? { host: hostname, port: Number(port || 80) } : undefined;
  };
  const refuse = (what: string): void => {
    refused.push(what);
    for (const l of listeners) l();
  };
  const proxy: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/');
    const to = target(url.host);
    if (to === undefined) return void (refuse(url.origin + url.pathname), res.writeHead(502).end('unreachable from the browser'));
    const { 'proxy-connection': _hop, ...headers } = req.headers;
    const upstream = request({ ...to, agent, method: req.method, path: url.pathname + url.search, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('socket', track);
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('connection', track);
  // WebSockets (the workbench's connection to its server) go through CONNECT tunnels.
  proxy.on('connect', (req, socket, head) => {
    const to = target(req.url ?? '');
    if (to === undefined) return void (refuse(`connect ${req.url}`), socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
    const upstream = connect(to.port, to.host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    host: REMOTE_HOST,
    chromiumArgs: [`--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'],
    allow: (origin) => void allowed.add(origin),
    refusal: (pattern) =>
      new Promise((resolve) => {
        const check = (): void => {
          const hit = refused.find((r) => pattern.test(r));
          if (hit === undefined) return;
          listeners.delete(check);
          resolve(hit);
        };
        listeners.add(check);
        check();
      }),
    close: async () => {
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}
