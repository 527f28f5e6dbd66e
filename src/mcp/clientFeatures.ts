/**
 * What the client offers servers beyond tool calls, and only what the host really handles: form
 * elicitation (a server asks the user a question; the host answers through a form or a policy) and
 * roots (the workspace folders). A capability is declared exactly when its handler is there, so a
 * server never sends a request that would go unanswered. Every question and answer is reported as an
 * event, so the chat, the CLI and the transcript all see it.
 */
import { ProtocolError, type Client, type ClientCapabilities, type CreateMessageResult, type ElicitResult } from '@modelcontextprotocol/client';
import type { Logger, ModelClient, ToolHostEvent } from '../agent/ports';
import type { ElicitationAction, ElicitationAnswer, ElicitationRequest, SamplingRequest, Usage } from '../agent/messages';
import { SAMPLING_REFUSED_CODE, samplingModelRequest, samplingNote, samplingRequestOf, stopReasonOf } from './sampling';
import { errorMessage } from '../agent/errorMessage';
import { checkElicitationAnswer, elicitationFields } from '../shared/elicitationForm';
import { quotedName } from '../agent/nameText';

export interface ElicitationHandling {
  /** Who answers: the user (a form in the chat) or a fixed policy (the CLI). */
  by: 'user' | 'policy';
  /** Rejects or aborts count as cancel. `signal` aborts when the server gives up or goes away. */
  answer(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
  /**
   * URL mode (MCP 2025-11-25): the server asks the user to open `url` (a sign-in, a payment). Opens it
   * after the user agrees and answers `accept`; otherwise decline or cancel. Declared only when given.
   */
  openUrl?(request: UrlElicitation, signal: AbortSignal): Promise<ElicitationAction>;
}

export interface UrlElicitation {
  id: string;
  server: string;
  message: string;
  /** An http(s) URL: anything else is declined before anyone is asked. */
  url: string;
}

/** Whether a server's sampling request may reach the model: the user (a card, as approvals) or a policy (the CLI's --allow-sampling). */
export interface SamplingPermission {
  by: 'user' | 'policy';
  /** True lets it through; false (or a reject, an abort) refuses it. */
  allow(request: SamplingRequest, signal: AbortSignal): Promise<boolean>;
}

export interface SampledReply {
  text: string;
  model: string;
  finishReason: string;
  usage: Usage | null;
}

/** Sampling as the hub offers it: the host's permission and the one model call (samplingThrough). */
export interface SamplingHandling extends SamplingPermission {
  sample(request: SamplingRequest, signal: AbortSignal): Promise<SampledReply>;
}

/** The single model call that answers a sampling request: `model()` is the chat's model at the time. */
export function samplingThrough(permission: SamplingPermission, client: ModelClient, model: () => string): SamplingHandling {
  return {
    by: permission.by,
    allow: (request, signal) => permission.allow(request, signal),
    sample: async (request, signal) => {
      const name = model();
      const reply = await client.complete(samplingModelRequest(request, name), { signal });
      return { text: reply.content ?? '', model: name, finishReason: reply.finishReason, usage: reply.usage };
    },
  };
}

export interface Root {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

export interface ClientFeatures {
  elicitation?: ElicitationHandling;
  /** Declared whenever given, so a refusal reaches the server as an MCP error it can report. */
  sampling?: SamplingHandling;
  /** The current roots; asked on every `roots/list`. */
  roots?: () => readonly Root[];
}

export function clientCapabilities(features: ClientFeatures): ClientCapabilities {
  return {
    ...(features.elicitation !== undefined ? { elicitation: { form: {}, ...(features.elicitation.openUrl !== undefined ? { url: {} } : {}) } } : {}),
    ...(features.roots !== undefined ? { roots: { listChanged: true } } : {}),
    ...(features.sampling !== undefined ? { sampling: {} } : {}),
  };
}

let elicitations = 0;
let samplings = 0;

/**
 * `questionFromHook`: the question can only come from a hook (every call in flight is a hook call). A
 * hook is bounded by a short timeout, so its question is declined at once, never shown to the user.
 */
export function installFeatureHandlers(
  client: Client,
  server: string,
  features: ClientFeatures,
  on: { emit: (event: ToolHostEvent) => void; questionFromHook: () => boolean; logger?: Logger },
): void {
  const { emit, logger } = on;
  const roots = features.roots;
  if (roots !== undefined) client.setRequestHandler('roots/list', () => ({ roots: roots().map((r) => ({ ...r })) }));
  if (features.sampling !== undefined) installSampling(client, server, features.sampling, on);
  const handling = features.elicitation;
  if (handling === undefined) return;
  client.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
    const params = request.params;
    if (on.questionFromHook()) {
      logger?.warn('a hook asked the user a question; hooks cannot ask, so it was declined', { server });
      return { action: 'decline' };
    }
    const id = `${server}-elicitation-${++elicitations}`;
    if (params.mode === 'url') return { action: await urlElicitation(handling, { id, server, message: params.message, url: params.url }, ctx.mcpReq.signal, on) };
    const form = elicitationFields(params.requestedSchema);
    if ('error' in form) {
      emit({ type: 'server_error', server, message: `MCP server ${quotedName(server)} asked a question that cannot be shown (${form.error}); it was declined.` });
      return { action: 'decline' };
    }
    const question: ElicitationRequest = { id, server, message: params.message, schema: params.requestedSchema as Record<string, unknown> };
    emit({ type: 'elicitation_requested', request: question });
    const { result, by } = await ask(handling, question, ctx.mcpReq.signal, logger);
    if (result.action !== 'accept') {
      emit({ type: 'elicitation_answered', id, server, action: result.action, by });
      return { action: result.action };
    }
    const checked = checkElicitationAnswer(form.fields, result.content ?? {});
    if (!checked.ok) {
      logger?.warn('elicitation answer did not fit the form; declined', { server, errors: checked.errors });
      emit({ type: 'elicitation_answered', id, server, action: 'decline', by });
      return { action: 'decline' };
    }
    emit({ type: 'elicitation_answered', id, server, action: 'accept', by });
    return { action: 'accept', content: checked.content };
  });
}

