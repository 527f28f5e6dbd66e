/**
 * The pure half of the VS Code Language Model source: the core's request in the Language Model API's
 * message shape, as plain data (languageModelClient.ts turns it into vscode's classes), a stream's
 * parts gathered into the core's reply, and whatever the API threw turned into a ModelError that
 * says what to do. Kept free of `vscode` so its rules are tested directly.
 *
 * The API's stable roles are User and Assistant only, so the system prompt travels as the first user
 * text; tool answers are tool-result parts of a user message. Consecutive messages of one role are
 * merged (some providers insist on alternating roles), an assistant's texts joined into one part
 * (Copilot reads only the first text part of an assistant message). An assistant's `reasoning` (from
 * an endpoint, earlier in the chat) is not sent: the stable API has no part for thinking. Images go
 * as image parts (lmImages.ts).
 */
import { ModelError, type ModelReply, type ToolSpec } from '../../agent/ports';
import type { ChatMessage, ToolCall, Usage } from '../../agent/messages';
import { toolContent } from '../../model/wireImages';
import type { AliasOf } from '../../model/wire';
import { resultsFirst, toolImageParts, userParts, type LmImageMode, type LmImagePart } from './lmImages';

const AS_IS: AliasOf = (name) => name;

export type LmPart =
  | { kind: 'text'; value: string }
  | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; text: string }
  | LmImagePart;

export interface LmMessage {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

export interface LmTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A model as VS Code lists it; `ref` (`vendor/id`) is what `sprout.model.name` holds for this source. */
export interface LmModelInfo {
  ref: string;
  id: string;
  vendor: string;
  family: string;
  name: string;
  version: string;
  maxInputTokens: number;
}

export function modelRef(model: { vendor: string; id: string }): string {
  return `${model.vendor}/${model.id}`;
}

/** `vendor/id` (the id may hold more slashes); undefined for anything else. */
export function parseModelRef(ref: string): { vendor: string; id: string } | undefined {
  const at = ref.indexOf('/');
  if (at <= 0 || at === ref.length - 1) return undefined;
  return { vendor: ref.slice(0, at), id: ref.slice(at + 1) };
}

/** The raw arguments as an object; anything unparsable or not an object becomes `{}` (the core already answered such a call with an error). */
function callInput(call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  return {};
}

function partsOf(message: ChatMessage, images: LmImageMode, alias: AliasOf): LmPart[] {
  switch (message.role) {
    case 'system':
      return message.content === '' ? [] : [{ kind: 'text', value: message.content }];
    case 'user':
      return userParts(message.content, message.images, images);
    case 'tool':
      return [{ kind: 'toolResult', callId: message.toolCallId, text: toolContent(message, { images }) }, ...toolImageParts(message.images, images)];
    case 'assistant': {
      const text: LmPart[] = message.content ? [{ kind: 'text', value: message.content }] : [];
      const calls = (message.toolCalls ?? []).map((call): LmPart => ({ kind: 'toolCall', callId: call.id, name: alias(call.name), input: callInput(call) }));
      return [...text, ...calls];
    }
  }
}

/** An assistant message's texts as one part, ahead of its tool calls. */
function joinAssistantTexts(parts: LmPart[]): LmPart[] {
  const texts = parts.filter((p): p is Extract<LmPart, { kind: 'text' }> => p.kind === 'text');
  if (texts.length < 2) return parts;
  return [{ kind: 'text', value: texts.map((t) => t.value).join('\n\n') }, ...parts.filter((p) => p.kind !== 'text')];
}

/** `images`: as data parts, or as notes for a model that takes none; `alias`: the conversation's tool names on the wire (src/model/wireNames.ts). */
export function toLmMessages(messages: readonly ChatMessage[], images: LmImageMode = 'parts', alias: AliasOf = AS_IS): LmMessage[] {
  const out: LmMessage[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const parts = partsOf(message, images, alias);
    if (parts.length === 0) continue;
    const last = out[out.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  for (const message of out) message.parts = message.role === 'assistant' ? joinAssistantTexts(message.parts) : resultsFirst(message.parts);
  return out;
}

export function toLmTools(tools: readonly ToolSpec[], alias: AliasOf = AS_IS): LmTool[] {
  return tools.map((tool) => ({ name: alias(tool.name), description: tool.description, inputSchema: tool.parameters }));
}

/** The text a message costs, for the model's own token counter (roles and framing are noise next to it). */
export function countableText(message: ChatMessage): string {
  if (message.role !== 'assistant') return message.content;
  const calls = (message.toolCalls ?? []).map((call) => `${call.name} ${call.arguments}`);
  return [message.content ?? '', ...calls].filter((s) => s !== '').join('\n');
}

let generatedIds = 0;

/** Gathers a streamed reply. Providers should give every call an id; one that does not, or repeats one, gets a fresh id so every call can be answered. */
export class LmReplyBuilder {
  private text = '';
  private readonly calls: ToolCall[] = [];
  private readonly ids = new Set<string>();

  addText(value: string): void {
    this.text += value;
  }

  addToolCall(callId: string, name: string, input: unknown): void {
    let id = callId.trim();
    if (id === '' || this.ids.has(id)) id = `sprout_lm_call_${++generatedIds}`;
    this.ids.add(id);
    this.calls.push({ id, name, arguments: JSON.stringify(input ?? {}) });
  }

  get toolCalls(): readonly ToolCall[] {
    return this.calls;
  }

  get content(): string {
    return this.text;
  }

  /**
   * The API reports no finish reason: a reply with calls asks for them, anything else ended normally.
   * `realName` turns an alias the request sent back into the tool's real name.
   */
  reply(usage: Usage | null, realName: (wireName: string) => string | undefined = () => undefined): ModelReply {
    return {
      content: this.text === '' ? null : this.text,
      toolCalls: this.calls.map((call) => ({ ...call, name: realName(call.name) ?? call.name })),
      finishReason: this.calls.length > 0 ? 'tool_calls' : 'stop',
      usage,
    };
  }
}

/** What was thrown, as far as the mapping needs it; `code` is a LanguageModelError's code. */
export interface LmFailure {
  code?: string;
  message: string;
}

const QUOTA = /quota|rate.?limit|too many requests|\b429\b|exceeded/i;

function detail(message: string): string {
  const text = message.trim().replace(/\.$/, '');
  return text === '' ? '' : ` (${text})`;
}

/** Every failure of the Language Model API as a ModelError that names the model and says what to do. */
export function classifyLmError(failure: LmFailure, model: string): ModelError {
  const why = detail(failure.message);
  switch (failure.code) {
    case 'NoPermissions':
      return new ModelError(
        'auth',
        `VS Code did not allow Sprout to use ${model}${why}. Send the prompt again and choose Allow when VS Code asks, ` +
          'or allow Sprout Agent under Accounts > Manage Language Model Access.',
      );
    case 'NotFound':
      return new ModelError('config', `The model ${model} is not available in VS Code any more${why}. Pick another one with Sprout: Select Model.`);
    case 'Blocked':
      return new ModelError('rate_limit', `${model} refused the request: its quota or rate limit is used up${why}. Wait and try again, or pick another model with Sprout: Select Model.`);
    default:
      // `Unknown`, or a provider's own error: only its words tell a quota from a failure.
      if (QUOTA.test(failure.message)) {
        return new ModelError('rate_limit', `${model} refused the request${why}. Wait and try again, or pick another model with Sprout: Select Model.`);
      }
      return new ModelError('server', `${model} failed${why}. Try again, or pick another model with Sprout: Select Model.`);
  }
}
