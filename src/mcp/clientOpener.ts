/**
 * Opens one connection to a server: a fresh transport and SDK client, opened in the server's protocol
 * era (protocolEra.ts: asked with `server/discover`, or remembered), with the client's capabilities and
 * handlers installed. A Streamable HTTP server that answers 401 gets its sign-in (ServerOAuth sends
 * the user to the page, the code comes back to the loopback listener) and one more try with the new
 * token. When a start fails in a way that says what to try instead (a stdio server that exits on the
 * era question, an HTTP server with only the old HTTP+SSE transport), that is tried once (openRetry.ts).
 * ServerConnection owns the life around it (backoff, state, kills).
 */
import { Client, UnauthorizedError } from '@modelcontextprotocol/client';
import { raceAbort } from './abort';
import { clientCapabilities, installFeatureHandlers } from './clientFeatures';
import type { McpServerConfig } from './config';
import type { ServerOAuth } from './oauthClient';
import type { ConnectionOptions } from './connectionTypes';
import { eraKey, eraPlan, learnedEra, type EraPlan, type ProtocolEra } from './protocolEra';
import { readToolListsLeniently } from './toolListWire';
import { exitRetryFailure, retryPlan, runStderr, sseFallbackFailure, type Attempt } from './openRetry';
import { createServerTransport, type ServerTransport } from './serverTransport';
import { quotedName } from '../agent/nameText';

/** A connection that is up: its client, transport, and sign-in helper (kept for refreshes and step-up). */
export interface Live {
  client: Client;
  st: ServerTransport;
  oauth?: ServerOAuth;
  era: ProtocolEra;
  /** The revision in use (`2026-07-28`, `2025-11-25`, ...). */
  protocolVersion: string;
  /** Opened from a remembered era, without asking: if it does not work, the memory is wrong. */
  remembered: boolean;
  /** Why the connection was lost, once it was: the words a call that was running on it ends with. */
  lost?: string;
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
    await live.st.finishAuth(await raceAbort(code, signal, `sign-in to MCP server ${quotedName(server)}`));
    return await work();
  }
}

/** A server cannot page forever: its listing stops with an error after this many pages. */
const MAX_TOOL_PAGES = 1000;

export interface OpenRequest {
  config: McpServerConfig;
  opts: ConnectionOptions;
  oauth: ServerOAuth | undefined;
  /** Aborted when the start must give up (a kill, a reset, close): ends the connect or a wait for sign-in. */
  abandon: AbortSignal;
  onStderrLine(line: string): void;
  onToolsChanged(client: Client): void;
  /** Something the server sent was read leniently (toolListWire.ts): said, not silent. */
  onNote(what: string): void;
  /** A question from the server can only come from a hook call (see CallsInFlight). */
  questionFromHook(): boolean;
  /** The transport being opened (so a kill can stop it), or undefined once settled. */
  track(st: ServerTransport | undefined): void;
  /** Turns a start failure into the error to throw (and reports it). */
  failed(error: unknown, st: ServerTransport): Error;
}

function newClient(request: OpenRequest, plan: EraPlan): Client {
  const { opts, config } = request;
  const client: Client = new Client(
    { name: opts.clientName, version: opts.clientVersion },
    {
      capabilities: clientCapabilities(opts.features),
      ...(plan.negotiation !== undefined ? { versionNegotiation: plan.negotiation } : {}),
      // The connection fetches the new list itself (and drops stale answers); the SDK only says when.
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => request.onToolsChanged(client) },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onPromptsChanged?.(config.name) },
      },
      listMaxPages: MAX_TOOL_PAGES,
    },
  );
  installFeatureHandlers(client, config.name, opts.features, { emit: opts.emit, logger: opts.logger, questionFromHook: request.questionFromHook });
  // Both eras deliver it here: unsolicited after `resources/subscribe`, or on a `subscriptions/listen` stream.
  client.setNotificationHandler('notifications/resources/updated', (notification) => opts.onResourceUpdated?.(config.name, notification.params.uri));
  client.onerror = (error) => opts.logger?.debug('mcp transport error', { server: config.name, error: error.message });
  return client;
}

export type Opened = Omit<Live, 'oauth'>;

/** How long the era question may go unanswered: on stdio silence means a legacy server, so it is shorter. */
function probeTimeoutMs(request: OpenRequest): number {
  const { connectTimeoutMs } = request.opts;
  return request.config.transport.type === 'stdio' ? Math.ceil(connectTimeoutMs / 2) : connectTimeoutMs;
}

