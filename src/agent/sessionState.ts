/**
 * The session's history-bearing state as a pure reducer over events. The live session and a resume
 * from the transcript use the same function, so what the user saw is exactly what gets rebuilt:
 * `message` appends, `compaction` replaces the history, `budget` sets the _Stop budget used, `usage`
 * records the last reported usage (and how many messages that request carried, for the size estimate).
 */
import type { AgentEvent, ChatMessage, Usage } from './types';

export interface ReplayState {
  history: ChatMessage[];
  rejectionsUsed: number;
  lastUsage: Usage | null;
  /** How many history messages the request behind `lastUsage` contained. */
  usageMessageCount: number;
}

export function emptyReplayState(): ReplayState {
  return { history: [], rejectionsUsed: 0, lastUsage: null, usageMessageCount: 0 };
}

export function applyEvent(state: ReplayState, event: AgentEvent): ReplayState {
  switch (event.type) {
    case 'message':
      return { ...state, history: [...state.history, event.message] };
    case 'compaction':
      return { ...state, history: [...event.history], lastUsage: null, usageMessageCount: 0 };
    case 'budget':
      return { ...state, rejectionsUsed: event.used };
    case 'usage':
      // Usage arrives before the reply is appended, so the history length is the request's size.
      return { ...state, lastUsage: event.usage, usageMessageCount: state.history.length };
    default:
      return state;
  }
}

export function replayEvents(events: Iterable<AgentEvent>, initial: ReplayState = emptyReplayState()): ReplayState {
  let state = initial;
  for (const event of events) state = applyEvent(state, event);
  return state;
}