/** Only http(s) URLs are offered to the user; the answer is reported as `url_elicitation`. */
async function urlElicitation(handling: ElicitationHandling, request: UrlElicitation, signal: AbortSignal, on: { emit: (event: ToolHostEvent) => void; logger?: Logger }): Promise<ElicitationAction> {
  const report = (action: ElicitationAction, by: 'user' | 'policy' | 'abort'): ElicitationAction => {
    on.emit({ type: 'url_elicitation', ...request, action, by });
    return action;
  };
  if (handling.openUrl === undefined) return report('decline', 'policy');
  if (!isWebUrl(request.url)) {
    on.emit({ type: 'server_error', server: request.server, message: `MCP server ${quotedName(request.server)} asked you to open a URL that is not http(s) (${request.url.slice(0, 200)}); it was declined.` });
    return report('decline', 'policy');
  }
  try {
    const action = await handling.openUrl(request, signal);
    return signal.aborted ? report('cancel', 'abort') : report(action, handling.by);
  } catch (error) {
    if (!signal.aborted) on.logger?.warn('URL elicitation failed; cancelled', { server: request.server, message: errorMessage(error) });
    return report('cancel', 'abort');
  }
}

/** True for an absolute http: or https: URL. */
export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

async function ask(
  handling: ElicitationHandling,
  question: ElicitationRequest,
  signal: AbortSignal,
  logger?: Logger,
): Promise<{ result: ElicitationAnswer; by: 'user' | 'policy' | 'abort' }> {
  try {
    const result = await handling.answer(question, signal);
    return signal.aborted ? { result: { action: 'cancel' }, by: 'abort' } : { result, by: handling.by };
  } catch (error) {
    if (!signal.aborted) logger?.warn('elicitation handler failed; cancelled', { server: question.server, message: errorMessage(error) });
    return { result: { action: 'cancel' }, by: 'abort' };
  }
}

function refuse(message: string): never {
  throw new ProtocolError(SAMPLING_REFUSED_CODE, message);
}

/**
 * `sampling/createMessage`: read (text only, maxTokens capped), asked for, answered by one model call.
 * Every way it ends is an event, and every refusal an MCP error whose message says why and what to do.
 */
function installSampling(
  client: Client,
  server: string,
  handling: SamplingHandling,
  on: { emit: (event: ToolHostEvent) => void; questionFromHook: () => boolean; logger?: Logger },
): void {
  const { emit, logger } = on;
  client.setRequestHandler('sampling/createMessage', async (request, ctx): Promise<CreateMessageResult> => {
    const signal = ctx.mcpReq.signal;
    if (on.questionFromHook()) refuse(`Sprout does not sample for hooks (server ${quotedName(server)} asked during a hook call).`);
    const id = `${server}-sampling-${++samplings}`;
    const read = samplingRequestOf(id, server, request.params);
    if ('error' in read) {
      emit({ type: 'server_error', server, message: `MCP server ${quotedName(server)} sent a sampling request Sprout cannot answer (${read.error}); it was refused.` });
      refuse(`Sprout cannot answer this sampling request: ${read.error}.`);
    }
    emit({ type: 'sampling_requested', request: read });
    let allowed = false;
    try {
      allowed = await handling.allow(read, signal);
    } catch (error) {
      if (!signal.aborted) logger?.warn('sampling permission failed; refused', { server, message: errorMessage(error) });
    }
    if (!allowed || signal.aborted) {
      const by = signal.aborted ? 'abort' : handling.by;
      emit({ type: 'sampling_answered', id, server, outcome: 'refused', by });
      refuse(
        handling.by === 'policy'
          ? `Sampling refused: the Sprout CLI lets a server sample only with --allow-sampling ${server}.`
          : 'Sampling refused: the user did not allow this server to use the chat\'s model.',
      );
    }
    let reply: SampledReply;
    try {
      reply = await handling.sample(read, signal);
    } catch (error) {
      const message = errorMessage(error);
      emit({ type: 'sampling_answered', id, server, outcome: 'failed', by: signal.aborted ? 'abort' : handling.by, message });
      throw new ProtocolError(-32603, `Sampling failed: the model call failed: ${message}`);
    }
    const note = samplingNote(read, reply.model);
    emit({
      type: 'sampling_answered',
      id,
      server,
      outcome: 'answered',
      by: handling.by,
      model: reply.model,
      ...(reply.usage === null ? {} : { usage: reply.usage }),
      ...(note === undefined ? {} : { message: note }),
    });
    return {
      role: 'assistant',
      content: { type: 'text', text: reply.text },
      model: reply.model,
      stopReason: stopReasonOf(reply.finishReason),
      ...(note === undefined ? {} : { _meta: { 'sprout/note': note } }),
    };
  });
}
