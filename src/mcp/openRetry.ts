/**
 * What a start that failed tries next, when the failure says how. Each is tried once per start;
 * anything else is the start's failure.
 * - A stdio server that exited on the era question (`server/discover`) is started again with
 *   `initialize`, whatever it said or did not say: many servers of the older era stop on any first
 *   request that is not `initialize` (Python SDK and rmcp ones with a message, others silently), and
 *   the SDK's own stdio transport does the same (it asks on a throwaway process, and a close there
 *   means the legacy era). A broken command so runs twice: its stderr is shown once (the second run's
 *   lines that repeat the first's are not shown again) and the failure names both runs.
 * - An HTTP server that answered the era question with an error status that is not about the
 *   endpoint or sign-in (a 500 from a server whose transport rejects any first request that is not
 *   `initialize`, as cyanheads' git-mcp-server does) is asked again with `initialize`: the era
 *   question is Sprout's, and an older server's failure to answer it says nothing about the server.
 * - A remembered era the server refused is forgotten and asked again.
 * - An HTTP server that answers the Streamable HTTP POST with 400, 404 or 405 may have only the old
 *   HTTP+SSE transport (2024-11-05), so its URL is opened as an event stream, as the spec's
 *   backwards-compatibility rules describe.
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import type { ConnectionOptions } from './connectionTypes';
import type { McpServerConfig } from './config';
import { failureWords } from './connectionErrors';
import { eraPlan, ssePlan, type EraPlan } from './protocolEra';
import type { ServerTransport } from './serverTransport';

export interface Attempt {
  config: McpServerConfig;
  /** How the process that was asked the era question exited ("exited with code 1; last stderr: ..."), once it did. */
  probeExit?: string;
  opts: ConnectionOptions;
  /** The era store's key of this server. */
  key: string;
  plan: EraPlan;
  probeTimeoutMs: number;
}

/** The statuses with which a server without a Streamable HTTP endpoint answers the POST (spec: backwards compatibility). */
const NO_STREAMABLE_ENDPOINT = new Set([400, 404, 405]);

/** The era question made a stdio server exit (it was asked in `auto`, and the process ended by itself): a legacy server, or a broken one. */
function exitedOnProbe(error: unknown, st: ServerTransport, plan: EraPlan, exitedAlone: boolean): boolean {
  if (!plan.asks || plan.negotiation?.mode !== 'auto' || !(error instanceof SdkError) || error.code !== SdkErrorCode.EraNegotiationFailed) return false;
  return st.kind === 'stdio' && exitedAlone;
}

/** Statuses that are about the endpoint (the HTTP+SSE fallback below) or about sign-in, not about the era question. */
const NOT_ABOUT_THE_ERA = new Set([401, 403, ...NO_STREAMABLE_ENDPOINT]);

/** The era question got an HTTP error status from a server that answers (it was asked in `auto`, over HTTP). */
function httpErrorOnProbe(error: unknown, st: ServerTransport, plan: EraPlan): boolean {
  if (!plan.asks || plan.negotiation?.mode !== 'auto' || plan.prior !== undefined || st.kind !== 'http') return false;
  return error instanceof SdkHttpError && !NOT_ABOUT_THE_ERA.has(error.status);
}

/** The server answered, with a refusal (a JSON-RPC error, or a failed negotiation), rather than being unreachable or gone. */
function refusedByServer(error: unknown): boolean {
  return (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) || error instanceof ProtocolError;
}

/**
 * The next plan after a failed start, or undefined when the failure is the start's own. `tried` lists
 * what this start has tried already; `exitedAlone` says the process had ended before Sprout stopped it.
 */
