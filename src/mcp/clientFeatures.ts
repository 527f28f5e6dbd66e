/**
 * What the client offers servers beyond tool calls, and only what the host really handles: form
 * elicitation (a server asks the user a question; the host answers through a form or a policy) and
 * roots (the workspace folders). A capability is declared exactly when its handler is there, so a
 * server never sends a request that would go unanswered. Every question and answer is reported as an
 * event, so the chat, the CLI and the transcript all see it.
 */
import type { Client, ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import type { Logger, ToolHostEvent } from '../agent/ports';
import type { ElicitationAnswer, ElicitationRequest } from '../agent/messages';
import { errorMessage } from '../agent/errorMessage';
import { checkElicitationAnswer, elicitationFields } from '../shared/elicitationForm';
import { quotedName } from '../agent/nameText';

export interface ElicitationHandling {
  /** Who answers: the user (a form in the chat) or a fixed policy (the CLI). */
  by: 'user' | 'policy';
  /** Rejects or aborts count as cancel. `signal` aborts when the server gives up or goes away. */
  answer(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
}

export interface Root {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

export interface ClientFeatures {
  elicitation?: ElicitationHandling;
  /** The current roots; asked on every `roots/list`. */
  roots?: () => readonly Root[];
}

export function clientCapabilities(features: ClientFeatures): ClientCapabilities {
  return {
    ...(features.elicitation !== undefined ? { elicitation: { form: {} } } : {}),
    ...(features.roots !== undefined ? { roots: { listChanged: true } } : {}),
  };
}

let elicitations = 0;

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
  const handling = features.elicitation;
  if (handling === undefined) return;
  client.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
    const params = request.params;
    if (on.questionFromHook()) {
      logger?.warn('a hook asked the user a question; hooks cannot ask, so it was declined', { server });
      return { action: 'decline' };
    }
    // The SDK refuses url mode for us (only form is declared); this keeps the types honest.
    if (params.mode === 'url') return { action: 'decline' };
    const id = `${server}-elicitation-${++elicitations}`;
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
