/**
 * OpenAI's Chat Completions rules for a message history, as a pure validator and a repair. Every tool
 * message must answer a call of the assistant message right before its block, every call must be
 * answered exactly once, every call's arguments must be a JSON object (the text strict endpoints
 * parse), and no assistant message may have neither content nor tool calls. The loop asserts validity
 * before each model call; resume and cancel use `repairHistory`.
 */
import type { ChatMessage, ToolCall } from './messages';
import { isWireSafeArguments, wireSafeArguments } from './toolArguments';

export const CANCELLED_TOOL_RESULT = 'cancelled';

export interface HistoryProblem {
  index: number;
  problem: string;
}

export class HistoryError extends Error {
  constructor(readonly problems: HistoryProblem[]) {
    super(`invalid chat history: ${problems.map((p) => `#${p.index} ${p.problem}`).join('; ')}`);
    this.name = 'HistoryError';
  }
}

function isEmptyAssistant(message: ChatMessage): boolean {
  return message.role === 'assistant' && (message.content == null || message.content === '') && (message.toolCalls?.length ?? 0) === 0;
}

/** Reports the calls of a closed block that no tool message answered. */
function closeBlock(pending: Map<string, boolean>, index: number, problems: HistoryProblem[]): void {
  for (const [id, answered] of pending) {
    if (!answered) problems.push({ index, problem: `tool call ${id} is never answered` });
  }
}

/**
 * Every rule broken by `messages`, in order; empty when the history is valid. It runs before every
 * model call over the whole history, so it allocates only for assistant messages with tool calls.
 */
export function validateHistory(messages: readonly ChatMessage[]): HistoryProblem[] {
  return validateHistoryFrom(messages, 0).problems;
}

/**
 * The rules checked from `start`, which must be a point where everything before is problem-free and
 * no tool-call block is open (0, or a `cleanUpTo` from an earlier call on a prefix of `messages`):
 * then the problems are exactly those of the whole history. `cleanUpTo` is the furthest such point.
 */
export function validateHistoryFrom(messages: readonly ChatMessage[], start: number): { problems: HistoryProblem[]; cleanUpTo: number } {
  const problems: HistoryProblem[] = [];
  let cleanUpTo = start;
  // The calls of the current assistant block, and whether each was answered yet.
  let pending: Map<string, boolean> | null = null;
  for (let index = start; index < messages.length; index++) {
    const message = messages[index] as ChatMessage;
    if (message.role === 'tool') {
      const answered = pending?.get(message.toolCallId);
      if (answered === undefined) problems.push({ index, problem: `tool message ${message.toolCallId} answers no call of the assistant message before it` });
      else if (answered) problems.push({ index, problem: `tool call ${message.toolCallId} is answered twice` });
      else pending?.set(message.toolCallId, true);
      continue;
    }
    if (pending !== null) closeBlock(pending, index, problems);
    pending = null;
    if (message.role === 'assistant') {
      if (isEmptyAssistant(message)) problems.push({ index, problem: 'assistant message with neither content nor tool calls' });
      const calls = message.toolCalls ?? [];
      if (calls.length > 0) pending = new Map();
      for (const call of calls) {
        if (pending?.has(call.id)) problems.push({ index, problem: `tool call id ${call.id} repeated` });
        if (!isWireSafeArguments(call.arguments)) problems.push({ index, problem: `tool call ${call.id} has arguments that are not a JSON object` });
        pending?.set(call.id, false);
      }
    }
    if (pending === null && problems.length === 0) cleanUpTo = index + 1;
  }
  if (pending !== null) closeBlock(pending, messages.length, problems);
  return { problems, cleanUpTo };
}

export function isValidHistory(messages: readonly ChatMessage[]): boolean {
  return validateHistory(messages).length === 0;
}

export function assertValidHistory(messages: readonly ChatMessage[]): void {
  const problems = validateHistory(messages);
  if (problems.length > 0) throw new HistoryError(problems);
}

/** The calls as a history may hold them: arguments a JSON object (`{}` in place of anything else). */
export function wireSafeCalls(calls: readonly ToolCall[]): ToolCall[] {
  return calls.map((call) => (isWireSafeArguments(call.arguments) ? call : { ...call, arguments: wireSafeArguments(call.arguments) }));
}

/**
 * Makes a history valid with the least change: unanswered calls get a `cancelled` result (in call
 * order, after the answers that exist), orphan and duplicate tool messages are dropped, empty
 * assistant messages are dropped, arguments that are not a JSON object become `{}`. A valid history
 * comes back unchanged (same contents).
 */
export function repairHistory(messages: readonly ChatMessage[]): { history: ChatMessage[]; changes: number } {
  const history: ChatMessage[] = [];
  let changes = 0;
  let open: { ids: string[]; answered: Set<string> } | null = null;
  const closeBlock = (): void => {
    if (open === null) return;
    for (const id of open.ids) {
      if (open.answered.has(id)) continue;
      history.push({ role: 'tool', toolCallId: id, content: CANCELLED_TOOL_RESULT });
      changes += 1;
    }
    open = null;
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      const block = open as { ids: string[]; answered: Set<string> } | null;
      if (block !== null && block.ids.includes(message.toolCallId) && !block.answered.has(message.toolCallId)) {
        block.answered.add(message.toolCallId);
        history.push(message);
      } else {
        changes += 1;
      }
      continue;
    }
    closeBlock();
    if (isEmptyAssistant(message)) {
      changes += 1;
      continue;
    }
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      const distinct = message.toolCalls.filter((call, i, all) => all.findIndex((c) => c.id === call.id) === i);
      const unique = wireSafeCalls(distinct);
      if (distinct.length !== message.toolCalls.length || unique.some((call, i) => call !== distinct[i])) changes += 1;
      if (unique.length === 0) {
        history.push({ role: 'assistant', content: message.content });
        continue;
      }
      history.push({ ...message, toolCalls: unique });
      open = { ids: unique.map((call) => call.id), answered: new Set() };
      continue;
    }
    history.push(message);
  }
  closeBlock();
  return { history, changes };
}
