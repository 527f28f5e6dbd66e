/**
 * What a start that failed tries next, when the failure says how: a stdio server that exited on the
 * era question saying it wanted `initialize` first is started again with `initialize` (one that exits
 * for any other reason, a broken command or configuration, would only fail twice and show its stderr
 * twice, so its failure stands); a
 * remembered era the server refused is forgotten and asked again; an HTTP server that answers the
 * Streamable HTTP POST with 400, 404 or 405 may have only the old HTTP+SSE transport (2024-11-05), so
 * its URL is opened as an event stream, as the spec's backwards-compatibility rules describe. Each is
 * tried once per start; anything else is the start's failure.
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import type { ConnectionOptions } from './connectionTypes';
import type { McpServerConfig } from './config';
import { failureWords } from './connectionErrors';
import { eraPlan, ssePlan, type EraPlan } from './protocolEra';
import type { ServerTransport } from './serverTransport';

export interface Attempt {
  config: McpServerConfig;
  opts: ConnectionOptions;
  /** The era store's key of this server. */
  key: string;
  plan: EraPlan;
  probeTimeoutMs: number;
}

/** The statuses with which a server without a Streamable HTTP endpoint answers the POST (spec: backwards compatibility). */
const NO_STREAMABLE_ENDPOINT = new Set([400, 404, 405]);

/**
 * What a server says (its stderr, as describeExit ends with) when its first message was not the
 * `initialize` it expected: Python SDK servers crash with "Received request before initialization was
 * complete", rmcp ones expect an initialize request; or it names the question itself.
 */
const WANTED_INITIALIZE = /server\/discover|before initiali[sz]ation|not (yet )?initiali[sz]ed|expected? (an? )?initiali[sz]e/i;

/** The era question made a stdio server exit, and it said so: a legacy server. */
function exitedOnProbe(error: unknown, st: ServerTransport, plan: EraPlan): boolean {
  if (!plan.asks || plan.negotiation?.mode !== 'auto' || !(error instanceof SdkError) || error.code !== SdkErrorCode.EraNegotiationFailed) return false;
  return WANTED_INITIALIZE.test(st.describeExit());
}

/** The server answered, with a refusal (a JSON-RPC error, or a failed negotiation), rather than being unreachable or gone. */
function refusedByServer(error: unknown): boolean {
  return (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) || error instanceof ProtocolError;
}

/** The next plan after a failed start, or undefined when the failure is the start's own. `tried` lists what this start has tried already. */
export function retryPlan(attempt: Attempt, error: unknown, st: ServerTransport, tried: Set<'era' | 'sse'>): EraPlan | undefined {
  const { opts, key, plan, config } = attempt;
  const server = config.name;
  if (!tried.has('era') && exitedOnProbe(error, st, plan)) {
    tried.add('era');
    opts.logger?.info('mcp server exited on server/discover; starting it again as a legacy server', { server });
    opts.eras.set(key, { era: 'legacy', at: opts.clock.now() });
    return { negotiation: plan.negotiation, prior: { kind: 'legacy' }, asks: false, sse: false };
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
