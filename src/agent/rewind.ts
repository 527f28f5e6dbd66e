/**
 * Rewind: the conversation goes back to before one of the user's messages. The decisions are here, pure
 * over the transcript's events; the hosts restore files and draw. A rewind is durable and append-only:
 * the host appends one `rewound` record, and `activeRecords` folds every such record into the
 * transcript's active branch when it is loaded (the later records stay in the file, never resurrected).
 * Each turn's `_Stop` verdict (per server: passed, objected, failed) is read from the gate's events
 * (`hook_finished` for `_Stop`, the outcome's unresolved objections), and "the last green state" is the
 * end of the newest turn whose checks all passed.
 */
import type { AgentEvent, OutcomeReason, TranscriptRecord } from './events';
import { approvedPlanSteps, isApprovedPlanPrompt } from './planSteps';

/** One `_Stop` server's last word in a turn: no objection, an objection, or no answer (error, timeout, cancel). */
export type StopCheckResult = 'passed' | 'objected' | 'failed';

export interface StopCheck {
  server: string;
  result: StopCheckResult;
}

/** A turn's `_Stop` verdict: `none` when no `_Stop` hook was asked. */
export type TurnVerdict = 'passed' | 'objected' | 'none';

export interface ToolCallRef {
  callId: string;
  name: string;
}

export interface RewindTurn {
  /** 1-based: user message N. */
  prompt: number;
  text: string;
  /** The index of its `prompt_started` in the events. */
  start: number;
  calls: ToolCallRef[];
  checks: StopCheck[];
  verdict: TurnVerdict;
  /** How it ended; undefined while it runs (or when it was interrupted). */
  ended?: OutcomeReason;
}

export interface RewindPlan {
  /** The user message the conversation goes back to before (1-based), and its text (back to the composer). */
  prompt: number;
  text: string;
  /** How many of the events stay: everything before that message's `prompt_started`. */
  keep: number;
  /** The tool calls made since, oldest first: the files they changed are to be put back. */
  calls: ToolCallRef[];
}

/** The transcript's active branch: each `rewound` record cuts what came from its message on (and is itself dropped). */
export function activeRecords(records: readonly TranscriptRecord[]): TranscriptRecord[] {
  const active: TranscriptRecord[] = [];
  const promptAt: number[] = [];
  for (const record of records) {
    const event = record.event;
    if (event.type === 'rewound') {
      const at = promptAt[event.prompt - 1];
      // A marker naming a message the branch does not have (a hand-edited file) changes nothing.
      if (at !== undefined) {
        active.length = at;
        promptAt.length = event.prompt - 1;
      }
      continue;
    }
    if (event.type === 'prompt_started') promptAt.push(active.length);
    active.push(record);
  }
  return active;
}

function stopResult(result: string): StopCheckResult {
  return result === 'no_objection' ? 'passed' : result === 'objection' ? 'objected' : 'failed';
}

function verdictOf(checks: readonly StopCheck[], ended: OutcomeReason | undefined): TurnVerdict {
  if (checks.length === 0) return 'none';
  // Checks that all passed in a turn that then failed or was stopped did not settle that turn.
  return ended === 'end_turn' && checks.every((c) => c.result === 'passed') ? 'passed' : 'objected';
}

/** One turn's `_Stop` checks, folded from its events as they come (the chat draws the verdict on each turn). */
export class StopChecksFold {
  private checks = new Map<string, StopCheckResult>();

  see(event: AgentEvent): void {
    if (event.type === 'prompt_started') this.checks = new Map();
    else if (event.type === 'hook_finished' && event.hook === '_Stop') this.checks.set(event.server, stopResult(event.result));
    else if (event.type === 'outcome') for (const objection of event.outcome.unresolved?.objections ?? []) this.checks.set(objection.server, 'objected');
  }

  get checksSoFar(): StopCheck[] {
    return [...this.checks].map(([server, result]) => ({ server, result }));
  }

  verdict(ended: OutcomeReason | undefined): TurnVerdict {
    return verdictOf(this.checksSoFar, ended);
  }
}

