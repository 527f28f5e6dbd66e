/**
 * The form of a model-server corpus case (issue 32) and the builders its rows are written with: a
 * case is what a real server did, as the fake OpenAI server plays it (one response per attempt), and
 * the outcome the call must have. The cases: modelServers.ts (statuses and error bodies) and
 * streamQuirks.ts (stream shapes, finish reasons, usage); the runner is modelServerCorpus.test.ts.
 */
import type { ModelErrorKind } from '../../../../src/agent/ports';
import type { FakeResponse, FakeScenarioResponse } from '../../../fakes/fakeOpenAiServer';
import type { FakeServerRule } from '../../../fakes/openai/serverRules';

export interface ModelCase {
  /** Short, unique: what the server does. */
  id: string;
  /** The public report (issue, pull request or docs page) the behaviour comes from. */
  source: string;
  /** What the fake answers, one response per attempt. */
  play: FakeResponse[];
  /** Strict rules of the server the fake also plays (rejections it answers by itself). */
  rules?: FakeServerRule[];
  /** The request carries the history of a turn whose `_Stop` hook objected (an assistant text, then the hook's call and answer). */
  stopObjection?: boolean;
  expect: Answered | Failed;
}

/** The call succeeds after `attempts` requests, with this answer (and thinking, kept apart). */
export interface Answered {
  /** The text; `null` for a reply that is only tool calls. */
  answer: string | null;
  reasoning?: string;
  toolCalls?: string[];
  attempts: number;
  /** Each backoff the client waited, in ms, when the server said how long. */
  waitedMs?: number[];
  /** The finish reason the reply reports to the loop. */
  finish?: string;
  /** The token counts the server reported (read from the stream, not estimated). */
  usage?: { promptTokens: number; completionTokens: number };
}

/** The call fails after `attempts` requests with a message saying `says` (and never `neverSays`). */
export interface Failed {
  fails: RegExp;
  kind?: ModelErrorKind;
  neverSays?: RegExp;
  attempts: number;
}

/** The attempts the runner's client makes at most (a final failure is played this many times to show it is not retried). */
export const MAX_ATTEMPTS = 5;

let seq = 0;
/** One `chat.completion.chunk` as the servers send it. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  return { id: `chatcmpl-corpus${seq}`, object: 'chat.completion.chunk', created: 1700000000, model: 'fake-model', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra };
}

/** One attempt's stream: these events, then `[DONE]`. */
export function stream(...events: FakeScenarioResponse['events']): FakeScenarioResponse {
  return { type: 'scenario', events: [...events, '[DONE]'] };
}

/** A whole streamed text answer: role, the pieces, the finish, `[DONE]`. */
export function streamed(pieces: string[], extra: { before?: FakeScenarioResponse['events']; after?: FakeScenarioResponse['events'] } = {}): FakeScenarioResponse {
  return {
    type: 'scenario',
    events: [...(extra.before ?? []), chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ content: p })), chunk({}, 'stop'), ...(extra.after ?? []), '[DONE]'],
  };
}

export const ok = (text = 'Done.'): FakeResponse => ({ type: 'reply', text });
export const err = (status: number, body: unknown, headers?: Record<string, string>): FakeResponse => ({ type: 'error', status, body, ...(headers ? { headers } : {}) });
export const openAiErr = (message: string, type: string | null = null, code: string | number | null = null): unknown => ({ error: { message, type, param: null, code } });
export const times = (n: number, response: FakeResponse): FakeResponse[] => Array.from({ length: n }, () => response);
