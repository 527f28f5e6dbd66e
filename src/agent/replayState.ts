/**
 * The session's history-bearing state as a pure reducer over events. The live session and a resume
 * from the transcript use the same function, so what the user saw is exactly what gets rebuilt:
 * `message` appends, `compaction` replaces the history, `budget` sets the _Stop budget used, `usage`
 * records the last reported usage (and how many messages that request carried, for the size estimate),
 * `tools_loaded` adds the tools a tool search loaded.
 */
import type { AgentEvent } from './events';
import type { ChatMessage, Usage } from './messages';

export interface ReplayState {
  history: ChatMessage[];
  rejectionsUsed: number;
  lastUsage: Usage | null;
  /** How many history messages the request behind `lastUsage` contained. */
  usageMessageCount: number;
  /** Tools a tool search loaded in this conversation (toolSearch.ts), in the order they were loaded. */
  loadedTools: string[];
}

export function emptyReplayState(): ReplayState {
  return { history: [], rejectionsUsed: 0, lastUsage: null, usageMessageCount: 0, loadedTools: [] };
}

export function applyEvent(state: ReplayState, event: AgentEvent): ReplayState {
  switch (event.type) {
    case 'message':
      return { ...state, history: [...state.history, event.message] };
    case 'compaction':
      return { ...state, history: [...event.history], lastUsage: null, usageMessageCount: 0 };
    case 'budget':
      return { ...state, rejectionsUsed: event.used };
    case 'tools_loaded':
      return { ...state, loadedTools: [...new Set([...state.loadedTools, ...event.names])] };
    case 'usage':
      // Usage arrives before the reply is appended, so the history length is the request's size.
      return { ...state, lastUsage: event.usage, usageMessageCount: state.history.length };
    default:
      return state;
  }
}

/**
 * `applyEvent` for the live session, which owns its history array (the one `open` built, or the copy a
 * compaction made): a `message` is appended in place rather than copying the whole history for every
 * message of every round. Hosts get copies (`AgentSession.state`), so nobody sees the array change.
 */
export function applyEventInPlace(state: ReplayState, event: AgentEvent): ReplayState {
  if (event.type !== 'message') return applyEvent(state, event);
  state.history.push(event.message);
  return state;
}

/**
 * Same result as folding `applyEvent`, in linear time: a long transcript is mostly `message` events,
 * and copying the history for each would make resuming quadratic. The array appended to in place is
 * one this function made, so neither `initial` nor an event's history is ever mutated.
 */
export function replayEvents(events: Iterable<AgentEvent>, initial: ReplayState = emptyReplayState()): ReplayState {
  let state = initial;
  let owned: ChatMessage[] | null = null;
  for (const event of events) {
    if (event.type !== 'message') {
      state = applyEvent(state, event);
      continue;
    }
    if (state.history !== owned) {
      owned = [...state.history];
      state = { ...state, history: owned };
    }
    owned.push(event.message);
  }
  return state;
}

/**
 * The answer a transcript ends in the middle of: text streamed (saved in pieces as `text_delta`) after
 * the last step the loop completed. Empty when the last prompt finished, was cancelled (the partial
 * text is then a `message` already) or failed; non-empty only when the process died mid-answer.
 */
export function interruptedReply(events: Iterable<AgentEvent>): string {
  let text = '';
  for (const event of events) {
    if (event.type === 'text_delta') text += event.delta;
    else if (event.type === 'text_reclassified' && text.endsWith(event.text)) text = text.slice(0, text.length - event.text.length);
    else if (event.type === 'message' || event.type === 'round_started' || event.type === 'prompt_started' || event.type === 'outcome' || event.type === 'compaction') text = '';
  }
  return text;
}