/** The turns (user messages) of the events, each with its tool calls and its `_Stop` checks. */
export function turnsOf(events: readonly AgentEvent[]): RewindTurn[] {
  const turns: RewindTurn[] = [];
  const fold = new StopChecksFold();
  const close = (): void => {
    const turn = turns.at(-1);
    if (turn === undefined) return;
    turn.checks = fold.checksSoFar;
    turn.verdict = fold.verdict(turn.ended);
  };
  events.forEach((event, index) => {
    if (event.type === 'prompt_started') {
      close();
      fold.see(event);
      turns.push({ prompt: turns.length + 1, text: event.text, start: index, calls: [], checks: [], verdict: 'none' });
      return;
    }
    const turn = turns.at(-1);
    if (turn === undefined) return;
    fold.see(event);
    if (event.type === 'tool_started') turn.calls.push({ callId: event.callId, name: event.name });
    else if (event.type === 'outcome') turn.ended = event.outcome.reason;
  });
  close();
  return turns;
}

/** Going back to before user message `prompt`; a string says why it cannot be (no such message). */
export function rewindPlan(events: readonly AgentEvent[], prompt: number): RewindPlan | string {
  const turns = turnsOf(events);
  const turn = Number.isInteger(prompt) ? turns[prompt - 1] : undefined;
  if (turn === undefined) {
    return turns.length === 0 ? 'this conversation has no user messages to rewind to' : `there is no user message ${prompt}: this conversation has ${turns.length} (1 to ${turns.length})`;
  }
  return { prompt, text: turn.text, keep: turn.start, calls: turns.slice(prompt - 1).flatMap((t) => t.calls) };
}

/** Where "Back to last green" goes: before the message after the newest green turn, or why it goes nowhere. */
export type LastGreen = { kind: 'rewind'; green: number; plan: RewindPlan } | { kind: 'already'; green: number } | { kind: 'none' };

export function lastGreen(events: readonly AgentEvent[]): LastGreen {
  const turns = turnsOf(events);
  const green = turns.findLast((t) => t.verdict === 'passed');
  if (green === undefined) return { kind: 'none' };
  if (green.prompt === turns.length) return { kind: 'already', green: green.prompt };
  const plan = rewindPlan(events, green.prompt + 1);
  return typeof plan === 'string' ? { kind: 'none' } : { kind: 'rewind', green: green.prompt, plan };
}

/** A todo item as the bundled todo server keeps it. */
export interface TodoEntry {
  text: string;
  done: boolean;
}

function todoItems(args: string): TodoEntry[] | undefined {
  try {
    const parsed = (JSON.parse(args) as { items?: unknown }).items;
    if (!Array.isArray(parsed)) return undefined;
    const items = parsed.filter((i): i is TodoEntry => typeof i === 'object' && i !== null && typeof (i as TodoEntry).text === 'string' && typeof (i as TodoEntry).done === 'boolean');
    return items.length === parsed.length ? items.map(({ text, done }) => ({ text, done })) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The todo list each event left, in order: a `todoTool` call of this session that succeeded and an
 * approved plan's prompt (the host wrote its steps just before). A subagent's calls (`subagent_event`)
 * do not count: it keeps a list of its own (docs/hooks.md#the-session-on-tool-calls). `at` is the
 * event's index.
 */
function todoWrites(events: readonly AgentEvent[], todoTool: string): Array<{ at: number; items: TodoEntry[] }> {
  const writes: Array<{ at: number; items: TodoEntry[] }> = [];
  const pending = new Map<string, TodoEntry[]>();
  events.forEach((event, at) => {
    if (event.type === 'prompt_started' && isApprovedPlanPrompt(event.text)) writes.push({ at, items: approvedPlanSteps(event.text).map((text) => ({ text, done: false })) });
    else if (event.type === 'tool_started' && event.name === todoTool) {
      const items = todoItems(event.arguments);
      if (items !== undefined) pending.set(event.callId, items);
    } else if (event.type === 'tool_finished' && pending.has(event.callId)) {
      if (!event.isError) writes.push({ at, items: pending.get(event.callId) ?? [] });
      pending.delete(event.callId);
    }
  });
  return writes;
}

/**
 * The todo list as it stood before event `keep` (a rewind keeps the events before it), when anything
 * from `keep` on changed it; undefined when nothing did (the list is left alone). A conversation whose
 * kept part never wrote it started with an empty list.
 */
export function todoListAt(events: readonly AgentEvent[], keep: number, todoTool: string): TodoEntry[] | undefined {
  const writes = todoWrites(events, todoTool);
  if (!writes.some((w) => w.at >= keep)) return undefined;
  return writes.findLast((w) => w.at < keep)?.items ?? [];
}
