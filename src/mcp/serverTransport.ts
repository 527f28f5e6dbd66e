/**
 * Builds the SDK transport for one configured server and gives the hub one way to stop it, whatever
 * the transport: for stdio, kill means SIGKILL to the whole process group; for Streamable HTTP, kill
 * means terminating the session and closing the connection; for the old HTTP+SSE transport (2024-11-05,
 * used when a server has nothing else), closing the stream. Header values are secrets: they go to the
 * transport and nowhere else.
 */
import { SSEClientTransport, StreamableHTTPClientTransport, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import { callStreamGuard } from './callStreamGuard';
import type { McpServerConfig } from './config';
import { minimalEnv } from './minimalEnv';
import { ProcessGroupTransport } from './processGroupTransport';

export interface ServerTransport {
  transport: Transport;
  /** Which wire it is: a process's stdio, Streamable HTTP, or the old HTTP+SSE. */
  kind: 'stdio' | 'http' | 'sse' | 'inProcess';
  /** Process id of a stdio server (the leader of its process group). */
  pid: number | undefined;
  /** What happened to the process, for error messages ("exited with code 1; last stderr: ..."). */
  describeExit(): string;
  /** Stop immediately (SIGKILL the group / terminate the session). Resolves once stopped. */
  kill(): Promise<void>;
  /** Stop politely (SIGTERM, then SIGKILL after a grace). Resolves once stopped. */
  close(): Promise<void>;
  /** HTTP with sign-in: trades the authorization code for tokens (kept by the auth provider). */
  finishAuth?(callback: URLSearchParams): Promise<void>;
}

export interface ServerTransportOptions {
  parentEnv: NodeJS.ProcessEnv;
  onStderrLine?: (line: string) => void;
  closeGraceMs?: number;
  /** Sign-in for an HTTP server that asks for it (OAuth). */
  authProvider?: OAuthClientProvider;
  /** Speak the old HTTP+SSE transport to an HTTP server (it has no Streamable HTTP endpoint). */
  legacySse?: boolean;
}

export function createServerTransport(config: McpServerConfig, options: ServerTransportOptions): ServerTransport {
  const t = config.transport;
  if (t.type === 'stdio') {
    const transport = new ProcessGroupTransport({
      server: config.name,
      command: t.command,
      args: t.args,
      env: minimalEnv(options.parentEnv, t.env),
      cwd: t.cwd,
      onStderrLine: options.onStderrLine,
      closeGraceMs: options.closeGraceMs,
    });
    return {
      transport,
      kind: 'stdio',
      get pid() {
        return transport.pid;
      },
      describeExit: () => transport.describeExit(),
      kill: () => transport.kill(),
      close: () => transport.close(),
    };
  }
  if (t.type === 'inProcess') return inProcessTransport(config.name, t.connect);
  const http = { requestInit: { headers: t.headers }, ...(options.authProvider !== undefined ? { authProvider: options.authProvider } : {}) };
  if (options.legacySse) {
    const sse = new SSEClientTransport(new URL(t.url), http);
    const close = () => sse.close().catch(() => undefined);
    return { transport: sse, kind: 'sse', pid: undefined, describeExit: () => '', kill: close, close, finishAuth: (callback) => sse.finishAuth(callback) };
  }
  const transport = new StreamableHTTPClientTransport(new URL(t.url), { ...http, fetch: callStreamGuard() });
  // A hung or unreachable server must not hold up a kill: the DELETE gets a short grace, then we drop our side.
  const stop = async (graceMs: number) => {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([transport.terminateSession().catch(() => undefined), grace]);
    clearTimeout(timer);
    await transport.close().catch(() => undefined);
  };
  return {
    transport,
    kind: 'http',
    pid: undefined,
    describeExit: () => '',
    kill: () => stop(500),
    close: () => stop(options.closeGraceMs ?? 2000),
    finishAuth: (callback) => transport.finishAuth(callback),
  };
}

/**
 * The client's end of an in-process server: the SDK transport is made lazily (on `start`, which the
 * client calls in `connect`), since making it may start the server's side; kill and close both close it.
 */
function inProcessTransport(server: string, connect: () => Promise<Transport>): ServerTransport {
  let inner: Transport | undefined;
  let closed = false;
  const transport: Transport = {
    async start() {
      inner = await connect();
      inner.onmessage = (message, extra) => transport.onmessage?.(message, extra);
      inner.onerror = (error) => transport.onerror?.(error);
      inner.onclose = () => transport.onclose?.();
      await inner.start();
    },
    async send(message, options) {
      if (inner === undefined || closed) throw new Error(`in-process MCP server "${server}" is not connected`);
      await inner.send(message, options);
    },
    async close() {
      if (closed) return;
      closed = true;
      await inner?.close();
    },
  };
  const close = () => transport.close().catch(() => undefined);
  return { transport, kind: 'inProcess', pid: undefined, describeExit: () => '', kill: close, close };
}
