/**
 * Opens one connection to a server: a fresh transport and SDK client through `initialize`, with the
 * client's capabilities and handlers installed. A Streamable HTTP server that answers 401 gets its
 * sign-in (ServerOAuth sends the user to the page, the code comes back to the loopback listener) and
 * one more try with the new token. ServerConnection owns the life around it (backoff, state, kills).
 */
import { Client, UnauthorizedError } from '@modelcontextprotocol/client';
import { raceAbort } from './abort';
import { clientCapabilities, installFeatureHandlers } from './clientFeatures';
import type { McpServerConfig } from './config';
import type { ServerOAuth } from './oauthClient';
import type { ConnectionOptions } from './connectionTypes';
import { createServerTransport, type ServerTransport } from './serverTransport';

/** A connection that is up: its client, transport, and sign-in helper (kept for refreshes and step-up). */
export interface Live {
  client: Client;
  st: ServerTransport;
  oauth?: ServerOAuth;
}

/**
 * Runs a request; when the server refused it with 401/403 and a sign-in began (expired grant, more
 * scope needed), waits for the sign-in within `signal` and runs it once more.
 */
export async function afterSignIn<T>(live: Live | undefined, work: () => Promise<T>, signal: AbortSignal, server: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = error instanceof UnauthorizedError ? live?.oauth?.pendingCode : undefined;
    if (code === undefined || live?.st.finishAuth === undefined) throw error;
    await live.st.finishAuth(await raceAbort(code, signal, `sign-in to MCP server "${server}"`));
    return await work();
  }
}

/** A server cannot page forever: its listing stops with an error after this many pages. */
const MAX_TOOL_PAGES = 1000;

export interface OpenRequest {
  config: McpServerConfig;
  opts: ConnectionOptions;
  oauth: ServerOAuth | undefined;
  /** Aborted when the start must give up (a kill, a reset, close): ends a wait for sign-in. */
  abandon: AbortSignal;
  onStderrLine(line: string): void;
  onToolsChanged(client: Client): void;
  /** The transport being opened (so a kill can stop it), or undefined once settled. */
  track(st: ServerTransport | undefined): void;
  /** Turns a start failure into the error to throw (and reports it). */
  failed(error: unknown, st: ServerTransport): Error;
}

function newClient(request: OpenRequest): Client {
  const { opts, config } = request;
  const client: Client = new Client(
    { name: opts.clientName, version: opts.clientVersion },
    {
      capabilities: clientCapabilities(opts.features),
      // The connection fetches the new list itself (and drops stale answers); the SDK only says when.
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => request.onToolsChanged(client) } },
      listMaxPages: MAX_TOOL_PAGES,
    },
  );
  installFeatureHandlers(client, config.name, opts.features, opts.emit, opts.logger);
  client.onerror = (error) => opts.logger?.debug('mcp transport error', { server: config.name, error: error.message });
  return client;
}

export async function openClient(request: OpenRequest): Promise<{ client: Client; st: ServerTransport }> {
  const { opts, config, oauth } = request;
  for (let attempt = 0; ; attempt++) {
    const st = createServerTransport(config, {
      parentEnv: opts.parentEnv,
      closeGraceMs: opts.closeGraceMs,
      onStderrLine: (line) => request.onStderrLine(line),
      authProvider: oauth,
    });
    const client = newClient(request);
    request.track(st);
    try {
      await client.connect(st.transport, { timeout: opts.connectTimeoutMs });
      return { client, st };
    } catch (error) {
      await st.kill().catch(() => undefined);
      const signIn = error instanceof UnauthorizedError && attempt === 0 ? oauth?.pendingCode : undefined;
      if (signIn === undefined || st.finishAuth === undefined) throw request.failed(error, st);
      opts.logger?.info('mcp server waits for sign-in', { server: config.name });
      try {
        await st.finishAuth(await raceAbort(signIn, request.abandon, `sign-in to MCP server "${config.name}"`));
      } catch (failure) {
        throw request.failed(failure, st);
      }
    } finally {
      request.track(undefined);
    }
  }
}