export async function openClient(request: OpenRequest): Promise<Opened> {
  const { opts, config, oauth } = request;
  const key = eraKey(config);
  const timeout = probeTimeoutMs(request);
  const attempt: Attempt = { config, opts, key, probeTimeoutMs: timeout, plan: eraPlan(opts.protocol, opts.eras.get(key), opts.clock.now(), timeout) };
  const tried = new Set<'era' | 'sse'>();
  let signedIn = false;
  let postError: unknown;
  let earlierStderr: readonly string[] | undefined;
  for (;;) {
    const { plan } = attempt;
    const stderr = runStderr((line) => request.onStderrLine(line), earlierStderr);
    const st = createServerTransport(config, { parentEnv: opts.parentEnv, closeGraceMs: opts.closeGraceMs, onStderrLine: stderr.onLine, authProvider: oauth, legacySse: plan.sse });
    const client = newClient(request, plan);
    request.track(st);
    try {
      // A kill, reset or close ends the start here whatever the SDK is still waiting for (its request
      // timeout covers initialize, not the notification after it), so a start always settles.
      await raceAbort(client.connect(st.transport, { timeout: opts.connectTimeoutMs, ...(plan.prior !== undefined ? { prior: plan.prior } : {}) }), request.abandon, `start of MCP server ${quotedName(config.name)}`);
      readToolListsLeniently(st.transport, (what) => request.onNote(what));
      const opened = connected(request, key, plan, client, st);
      await listenForToolChanges(request, { ...opened, oauth });
      return opened;
    } catch (error) {
      // Before the kill, which ends every process: did it stop by itself?
      const exitedAlone = st.describeExit() !== '';
      await st.kill().catch(() => undefined);
      const signIn = error instanceof UnauthorizedError && !signedIn ? oauth?.pendingCode : undefined;
      if (signIn !== undefined && st.finishAuth !== undefined) {
        signedIn = true;
        await finishSignIn(request, st, signIn);
        continue;
      }
      const exitedBefore = attempt.probeExit;
      const next = retryPlan(attempt, error, st, tried, exitedAlone);
      if (next === undefined) throw request.failed(finalFailure(error, st, postError, exitedBefore, exitedAlone), st);
      if (next.sse && !plan.sse) postError = error;
      if (attempt.probeExit !== exitedBefore) earlierStderr = stderr.lines;
      attempt.plan = next;
    } finally {
      stderr.forget();
      request.track(undefined);
    }
  }
}

/** The error a start ends with, saying what each fallback it tried ran into. */
function finalFailure(error: unknown, st: ServerTransport, postError: unknown, probeExit: string | undefined, exitedAlone: boolean): unknown {
  if (postError !== undefined && st.kind === 'sse') return sseFallbackFailure(postError, error);
  if (probeExit !== undefined) return exitRetryFailure(probeExit, error, exitedAlone ? st.describeExit() : undefined);
  return error;
}

async function finishSignIn(request: OpenRequest, st: ServerTransport, code: Promise<URLSearchParams>): Promise<void> {
  request.opts.logger?.info('mcp server waits for sign-in', { server: request.config.name });
  try {
    await st.finishAuth?.(await raceAbort(code, request.abandon, `sign-in to MCP server ${quotedName(request.config.name)}`));
  } catch (failure) {
    throw request.failed(failure, st);
  }
}

/**
 * On the 2026-07-28 era `list_changed` arrives only through a `subscriptions/listen` stream. The SDK
 * opens it itself after a `server/discover`, but not on a connect from a remembered era (every restart
 * after a crash, kill or lost session), which would then never hear of a changed list: open it here.
 * As in the SDK's own path, a server that refuses the stream still serves its tools (logged, not fatal).
 */
async function listenForToolChanges(request: OpenRequest, live: Live): Promise<void> {
  const { client } = live;
  const capabilities = client.getServerCapabilities();
  const tools = capabilities?.tools?.listChanged === true;
  const prompts = capabilities?.prompts?.listChanged === true;
  if (live.era !== 'modern' || client.autoOpenedSubscription !== undefined || (!tools && !prompts)) return;
  try {
    // A connect from memory sends nothing, so this may be the first request: a 401 here is the sign-in.
    const filter = { ...(tools ? { toolsListChanged: true } : {}), ...(prompts ? { promptsListChanged: true } : {}) };
    const listen = () => client.listen(filter, { timeout: request.opts.connectTimeoutMs, signal: request.abandon });
    await afterSignIn(live, listen, request.abandon, request.config.name);
  } catch (error) {
    if (request.abandon.aborted) throw error;
    request.opts.logger?.warn('mcp tool list changes not subscribed', { server: request.config.name, error: error instanceof Error ? error.message : String(error) });
  }
}

function connected(request: OpenRequest, key: string, plan: EraPlan, client: Client, st: ServerTransport): Opened {
  const { opts } = request;
  const era = client.getProtocolEra() ?? 'legacy';
  const learned = learnedEra(plan, era, client.getDiscoverResult(), opts.clock.now());
  if (learned !== undefined) opts.eras.set(key, learned);
  return { client, st, era, protocolVersion: client.getNegotiatedProtocolVersion() ?? '', remembered: plan.prior !== undefined && !plan.asks };
}