export function retryPlan(attempt: Attempt, error: unknown, st: ServerTransport, tried: Set<'era' | 'sse'>, exitedAlone: boolean): EraPlan | undefined {
  const { opts, key, plan, config } = attempt;
  const server = config.name;
  if (!tried.has('era') && exitedOnProbe(error, st, plan, exitedAlone)) {
    tried.add('era');
    attempt.probeExit = st.describeExit();
    opts.logger?.info('mcp server exited on server/discover; starting it again with initialize', { server, exit: attempt.probeExit });
    // Remembered only once initialize works (learnedEra): a command that exits on anything teaches nothing.
    return { negotiation: plan.negotiation, prior: { kind: 'legacy' }, asks: true, sse: false };
  }
  if (!tried.has('era') && httpErrorOnProbe(error, st, plan)) {
    tried.add('era');
    opts.logger?.info('mcp server answered server/discover with an HTTP error; asking again with initialize', { server, status: (error as SdkHttpError).status });
    return { negotiation: plan.negotiation, prior: { kind: 'legacy' }, asks: true, sse: false };
  }
  if (!tried.has('era') && !plan.asks && opts.eras.get(key) !== undefined && (refusedByServer(error) || plan.sse)) {
    tried.add('era');
    opts.logger?.info('mcp server refused its remembered protocol era; asking again', { server });
    opts.eras.set(key, undefined);
    return eraPlan(opts.protocol, undefined, opts.clock.now(), attempt.probeTimeoutMs);
  }
  const noEndpoint = error instanceof SdkHttpError && NO_STREAMABLE_ENDPOINT.has(error.status);
  if (!tried.has('sse') && !plan.sse && st.kind === 'http' && noEndpoint && opts.protocol !== '2026-07-28') {
    tried.add('sse');
    opts.logger?.info('mcp server has no Streamable HTTP endpoint; trying the old HTTP+SSE transport', { server, status: error.status });
    return ssePlan(true);
  }
  return undefined;
}

/**
 * The error a failed HTTP+SSE fallback ends the start with: the Streamable HTTP answer when the URL
 * has no event stream either (it is simply not an MCP endpoint), else one sentence saying the server
 * speaks only the old transport and what went wrong with it.
 */
export function sseFallbackFailure(postError: unknown, sseError: unknown): Error | unknown {
  const noStream = sseError instanceof SseError && sseError.code !== undefined && sseError.code >= 400 && sseError.code < 500;
  if (noStream) return postError;
  return new Error(`the server speaks only the old HTTP+SSE transport (MCP 2024-11-05), and connecting to it failed: ${failureWords(sseError)}`, { cause: sseError });
}

/**
 * The error a start ends with after its process exited on the era question and was started again
 * with `initialize`: both runs in one sentence (once when they ended the same way), and what to do.
 * `retryExit` is how the second run ended by itself, undefined when it was still running (a timeout,
 * a refusal: the SDK's words say what happened, and the caller adds how Sprout stopped it).
 */
export function exitRetryFailure(probeExit: string, error: unknown, retryExit: string | undefined): Error {
  const asked = 'it exited when asked for its protocol era (server/discover)';
  if (retryExit === undefined) return new Error(`${asked} (${probeExit}), and when started again with initialize: ${failureWords(error)}`, { cause: error });
  const hint = 'Run the command in a terminal to see why it stops.';
  if (retryExit === probeExit) return new Error(`${asked} and again when started with initialize, the same way both times (${retryExit}). ${hint}`, { cause: error });
  return new Error(`${asked} (${probeExit}), and again when started with initialize (${retryExit}). ${hint}`, { cause: error });
}

/** How many of a run's first stderr lines are kept to compare the next run's with. */
const REMEMBERED_LINES = 100;

export interface RunStderr {
  /** The run's first lines (up to REMEMBERED_LINES), until forget(). */
  readonly lines: readonly string[];
  onLine(line: string): void;
  /** The start is over: keep no more lines. */
  forget(): void;
}

/**
 * The stderr of one run of a start: every line goes on to `show`, except that a run after an exit on
 * the era question does not show again the lines that repeat, from its first line on, what the exited
 * run printed (a broken command prints the same thing twice). Once a line differs, all are shown.
 */
export function runStderr(show: (line: string) => void, earlier: readonly string[] | undefined): RunStderr {
  let lines: string[] = [];
  let count = 0;
  let keeping = true;
  let repeating = earlier !== undefined;
  return {
    get lines() {
      return lines;
    },
    onLine(line) {
      if (keeping && lines.length < REMEMBERED_LINES) lines.push(line);
      const index = count++;
      if (repeating && earlier !== undefined && index < earlier.length && earlier[index] === line) return;
      repeating = false;
      show(line);
    },
    forget() {
      keeping = false;
      lines = [];
    },
  };
}
