/**
 * Opens one connection to a server: a fresh transport and SDK client through `initialize`, with the
 * client's capabilities and handlers installed. A Streamable HTTP server that answers 401 gets its
 * sign-in (ServerOAuth sends the user to the page, the code comes back to the loopback listener) and
 * one more try with the new token. ServerConnection owns the life around it (backoff, state, kills).
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
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

export interface OpenRequest {
  config: McpServerConfig;
  opts: ConnectionOptions;
  oauth: ServerOAuth | undefined;
  /** Aborted when the start must give up (a kill, a reset, close): ends the connect or a wait for sign-in. */
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
  const client = new Client({ name: opts.clientName, version: opts.clientVersion }, { capabilities: clientCapabilities(opts.features) });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => request.onToolsChanged(client));
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
      // A kill, reset or close ends the start here whatever the SDK is still waiting for (its request
      // timeout covers initialize, not the notification after it), so a start always settles.
      await raceAbort(client.connect(st.transport, { timeout: opts.connectTimeoutMs }), request.abandon, `start of MCP server "${config.name}"`);
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
