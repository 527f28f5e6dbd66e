/**
 * Builds the SDK transport for one configured server and gives the hub one way to stop it, whatever
 * the transport: for stdio, kill means SIGKILL to the whole process group; for Streamable HTTP, kill
 * means terminating the session and closing the connection. Header values are secrets: they go to the
 * transport and nowhere else.
 */
import { StreamableHTTPClientTransport, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './config';
import { minimalEnv } from './minimalEnv';
import { ProcessGroupTransport } from './processGroupTransport';

export interface ServerTransport {
  transport: Transport;
  /** Process id of a stdio server (the leader of its process group). */
  pid: number | undefined;
  /** What happened to the process, for error messages ("exited with code 1; last stderr: ..."). */
  describeExit(): string;
  /** Stop immediately (SIGKILL the group / terminate the session). Resolves once stopped. */
  kill(): Promise<void>;
  /** Stop politely (SIGTERM, then SIGKILL after a grace). Resolves once stopped. */
  close(): Promise<void>;
  /** HTTP with sign-in: trades the authorization code for tokens (kept by the auth provider). */
  finishAuth?(code: string): Promise<void>;
}

export interface ServerTransportOptions {
  parentEnv: NodeJS.ProcessEnv;
  onStderrLine?: (line: string) => void;
  closeGraceMs?: number;
  /** Sign-in for an HTTP server that asks for it (OAuth). */
  authProvider?: OAuthClientProvider;
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
      get pid() {
        return transport.pid;
      },
      describeExit: () => transport.describeExit(),
      kill: () => transport.kill(),
      close: () => transport.close(),
    };
  }
  const transport = new StreamableHTTPClientTransport(new URL(t.url), {
    requestInit: { headers: t.headers },
    ...(options.authProvider !== undefined ? { authProvider: options.authProvider } : {}),
  });
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
    pid: undefined,
    describeExit: () => '',
    kill: () => stop(500),
    close: () => stop(options.closeGraceMs ?? 2000),
    finishAuth: (code) => transport.finishAuth(code),
  };
}
